package web

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/scenarios"
)

// TestEventsKeepTheirBrokerAndPartition: the events the page lists, and
// those of a scenario's step, say which broker and which partition they
// are about, as the terminal's do.
func TestEventsKeepTheirBrokerAndPartition(t *testing.T) {
	got := lastEvents([]cluster.Event{
		{TimeMs: 5, Kind: cluster.EventReplica, Broker: 2, Topic: "orders", Partition: 1, Text: "truncated to 3"},
		{TimeMs: 6, Kind: cluster.EventController, Text: "elected broker 1"},
	}, 10)
	require.Equal(t, []string{"t=5 b2 orders-1: truncated to 3", "t=6 elected broker 1"}, got)

	l, err := NewLive()
	require.NoError(t, err)
	_, err = l.StartScenario("acks1-loses-acked-writes", 3, nil)
	require.NoError(t, err)
	s := l.Session()
	found := false
	for _, e := range s.Play.Played.Events {
		found = found || strings.Contains(e, " b2 clicks-0: ")
	}
	require.True(t, found, "no event of step %s names its broker and partition: %v", s.Play.Played.ID, s.Play.Played.Events)
}

// TestFrozenHighWatermarkIsCued: with the ISR below min.insync.replicas
// the view says so on the partition's row (MinISR), which the page shows
// beside the high watermark that does not move; with enough in-sync
// replicas it says nothing.
func TestFrozenHighWatermarkIsCued(t *testing.T) {
	sc, err := scenarios.Get("acks-all-and-the-isr")
	require.NoError(t, err)
	l, err := NewLive()
	require.NoError(t, err)
	_, err = l.StartScenario(sc.Name, 1, nil) // step 0: everything in sync
	require.NoError(t, err)
	v, err := l.View(Focus{Topic: "orders"}, nil)
	require.NoError(t, err)
	require.Zero(t, v.Partitions[0].MinISR, "ISR %v", v.Partitions[0].ISR)
	// contrast B (min.insync.replicas=2): both followers crash, the ISR is {1}
	_, err = l.StartScenario(sc.Name, 9, nil)
	require.NoError(t, err)
	v, err = l.View(Focus{Topic: "orders"}, nil)
	require.NoError(t, err)
	s := l.Session()
	require.Equal(t, "B1", s.Play.Played.ID)
	require.Equal(t, []int32{1}, v.Partitions[0].ISR)
	require.Equal(t, 2, v.Partitions[0].MinISR, "the HW is frozen: ISR 1 < min.insync.replicas 2")
	require.Equal(t, 2, v.Detail.MinISR)
}
