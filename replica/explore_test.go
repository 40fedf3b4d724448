package replica_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicatest"
)

var opMix = []opKind{opProduce, opProduce, opDeliver, opDeliver, opDeliver, opDeliver,
	opDeliver, opDeliver, opDrop, opTick, opTick, opCrash, opRestart, opFence, opRetry}

func randomSchedule(rng *rand.Rand, n int) []op {
	s := make([]op, n)
	for i := range s {
		s[i] = op{Kind: opMix[rng.IntN(len(opMix))], A: rng.IntN(100), B: rng.IntN(100)}
	}
	return s
}

// losesAckedWrite plays a schedule and reports whether an acks=all record
// went missing from the leader's log.
func losesAckedWrite(rules replica.RuleSet, schedule []op) bool {
	env, err := replicatest.NewInteractionEnv(3, replica.Config{Rules: rules})
	if err != nil {
		panic(err)
	}
	env.Elect(1, nil)
	for _, o := range schedule {
		apply(env, o)
		if noAckedWriteLost(env) != nil {
			return true
		}
	}
	return false
}

// shrink drops events one at a time while the loss remains.
func shrink(rules replica.RuleSet, schedule []op) []op {
	for i := 0; i < len(schedule); {
		shorter := append(append([]op(nil), schedule[:i]...), schedule[i+1:]...)
		if losesAckedWrite(rules, shorter) {
			schedule = shorter
			continue
		}
		i++
	}
	return schedule
}

// TestExplorerFindsZeroTenLoss: a random search over process crashes, clean
// elections and message loss finds, under 0.10 rules, an acks=all record
// that disappears (KIP-101 part 1), and under the modern rules finds none.
func TestExplorerFindsZeroTenLoss(t *testing.T) {
	const seeds, events = 3000, 60
	found := func(rules replica.RuleSet) (seed uint64, schedule []op, ok bool) {
		for seed := uint64(1); seed <= seeds; seed++ {
			s := randomSchedule(rand.New(rand.NewPCG(seed, 0x6b61666b61)), events)
			if losesAckedWrite(rules, s) {
				return seed, shrink(rules, s), true
			}
		}
		return 0, nil, false
	}
	seed, schedule, ok := found(replica.V0_10)
	if !ok {
		t.Fatalf("no schedule among %d seeds lost an acknowledged write under 0.10 rules; the explorer or the 0.10 truncation rule is broken", seeds)
	}
	t.Logf("0.10 loses an acks=all write: seed %d, shortest schedule (%d events) %v", seed, len(schedule), schedule)
	trace, _ := play(replica.V0_10, 1, schedule)
	t.Logf("trace:\n%s", trace)
	if seed, schedule, ok := found(replica.Modern); ok {
		t.Fatalf("modern rules lost an acknowledged write: seed %d, schedule %v", seed, schedule)
	}
}
