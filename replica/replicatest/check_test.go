package replicatest_test

import (
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicatest"
)

// settled returns three brokers under modern rules with a and b committed
// everywhere.
func settled(t *testing.T) *replicatest.InteractionEnv {
	t.Helper()
	env, err := replicatest.NewInteractionEnv(3, replica.Config{Rules: replica.Modern})
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	env.Elect(1, nil)
	env.Produce(1, replica.AcksAll, 0, []string{"a", "b"}, false)
	if _, err := env.Stabilize(100); err != nil {
		t.Fatalf("setup: %v", err)
	}
	return env
}

func TestCheckerPassesAHealthyCluster(t *testing.T) {
	env := settled(t)
	c := &replicatest.Checker{ISRAgreement: true}
	if err := c.Check(env); err != nil {
		t.Fatalf("a cluster with a and b committed on all three brokers broke an invariant: %v", err)
	}
}

// The checker must be able to fail: each case breaks one invariant behind
// the nodes' backs.
func TestCheckerCatchesBrokenInvariants(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, env *replicatest.InteractionEnv)
		want   string
	}{
		{"a follower in the ISR holds another record below the HW", func(t *testing.T, env *replicatest.InteractionEnv) {
			p, _ := env.Peer(2)
			if err := p.Log.TruncateTo(1); err != nil {
				t.Fatalf("setup: %v", err)
			}
			if err := p.Log.AppendAsFollower([]replica.Entry{{Offset: 1, LeaderEpoch: 0, Value: []byte("z")}}); err != nil {
				t.Fatalf("setup: %v", err)
			}
		}, "holds [1 z·e0] at offset 1, leader holds [1 b·e0]"},
		{"a follower in the ISR lacks a record below the HW", func(t *testing.T, env *replicatest.InteractionEnv) {
			p, _ := env.Peer(3)
			if err := p.Log.TruncateTo(1); err != nil {
				t.Fatalf("setup: %v", err)
			}
		}, "broker 3 in leader 1's ISR lacks offset 1"},
		{"the leader's log shrinks under its HW", func(t *testing.T, env *replicatest.InteractionEnv) {
			p, _ := env.Peer(1)
			if err := p.Log.TruncateTo(0); err != nil {
				t.Fatalf("setup: %v", err)
			}
		}, "broker 1: HW 2 outside [log start 0, LEO 0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := settled(t)
			tt.tamper(t, env)
			c := &replicatest.Checker{ISRAgreement: true}
			err := c.Check(env)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("checker said %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
