//go:build !js

package tab

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestTabClockStartsAtTheWallClock: the tab's world starts Kafka's clock at
// the browser's time, as the server's does, and so does the world a Reset
// builds; it then advances with the world.
func TestTabClockStartsAtTheWallClock(t *testing.T) {
	now := int64(1_765_000_000_000) // December 2025
	old := wallClock
	wallClock = func() int64 { return now }
	defer func() { wallClock = old }()
	tb, err := New(func(Out) {})
	require.NoError(t, err)
	clock := func() int64 {
		var ms int64
		require.NoError(t, tb.Live().Look(nil, func(w *cluster.World) error { ms = w.ClockMs(); return nil }))
		return ms
	}
	require.Equal(t, now, clock())
	require.NoError(t, tb.Live().Advance(1000))
	require.Equal(t, now+1000, clock())
	now += 60_000
	require.NoError(t, tb.Live().Reset())
	require.Equal(t, now, clock())
}
