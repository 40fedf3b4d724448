package explore_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
)

// TestUserSimulatedMs checks what a sequence counts as simulated: every
// world's runs, the time a reset or a jump leaves behind, and a clone's
// run twice (both worlds run it); never a jump's replay.
func TestUserSimulatedMs(t *testing.T) {
	run := func(ms int64) explore.UserOp {
		return explore.UserOp{Kind: explore.UserAction, Action: cluster.Action{Kind: cluster.ActRun, Ms: ms}}
	}
	tests := []struct {
		name string
		ops  []explore.UserOp
		// extra is what SimulatedMs holds beyond the final world's clock.
		extra int64
	}{
		{name: "runs", ops: []explore.UserOp{run(3000), run(2000)}},
		{name: "reset", ops: []explore.UserOp{run(3000), {Kind: explore.UserReset}, run(2000)}, extra: 3000},
		{name: "jump back", ops: []explore.UserOp{run(5000), {Kind: explore.UserJump, BackMs: 2000}, run(1000)}, extra: 2000},
		{name: "clone", ops: []explore.UserOp{run(1000), {Kind: explore.UserClone, Ms: 700}}, extra: 700},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, w, err := explore.RunUserSequence(explore.UserConfig{}, 1, tt.ops)
			require.NoError(t, err)
			require.False(t, out.Failed(), "%s", out)
			if diff := cmp.Diff(w.NowMs()+tt.extra, out.SimulatedMs); diff != "" {
				t.Errorf("simulated ms (-want +got):\n%s", diff)
			}
		})
	}
}
