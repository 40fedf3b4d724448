package explore_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

// TestTimelineAgreesAboutGroups: after any user-level sequence (with or
// without transactions, under either rule set), settled and checked by the
// explorer, which asks the world questions as it goes (kafka-consumer-groups
// --delete's check among them), the world its timeline rebuilds at the
// present lists the same groups as the live one: the same states, members,
// coordinators and committed offsets (the groups known only by offsets,
// a copier's transactional ones among them, included). A question that
// changed the live world would show here.
//
// Replay a failure with go test ./cluster/explore -run TestTimelineAgreesAboutGroups -rapid.seed=SEED.
func TestTimelineAgreesAboutGroups(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]replica.RuleSet{replica.Modern, replica.V3_7}).Draw(t, "rules")
		cfg := explore.UserConfig{Rules: &rules, Ops: rapid.IntRange(1, 20).Draw(t, "operations"), MaxValueBytes: 2000,
			Transactions: rapid.Bool().Draw(t, "transactions")}
		seed := rapid.Uint64Range(1, 1<<40).Draw(t, "seed")
		_, w, err := explore.RunUserSequence(cfg, seed, explore.UserSequence(cfg, seed))
		if err != nil {
			t.Fatal(err)
		}
		past, err := w.AtTime(w.NowMs())
		if err != nil {
			t.Fatalf("rebuilding the world at %d ms: %v", w.NowMs(), err)
		}
		if diff := cmp.Diff(w.Groups(), past.Groups()); diff != "" {
			t.Fatalf("seed %d: the groups of the world rebuilt at %d ms differ from the live world's (-live +rebuilt):\n%s", seed, w.NowMs(), diff)
		}
	})
}
