package explore_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

// A user who jumps back to before the world made its topics, then runs
// kafka-configs --alter on one of them, must be refused (the topic does
// not exist there), and the explorer must take that refusal as right,
// not as good input refused. (User explorer seed 4505 at 20 operations:
// two jumps back of 5 actions each, then an alter of orders.)
func TestAlterConfigsOfATopicNotYetMadeIsRefused(t *testing.T) {
	segmentMs := "600000"
	ops := []explore.UserOp{
		{Kind: explore.UserJump, BackSteps: 5},
		{Kind: explore.UserJump, BackSteps: 5},
		{Kind: explore.UserAlterConfigs, Action: cluster.Action{Name: "orders"},
			Configs: []cluster.ConfigOp{{Name: "segment.ms", Op: cluster.ConfigSet, Value: &segmentMs}}},
	}
	modern := replica.Modern
	cfg := explore.UserConfig{Rules: &modern, Ops: 20}
	o, w, err := explore.RunUserSequence(cfg, 4505, ops)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Topics()) != 0 {
		t.Fatalf("the jumps went back to a world with topics %v: the test no longer alters a topic that does not exist", w.Topics())
	}
	requireUserSequencePasses(t, cfg, 4505, ops)
	if o.Refused == 0 {
		t.Errorf("nothing was refused: %+v", o)
	}
}
