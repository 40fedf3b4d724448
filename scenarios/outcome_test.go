package scenarios

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// decisive is each scenario's decisive outcome: the facts, at the step
// where they show, that the scenario exists to teach. Rewording a
// scenario's text must leave them; the data file must still assert each
// (as shows or expect) and the simulation must reach it.
var decisive = map[string]struct {
	step  string
	facts []string
}{
	// acknowledged while only in three page caches
	"life-of-a-record": {"4", []string{"b1 [0 alice=$10·e0*] 1/1", "p $10=ACK(0)"}},
	// b acknowledged, then on no replica
	"acks1-loses-acked-writes": {"4", []string{"b1 follower [0 a·e0] 1/1 EC [(0,0)]", "p acked=3 lost-after-ack=1"}},
	// r1, acknowledged and consumed, gone after the power cut of the last ISR member
	"acks-all-and-the-isr": {"5", []string{"b1 leader [0 r0·e0] 1/1 EC [(0,0),(2,1)]"}},
	// three acknowledged records lost to an unclean election, offset 1 reused
	"unclean-leader-election": {"10B", []string{"b1 follower [0 r0·e0, 1 r4·e2] 2/2", "p r1=ACK(1) r2=ACK(2) r3=ACK(3) r4=ACK(1)"}},
	// 0.10: m2 acknowledged, lost, its offset reused
	"kip101-part1": {"6", []string{"b1 [0 m1, 1 m3] 2/2", "p m2=ACK(1) m3=ACK(1)"}},
	// epochs: m2 survives the same restart, the logs identical
	"kip101-part2": {"7", []string{"b2 follower [0 m1·e0, 1 m2·e0, 2 m3·e1] 3/3 EC [(0,0),(1,2)]"}},
	// 0.10: different records at offset 1, same LEO and HW
	"kip101-part3": {"8", []string{"b1 [0 m1, 1 m2!, 2 m4*] 3/3", "b2 [0 m1, 1 m3*, 2 m4*] 3/3"}},
	// epochs: identical logs, m2 lost all the same
	"kip101-part4": {"8", []string{"b1 follower [0 m1·e0, 1 m3·e1*] 2/2 EC [(0,0),(1,1)]", "b2 leader [0 m1·e0, 1 m3·e1*] 2/2 EC [(0,0),(1,1)]"}},
	// KIP-279's second round: X's log a prefix of Y's
	"kip279-two-rounds": {"6c", []string{"b1 follower [0 a·e0, 1 c·e1, 2 d·e1, 3 e·e1, 4 g·e3, 5 h·e3] EC [(0,0),(1,1),(3,4)]"}},
	// coop-g keeps p0-p3 while eager-g has all its members' partitions revoked
	"eager-vs-cooperative": {"2", []string{"group eager-g state=PreparingRebalance E1=[] E2=[] E3=[]",
		"group coop-g state=PreparingRebalance K1=[orders-0,orders-2,orders-4] K2=[orders-1,orders-3,orders-5]"}},
	// a crash: 10-19 processed twice
	"crash-is-not-a-goodbye": {"B3", []string{"W2 processed=30 duplicates=10"}},
	// four partitions: alice moves to p1
	"keys-order-partitions": {"3-4", []string{"users-1 [0 dave=v1·e0, 1 alice=v4·e0] 2/2"}},
	// retention deletes what slow never read
	"retention-and-compaction": {"75", []string{"group slow offset=events-0:9/9", "slow processed=1"}},
	// an open transaction holds read_committed at the last stable offset, committed f0 behind it
	"read-committed-waits": {"1", []string{"rc position=0 read=0", "ctl hw=3 lso=0"}},
	// the zombie's batch refused at the fenced epoch, its transaction aborted
	"zombie-fenced": {"2", []string{"old p2=INVALID_PRODUCER_EPOCH", "b1 [0 p1·e0, 1 ⟨ABORT⟩·e0]"}},
	// the aborted records stay; read_committed skips them, read_uncommitted hands them out
	"aborted-transaction": {"3", []string{"rc position=6 read=1", "ru position=6 read=4"}},
	// Kafka 4.1: the ELR member with every acknowledged record is elected
	"last-isr-member-dies": {"6", []string{"ctl leader=2 isr={2,3} elr={}", "b2 leader [0 r0·e0, 1 r1·e0]"}},
	// five acknowledgements, no running broker with the records
	"your-producer-power-cut": {"2", []string{"ctl leader=2 e=1 isr={2,3}", "b2 leader 0/0"}},
}

// TestEveryScenarioTeachesItsOutcome plays every scenario and checks its
// decisive outcome (the table above) where it shows.
func TestEveryScenarioTeachesItsOutcome(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	require.Len(t, decisive, len(all), "every scenario has its decisive outcome in the table")
	for _, sc := range all {
		want, ok := decisive[sc.Name]
		if !ok {
			t.Errorf("%s: no decisive outcome in the table", sc.Name)
			continue
		}
		r, err := NewRun(sc, 0)
		require.NoError(t, err)
		found := false
		for {
			o, err := r.Next()
			if errors.Is(err, ErrDone) {
				break
			}
			require.NoError(t, err)
			if o.Step.ID != want.step {
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
						t.Errorf("%s step %s: the decisive %q does not hold: the simulation shows %q\nreplay: go run ./cmd/kafkalive play %s --auto", sc.Name, want.step, f, c.Got, sc.Name)
					}
				}
				if !asserted {
					t.Errorf("%s step %s (data/%s): the decisive %q is no longer asserted by the scenario", sc.Name, want.step, sc.File, f)
				}
			}
		}
		if !found {
			t.Errorf("%s: no step %s", sc.Name, want.step)
		}
	}
}
