package web

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestLiveWallClock: the served world starts Kafka's clock at the wall
// clock's time, and a Reset starts the new world's at the wall clock's
// time then; the world's own time starts at 0 each time.
func TestLiveWallClock(t *testing.T) {
	wall := []int64{1_796_000_000_000, 1_796_000_900_000}
	calls := 0
	live, err := NewLiveWallClock(nil, func() int64 { calls++; return wall[calls-1] })
	require.NoError(t, err)
	clock := func() (now, kafka int64) {
		require.NoError(t, live.Look(nil, func(w *cluster.World) error { now, kafka = w.NowMs(), w.ClockMs(); return nil }))
		return now, kafka
	}
	now, kafka := clock()
	require.Equal(t, [2]int64{0, wall[0]}, [2]int64{now, kafka})
	require.NoError(t, live.Advance(1500))
	now, kafka = clock()
	require.Equal(t, [2]int64{1500, wall[0] + 1500}, [2]int64{now, kafka})
	require.NoError(t, live.Reset())
	now, kafka = clock()
	require.Equal(t, [2]int64{0, wall[1]}, [2]int64{now, kafka})
}
