package cluster_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// TestStrayTransactionalWritesProperty drives a transactional client over
// the wire through random transactions and stray writes (a transactional
// batch for a partition not in its transaction: a late produce of an
// ended transaction), under Kafka 3.7's or Kafka 4's rules, while brokers
// are killed and started. With the leaders verifying (KIP-890 part 1, the
// default) no stray write is taken and, once the world settles, no
// partition has a transaction open: nothing hangs. With verification off
// (transaction.partition.verification.enable=false) a transaction left open
// at the end was opened by a stray write that was taken. Under Kafka 4's
// rules the client may use transaction.version 2 (KIP-890 part 2: no
// AddPartitionsToTxn, Produce v12 has the leader add the partition, EndTxn
// v5 bumps the epoch): its stray write is then a zombie's late batch at the
// epoch of a transaction that ended, and none is ever taken, verification
// on or off. Replay: go test ./cluster -run
// TestStrayTransactionalWritesProperty -rapid.seed=N.
func TestStrayTransactionalWritesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]replica.RuleSet{replica.V3_7, replica.V4}).Draw(t, "rules")
		verify := rapid.Bool().Draw(t, "verify")
		w, tc := txnPropWorld(t, cluster.Config{Seed: rapid.Uint64().Draw(t, "seed"), Rules: rules, DisableTransactionPartitionVerification: !verify})
		tc.tv2 = rules >= replica.V4 && rapid.Bool().Draw(t, "transaction.version 2")
		taken := 0
		for i := range rapid.IntRange(1, 10).Draw(t, "steps") {
			switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("step-%d", i)) {
			case 0:
				b := rapid.Int32Range(1, 3).Draw(t, fmt.Sprintf("killed-%d", i))
				_ = w.Do(cluster.Action{Kind: cluster.ActKill, Broker: b})
				_ = w.RunFor(rapid.Int64Range(0, 3000).Draw(t, fmt.Sprintf("down-ms-%d", i)))
				_ = w.Do(cluster.Action{Kind: cluster.ActStart, Broker: b})
			case 1, 2:
				p := rapid.Int32Range(0, 2).Draw(t, fmt.Sprintf("partition-%d", i))
				if !tc.transaction(t, map[int32][]string{p: {fmt.Sprintf("x%d", i)}}, rapid.Bool().Draw(t, fmt.Sprintf("commit-%d", i))) {
					tc.init(t) // fences and aborts what it had open
				}
			case 3:
				p := rapid.Int32Range(0, 2).Draw(t, fmt.Sprintf("stray-%d", i))
				if tc.tv2 {
					seq := rapid.Int32Range(0, 3).Draw(t, fmt.Sprintf("stray-seq-%d", i))
					if tc.epoch > 0 && tc.produceAt(t, p, tc.epoch-1, seq, []string{fmt.Sprintf("stray%d", i)}) {
						taken++
					}
				} else if tc.produce(t, p, []string{fmt.Sprintf("stray%d", i)}) {
					taken++
				}
			}
		}
		for b := int32(1); b <= 3; b++ {
			_ = w.Do(cluster.Action{Kind: cluster.ActStart, Broker: b})
		}
		_ = w.RunFor(60000)
		var open []string
		for p := int32(0); p < 3; p++ {
			ps, err := w.PartitionProducers("t", p, 0)
			if err != nil {
				t.Fatalf("t-%d: %v", p, err)
			}
			for _, s := range ps {
				if s.CurrentTxnStartOffset >= 0 {
					open = append(open, fmt.Sprintf("t-%d: producer id %d from offset %d", p, s.ProducerID, s.CurrentTxnStartOffset))
				}
			}
		}
		switch {
		case (verify || tc.tv2) && taken > 0:
			t.Fatalf("%d stray transactional write(s) taken (verification %v, transaction.version 2 %v)", taken, verify, tc.tv2)
		case len(open) > 0 && taken == 0:
			t.Fatalf("transactions left open with no stray write taken: %v", open)
		}
	})
}
