package explore_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
)

// A leader that is also the active controller is killed and restarted
// before the other voters elect a controller: it must not lead again in its
// old epoch with the HW of its checkpoint. A KRaft broker acts on no
// partition state before its new registration is accepted (BrokerServer's
// initial catch-up, 3.7.0), and the controller then fences the old one and
// elects another leader. (User explorer seed 9000019 at 20 operations:
// leader b1's HW went back from 42 to 38 in epoch 0.)
func TestRestartedLeaderWaitsForItsRegistration(t *testing.T) {
	ops := []explore.UserOp{
		{Kind: explore.UserSettle},
		userAct(cluster.Action{Kind: cluster.ActKill, Broker: 1}),
		userAct(cluster.Action{Kind: cluster.ActRun, Ms: 800}),
		userAct(cluster.Action{Kind: cluster.ActStart, Broker: 1}),
		userAct(cluster.Action{Kind: cluster.ActRun, Ms: 2400}),
		userAct(cluster.Action{Kind: cluster.ActStop, Broker: 3}),
		userAct(cluster.Action{Kind: cluster.ActRun, Ms: 25000}),
	}
	requireUserSequencePasses(t, explore.UserConfig{Ops: 20}, 9000019, ops)
}
