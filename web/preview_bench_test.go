package web

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// BenchmarkPartitionRecords lists the records the page reads of a
// partition of the default world after two simulated minutes, the newest
// RecordWindow of each replica's log (a view's detail) and
// MaxJourneyOffsets (a journey's): as previews, as the page reads them,
// beside whole, as it read them before, the peer: previews are read from
// the batches every time, whole records stay decoded in the mirror's cache
// after the first time.
func BenchmarkPartitionRecords(b *testing.B) {
	live, err := NewLive()
	require.NoError(b, err)
	require.NoError(b, live.Advance(120_000))
	shown := func(topic string, p int32) bool { return topic == "orders" && p == 0 }
	for _, tail := range []int{RecordWindow, MaxJourneyOffsets} {
		for _, c := range []struct {
			name    string
			preview int
		}{{"preview", PreviewBytes + 1}, {"whole", 0}} {
			b.Run(fmt.Sprintf("tail=%d/%s", tail, c.name), func(b *testing.B) {
				opts := cluster.StateOptions{Records: shown, Tail: tail, Preview: c.preview}
				b.ReportAllocs()
				for b.Loop() {
					require.NoError(b, live.Look(nil, func(w *cluster.World) error {
						w.StateWith(opts)
						return nil
					}))
				}
			})
		}
	}
}
