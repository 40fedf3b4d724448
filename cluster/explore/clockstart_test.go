package explore_test

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster/explore"
)

var (
	clockStartN    = flag.Int("clockstart.n", 2, "sequences TestClockStartChangesOnlyTimestamps plays")
	clockStartBase = flag.Uint64("clockstart.base", 0, "its first sequence's seed is base+1")
)

// TestClockStartChangesOnlyTimestamps: a random user-level sequence on
// the default world plays the same whatever day its Kafka clock starts on
// (cluster.Config.ClockStartMs): the same state, the same events, the same
// records kept and deleted and made durable. Only the timestamps the
// records carry differ, which neither shows. Disk damage is left out: a
// zeroed timestamp field is a change on one day and none on another.
func TestClockStartChangesOnlyTimestamps(t *testing.T) {
	for i := range *clockStartN {
		seed := *clockStartBase + uint64(i) + 1
		start := rand.New(rand.NewPCG(seed, 1)).Int64N(4102444800000) + 1 // to 2100
		cfg := explore.UserConfig{Ops: 6, MaxValueBytes: 4096}
		var ops []explore.UserOp
		for _, o := range explore.UserSequence(cfg, seed) {
			if o.Kind != explore.UserCorrupt && o.Kind != explore.UserWipe {
				ops = append(ops, o)
			}
		}
		play := func(clockStart int64) (string, []string) {
			c := cfg
			c.ClockStartMs = clockStart
			_, w, err := explore.RunUserSequence(c, seed, ops)
			require.NoError(t, err)
			require.Equal(t, clockStart+w.NowMs(), w.ClockMs())
			st, err := json.Marshal(w.State())
			require.NoError(t, err)
			var evs []string
			for _, e := range w.Events() {
				evs = append(evs, e.String())
			}
			return string(st), evs
		}
		st0, ev0 := play(0)
		st1, ev1 := play(start)
		replay := func() string {
			return "replay: go test ./cluster/explore -run TestClockStartChangesOnlyTimestamps -clockstart.n 1 -clockstart.base " +
				strconv.FormatUint(seed-1, 10) + "\n" + explore.FormatUserSequence(ops)
		}
		if diff := cmp.Diff(ev0, ev1); diff != "" {
			t.Fatalf("seed %d: events (-from 1970 +from %d):\n%s\n%s", seed, start, diff, replay())
		}
		if diff := cmp.Diff(st0, st1); diff != "" {
			t.Fatalf("seed %d: state (-from 1970 +from %d):\n%s\n%s", seed, start, diff, replay())
		}
	}
}
