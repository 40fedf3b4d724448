package web

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// MaxUpdateBytes is the most a frame of the update stream may hold, the
// whole update included, whatever the cluster holds.
const MaxUpdateBytes = 50 << 10

// TestManyPartitionsKeepUpdatesSmall makes a topic of two thousand
// partitions (as many as the world holds) read by a group, kills a broker
// so that most of them change, and follows the stream of pages that show
// it sorted and filtered every way: the whole update and every patch stay
// under MaxUpdateBytes, and the page shows PageRows rows of them.
func TestManyPartitionsKeepUpdatesSmall(t *testing.T) {
	n := bigTopicPartitions()
	live := bigLive(t, n)
	var pages []*page
	for _, q := range []TableQuery{{}, {Topic: "big", Sort: SortLag, Page: 3}, {Status: StatusUnderReplicated, Sort: SortLeader},
		{Leader: 2, Sort: SortUnderReplicated}, {Topic: "big", Page: 1 << 20}} {
		pages = append(pages, &page{focus: Focus{Topic: "big", Partition: 7, Table: q}})
	}
	largest := 0
	step := func() {
		for _, p := range pages {
			e, _, err := live.Present(p.focus)
			require.NoError(t, err)
			b, ok, err := p.fr.next(e)
			require.NoError(t, err)
			if !ok {
				continue
			}
			require.NoError(t, p.store.Apply(b))
			largest = max(largest, len(b))
			if len(b) > MaxUpdateBytes {
				t.Fatalf("a frame of the stream of %+v is %d bytes with %d partitions; it must stay under %d: %.300s", p.focus.Table, len(b), n, MaxUpdateBytes, b)
			}
			u := e.update
			if len(u.Partitions) > PageRows || u.Table.Total < n {
				t.Fatalf("the update of %+v has %d rows of %d partitions", p.focus.Table, len(u.Partitions), u.Table.Total)
			}
		}
	}
	step()
	require.NoError(t, live.Do(nil, func(w *cluster.World) error { return w.Kill(2) }))
	for i := 0; i < 30; i++ {
		require.NoError(t, live.Advance(500))
		step()
	}
	t.Logf("%d partitions: the largest frame was %d bytes", n, largest)
}
