package live

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/scenarios"
)

// decisive is each guided scenario's decisive outcome on the reference: the
// facts, at the step where they show, that the scenario exists to teach.
// Rewording a scenario's text must leave them; its file must still assert
// each (as shows or expect) and the simulation must reach it.
var decisive = map[string]struct {
	step  string
	facts []string
}{
	// a backfill's batch, dated weeks apart and in the broker's future, appended as sent
	"your-varint": {"3", []string{"b order-1=ACK(4) order-2=ACK(5) order-3=ACK(6) order-4=ACK(7)"}},
	// the cleaner's batches keep their offsets, gaps and all
	"your-batch": {"3", []string{"segments profiles-0 0:[46,47,48,49] 50:[88,89] 90:[90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129]"}},
	// a fetch at an offset the cleaner removed begins with the empty batch that covers it
	"your-lookup-compacted": {"4", []string{"fetch b1 last-fetch=2064 first-batch=2064", "h2 processed=73 duplicates=0"}},
	// the consumer moves past the COMMIT marker, the log's last batch
	"your-lookup-transaction": {"2", []string{"group g offset=orders-0:4/4", "c1 processed=3"}},
	// every record once, less than an index interval walked a read
	"your-lookup": {"2", []string{"c1 processed=700 duplicates=0", "fetch b1 reads=100 scanned=127 scanned-bytes=37061"}},
	// one segment by age and one by size in the same check
	"your-retention-rules": {"2", []string{"segments both-0 6:[6,7,8] 9:[9,10,11]"}},
	// retention deletes what slow never read
	"your-retention": {"2", []string{"segments events-0 10:[]"}},
	// one flipped CRC byte cuts the segment at batch 5, the good batches after it too
	"your-recovery-disk": {"2", []string{"ctl hw=5 leo=5"}},
	// the rebuilt indexes serve every record
	"your-recovery-index": {"2", []string{"ctl hw=30 leo=30"}},
	// a torn write: the whole batches before it stay
	"your-recovery": {"2", []string{"ctl hw=101 leo=101"}},
	// the cut takes the follower's high watermark down with its log
	"your-rounds": {"4", []string{"b1 follower [0 a·e1] 1/1 EC [(1,0)]", "violations none"}},
	// m2, acknowledged and on A's disk, gives way to m3
	"your-truncation": {"3", []string{"b1 follower [0 m1·e0, 1 m3·e2*] 2/2"}},
	// the cut at the smaller end: j goes, X's log a prefix of Y's
	"your-two-rounds": {"10", []string{"b1 follower ~[0 a·e0, 1 c·e2, 2 d·e2, 3 e·e2, 4 g·e6, 5 h·e6, 6 i·e6]"}},
	// a deleted topic's owned partition is not kept
	"your-assignor-delete": {"2", []string{"group g state=Stable C1=[orders-0,orders-2] C2=[orders-1,orders-3]"}},
	// the group settles after the topic grows while a member joins
	"your-assignor-growth": {"3", []string{"group g state=Stable"}},
	// the group settles after a member's restart, the others reading on
	"your-assignor": {"2", []string{"group g state=Stable"}},
	// four of the eight records: the aborted ones are skipped, the markers passed
	"your-read-committed": {"2", []string{"rc read=4"}},
}

// TestEveryScenarioTeachesItsOutcome plays every guided scenario on the
// reference and checks its decisive outcome (the table above) where it
// shows.
func TestEveryScenarioTeachesItsOutcome(t *testing.T) {
	all, err := Scenarios()
	require.NoError(t, err)
	require.Len(t, decisive, len(all), "every scenario has its decisive outcome in the table")
	for _, g := range all {
		want, ok := decisive[g.Name]
		if !ok {
			t.Errorf("%s: no decisive outcome in the table", g.Name)
			continue
		}
		r, err := scenarios.NewRun(g.On(ReferenceParts()), 0)
		require.NoError(t, err)
		found := false
		for {
			o, err := r.Next()
			if errors.Is(err, scenarios.ErrDone) {
				break
			}
			require.NoError(t, err)
			if o.Step.ID != want.step || o.InBranch != "" {
				continue
			}
			found = true
			for _, f := range want.facts {
				asserted := false
				for _, c := range o.Checks {
					if c.Fact.Subject+" "+c.Fact.Text != f {
						continue
					}
					asserted = true
					if !c.Match {
						t.Errorf("%s step %s: the decisive %q does not hold: the simulation shows %q", g.Name, want.step, f, c.Got)
					}
				}
				if !asserted {
					t.Errorf("%s step %s (%s): the decisive %q is no longer asserted by the scenario", g.Name, want.step, g.File, f)
				}
			}
		}
		if !found {
			t.Errorf("%s: no step %s", g.Name, want.step)
		}
	}
}
