package explore_test

import (
	"flag"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/kafkalog"
)

var plantScan = flag.Int("plant-scan", 0, "TestTransactionInvariantsCatchPlantedBugs: print the first seed of each plant that fails as it should, among this many (to pin a seed anew after the draws change)")

// plantConfig is the transactions explorer with a plant: a copier mistake,
// or read_committed consumers whose filter is given.
func plantConfig(mistake string, filter func(int64, []kafkalog.RecordBatch, []kafkalog.AbortedTxn) ([]int64, bool)) explore.UserConfig {
	cfg := explore.UserConfig{Ops: 20, MaxValueBytes: 2000, Transactions: true, CopierMistake: mistake}
	if filter != nil {
		cfg.Configure = func(c *cluster.Config) { c.Parts.ReadCommitted = filter }
	}
	return cfg
}

// deliverAll is a read_committed filter that forgets aborted transactions:
// it hands out every record but the markers.
func deliverAll(_ int64, batches []kafkalog.RecordBatch, _ []kafkalog.AbortedTxn) ([]int64, bool) {
	var out []int64
	for _, b := range batches {
		if b.Attributes.IsControl() {
			continue
		}
		for i := range b.Records {
			out = append(out, b.BaseOffset+int64(b.Records[i].OffsetDelta))
		}
	}
	return out, true
}

// dropTransactional is a read_committed filter that hands out no record of
// a transaction, committed or not.
func dropTransactional(_ int64, batches []kafkalog.RecordBatch, _ []kafkalog.AbortedTxn) ([]int64, bool) {
	var out []int64
	for _, b := range batches {
		if b.Attributes.IsControl() || b.Attributes.IsTransactional() {
			continue
		}
		for i := range b.Records {
			out = append(out, b.BaseOffset+int64(b.Records[i].OffsetDelta))
		}
	}
	return out, true
}

// TestTransactionInvariantsCatchPlantedBugs plants a bug for each
// invariant of the transactions explorer and sees the explorer report it,
// shrunk, with a replay line: read_committed consumers that hand out
// aborted records (read-committed-aborted) or drop committed transactions
// (read-committed-complete), and copiers that commit their offsets outside
// their transactions (ctp-offsets-ahead), commit none (ctp-output-ahead),
// read aborted records (ctp-copy-unknown), or are not fenced
// (ctp-duplicate).
func TestTransactionInvariantsCatchPlantedBugs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    explore.UserConfig
		seed   uint64
		want   []string
		replay string
	}{
		{"read_committed hands out aborted records", plantConfig("", deliverAll), 59, []string{"read-committed-aborted"}, ""},
		{"read_committed drops committed transactions", plantConfig("", dropTransactional), 8, []string{"read-committed-complete"}, ""},
		{"copiers commit their offsets outside the transaction", plantConfig("auto-commit", nil), 2, []string{"ctp-offsets-ahead"}, "--copier-mistake auto-commit"},
		{"copiers commit no offsets", plantConfig("no-offsets", nil), 2, []string{"ctp-output-ahead"}, "--copier-mistake no-offsets"},
		{"copiers read uncommitted", plantConfig("read-uncommitted", nil), 59, []string{"ctp-copy-unknown"}, "--copier-mistake read-uncommitted"},
		{"copiers of one partition are not fenced", plantConfig("own-transactional-id", nil), 4, []string{"ctp-duplicate"}, "--copier-mistake own-transactional-id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if *plantScan > 0 {
				for seed := uint64(1); seed <= uint64(*plantScan); seed++ {
					if r := tc.cfg.Run(seed); slices.Contains(tc.want, r.Kind) {
						t.Logf("%s: seed %d: %s", tc.name, seed, r.Kind)
						return
					}
				}
				t.Logf("%s: no seed", tc.name)
				return
			}
			f, _ := tc.cfg.Replay(tc.seed)
			if !slices.Contains(tc.want, f.Kind) {
				t.Fatalf("seed %d: %q, want one of %q\n%s", tc.seed, f.Kind, tc.want, f.Outcome)
			}
			if !strings.Contains(f.Replay, "--transactions") || !strings.Contains(f.Replay, tc.replay) || !strings.HasSuffix(f.Replay, " --seed "+strconv.FormatUint(tc.seed, 10)+" --schedules 1") {
				t.Errorf("replay line %q", f.Replay)
			}
			if len(f.Shrunk) == 0 || len(f.Shrunk) > f.Ops {
				t.Errorf("shrunk to %d of %d operations", len(f.Shrunk), f.Ops)
			}
			if r := tc.cfg.Run(tc.seed); r.Kind == "" {
				t.Errorf("seed %d passes when run again", tc.seed)
			}
		})
	}
}
