package replica_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/replica"
)

func TestRuleSetNamesRoundTrip(t *testing.T) {
	var got []string
	for r := replica.V0_10; r <= replica.Modern; r++ {
		parsed, err := replica.ParseRuleSet(r.String())
		must(t, err)
		if parsed != r {
			t.Errorf("ParseRuleSet(%q) = %v, want %v", r.String(), parsed, r)
		}
		got = append(got, r.String())
	}
	if diff := cmp.Diff([]string{"v0.10", "v0.11", "v2.0", "v2.1", "v3.7", "v4"}, got); diff != "" {
		t.Errorf("rule set names (-want +got):\n%s", diff)
	}
	if r, err := replica.ParseRuleSet("modern"); err != nil || r != replica.V4 {
		t.Errorf("ParseRuleSet(modern) = %v, %v; want v4", r, err)
	}
	if _, err := replica.ParseRuleSet("v3.0"); !errors.Is(err, replica.ErrInvalidConfig) {
		t.Errorf("ParseRuleSet(v3.0) error = %v, want ErrInvalidConfig", err)
	}
}

// Which version introduced what: one row per rule set, the package
// documentation's table.
func TestRuleSetFeatures(t *testing.T) {
	type features struct {
		Epochs, Fencing, CacheOnElection, JoinNeedsLESO, CaughtUpAtLeaderLEO, SyncISRWrite bool
		InitialFetchAtLEO, MinISRCapped, StrictMinISR, TruncateOnFetch                     bool
		LagTimeMaxMs                                                                       int64
	}
	want := map[replica.RuleSet]features{
		replica.V0_10: {SyncISRWrite: true, LagTimeMaxMs: 10000},
		replica.V0_11: {Epochs: true, SyncISRWrite: true, LagTimeMaxMs: 10000},
		replica.V2_0:  {Epochs: true, SyncISRWrite: true, LagTimeMaxMs: 10000},
		replica.V2_1:  {Epochs: true, Fencing: true, CacheOnElection: true, JoinNeedsLESO: true, CaughtUpAtLeaderLEO: true, SyncISRWrite: true, LagTimeMaxMs: 10000},
		replica.V3_7: {Epochs: true, Fencing: true, CacheOnElection: true, JoinNeedsLESO: true, CaughtUpAtLeaderLEO: true,
			InitialFetchAtLEO: true, MinISRCapped: true, StrictMinISR: true, TruncateOnFetch: true, LagTimeMaxMs: 30000},
		replica.V4: {Epochs: true, Fencing: true, CacheOnElection: true, JoinNeedsLESO: true, CaughtUpAtLeaderLEO: true,
			InitialFetchAtLEO: true, MinISRCapped: true, StrictMinISR: true, TruncateOnFetch: true, LagTimeMaxMs: 30000},
	}
	got := map[replica.RuleSet]features{}
	for r := range want {
		got[r] = features{r.EpochsInRecords(), r.Fencing(), r.CachesEpochOnElection(), r.ISRJoinNeedsLESO(), r.CaughtUpAtLeaderLEO(),
			r.SynchronousISRWrite(), r.InitialFetchOffsetIsLEO(), r.EffectiveMinISRCapped(), r.StrictMinISR(), r.TruncatesOnFetch(),
			r.DefaultReplicaLagTimeMaxMs()}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("features by rule set (-want +got):\n%s", diff)
	}
}
