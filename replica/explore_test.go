package replica_test

import (
	"flag"
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

// exploreSeeds widens the explorer's search: go test ./replica -run
// TestExplorer -explore.seeds=100000.
var exploreSeeds = flag.Uint64("explore.seeds", 3000, "seeds TestExplorerFindsZeroTenLoss tries per rule set")

// exploreSchedule is the explorer's schedule for seed.
func exploreSchedule(seed uint64) []op {
	return randomSchedule(rand.New(rand.NewPCG(seed, 0x6b61666b61)), 60)
}

// TestExplorerFindsZeroTenLoss: a random search over process crashes, clean
// elections and message loss finds, under 0.10 rules, an acks=all record
// that disappears (KIP-101 part 1), and under every rule set with leader
// epochs finds none. 2.0 is among them: its follower cuts at its HW when the
// leader has no answer for its epoch (AbstractFetcherThread.
// getOffsetTruncationState with ReplicaManager.makeFollowers' initial fetch
// offset), and a 2.0 leader answers undefined for its own epoch until its
// first append in it; keeping the LEO there instead, as 2.8 does, loses
// writes 2.0 never lost (6 of 10,000 schedules).
func TestExplorerFindsZeroTenLoss(t *testing.T) {
	seeds := *exploreSeeds
	found := func(rules replica.RuleSet) (seed uint64, schedule []op, ok bool) {
		for seed := uint64(1); seed <= seeds; seed++ {
			if s := exploreSchedule(seed); losesAckedWrite(rules, s) {
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
	for _, rules := range []replica.RuleSet{replica.V0_11, replica.V2_0, replica.V2_1, replica.V3_7, replica.V4} {
		if seed, schedule, ok := found(rules); ok {
			trace, _ := play(rules, 1, schedule)
			t.Errorf("%s rules lost an acknowledged write: seed %d, shortest schedule %v (replay: go test ./replica -run TestExplorerFindsZeroTenLoss -explore.seeds=%d)\ntrace:\n%s",
				rules, seed, schedule, seed, trace)
		}
	}
}
