package cluster_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// storedBatch is one batch of partition t-0 as a broker's files hold it.
type storedBatch struct {
	BaseOffset    int64
	Transactional bool
	Control       string // "COMMIT coordinatorEpoch 0", "" for data
	ProducerID    int64
	Values        []string
}

func storedBatches(t *testing.T, w *cluster.World, id int32) []storedBatch {
	return storedBatchesOf(t, w, id, "t-0")
}

func storedBatchesOf(t *testing.T, w *cluster.World, id int32, partitionDir string) []storedBatch {
	t.Helper()
	var out []storedBatch
	eachStoredBatch(t, w, id, partitionDir, func(batch *kafkalog.RecordBatch, _ int) {
		sb := storedBatch{BaseOffset: batch.BaseOffset, Transactional: batch.Attributes.IsTransactional(), ProducerID: batch.ProducerID}
		for _, r := range batch.Records {
			if batch.Attributes.IsControl() {
				key, err := kafkalog.ParseControlRecordKey(r.Key)
				require.NoError(t, err)
				m, err := kafkalog.ParseEndTxnMarker(r.Value)
				require.NoError(t, err)
				sb.Control = fmt.Sprintf("%s coordinatorEpoch %d", key.Type, m.CoordinatorEpoch)
				continue
			}
			sb.Values = append(sb.Values, string(r.Value))
		}
		out = append(out, sb)
	})
	return out
}

// A transactional producer's records travel in transactional batches; its
// commit appends a COMMIT control batch on the partition, replicated like any
// batch; an abort fails what still lingers and appends ABORT. A consumer
// hands out the records, not the markers, and its position passes them.
// Under Kafka 3.7's rules the producer added t-0 to the second transaction
// (AddPartitionsToTxn) before b0 lingered, so its abort writes a marker;
// under Kafka 4's (transaction.version 2) only a batch that reaches the
// leader adds its partition: b0 never left, the abort of a transaction
// nothing was added to writes none (and still bumps the epoch).
func TestTransactionMarkers(t *testing.T) {
	for _, rules := range []replica.RuleSet{replica.V3_7, replica.V4} {
		t.Run(rules.String(), func(t *testing.T) { testTransactionMarkers(t, rules) })
	}
}

func testTransactionMarkers(t *testing.T, rules replica.RuleSet) {
	w := txnWorldOf(t, rules)
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "t", TransactionalID: "orders-tx", LingerMs: 20}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "c", Topic: "t", Partition: 0}))
	require.NoError(t, w.Deliver(0))
	for i := range 3 {
		require.NoError(t, w.Produce("tx", "", fmt.Sprintf("a%d", i), 0))
	}
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}))
	err := w.Produce("tx", "", "early", 0)
	if !errors.Is(err, cluster.ErrInvalidConfig) {
		t.Errorf("a send while the commit is ending: got %v, want ErrInvalidConfig", err)
	}
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Produce("tx", "", "b0", 0))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAbortTransaction, Name: "tx"})) // b0 still lingers
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Produce("tx", "", "c0", 0))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAbortTransaction, Name: "tx"})) // c0 was written
	require.NoError(t, w.RunFor(500))

	pid, _, _ := w.Producers()[0].TxnProducerID() // InitProducerId's
	want := []storedBatch{
		{BaseOffset: 0, Transactional: true, ProducerID: pid, Values: []string{"a0", "a1", "a2"}},
		{BaseOffset: 3, Transactional: true, ProducerID: pid, Control: "COMMIT coordinatorEpoch 0"},
		{BaseOffset: 4, Transactional: true, ProducerID: pid, Control: "ABORT coordinatorEpoch 0"},
		{BaseOffset: 5, Transactional: true, ProducerID: pid, Values: []string{"c0"}},
		{BaseOffset: 6, Transactional: true, ProducerID: pid, Control: "ABORT coordinatorEpoch 0"},
	}
	c0 := int64(5)
	if rules >= replica.V4 {
		// no ABORT for b0's transaction: c0 and its marker come one earlier
		want = append(want[:2], want[3:]...)
		for i := 2; i < len(want); i++ {
			want[i].BaseOffset--
		}
		c0--
	}
	for b := int32(1); b <= 3; b++ {
		if diff := cmp.Diff(want, storedBatches(t, w, b)); diff != "" {
			t.Errorf("broker %d: batches (-want +got):\n%s", b, diff)
		}
	}
	var got []string
	for _, r := range w.Producers()[0].Results() {
		got = append(got, fmt.Sprintf("%s:%d%s", r.Value, r.Offset, r.Error))
	}
	if diff := cmp.Diff([]string{"a0:0", "a1:1", "a2:2", "b0:-1TransactionAbortedException", fmt.Sprintf("c0:%d", c0)}, got); diff != "" {
		t.Errorf("the producer's results (-want +got):\n%s", diff)
	}

	require.NoError(t, w.Poll("c"))
	var read []string
	for _, r := range w.Consumers()[0].Records() {
		read = append(read, fmt.Sprintf("%d %s", r.Offset, r.Value))
	}
	// read_uncommitted: the aborted c0 too.
	if diff := cmp.Diff([]string{"0 a0", "1 a1", "2 a2", fmt.Sprintf("%d c0", c0)}, read); diff != "" {
		t.Errorf("records the consumer read (-want +got):\n%s", diff)
	}
	if got := w.Consumers()[0].Position(); got != c0+2 {
		t.Errorf("consumer position %d, want %d: past the last marker", got, c0+2)
	}
}

// A record of the transaction refused before it was sent (a compacted topic
// takes no record without a key) makes the commit an abort.
func TestTransactionCommitAfterAFailedRecord(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 1, Rules: replica.Modern})
	require.NoError(t, err)
	compact := cluster.DefaultLogConfig()
	compact.CleanupPolicy = kafkalog.CleanupPolicyCompact
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 1, Config: &compact}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "t", TransactionalID: "x"}))
	require.NoError(t, w.Deliver(0))
	require.NoError(t, w.Produce("tx", "k", "kept", 0))
	require.NoError(t, w.Produce("tx", "", "keyless", 0))
	require.NoError(t, w.RunFor(100))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}))
	require.NoError(t, w.RunFor(500))
	pid, _, _ := w.Producers()[0].TxnProducerID()
	want := []storedBatch{
		{BaseOffset: 0, Transactional: true, ProducerID: pid, Values: []string{"kept"}},
		{BaseOffset: 1, Transactional: true, ProducerID: pid, Control: "ABORT coordinatorEpoch 0"},
	}
	if diff := cmp.Diff(want, storedBatches(t, w, 1)); diff != "" {
		t.Errorf("batches (-want +got):\n%s", diff)
	}
}

// The world refuses what a Kafka client refuses.
func TestTransactionErrors(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 1, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 1}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t"}))
	for _, tc := range []struct {
		name string
		do   func() error
		want string
	}{
		{"commit without a transactional.id", func() error { return w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "p"}) }, "has no transactional.id"},
		{"abort of no producer", func() error { return w.Do(cluster.Action{Kind: cluster.ActAbortTransaction, Name: "nobody"}) }, "no producer"},
		{"idempotence off", func() error {
			return w.AddProducer(cluster.ProducerConfig{Name: "q", Topic: "t", TransactionalID: "x", EnableIdempotence: cluster.Bool(false)})
		}, "without also enabling idempotence"},
		{"acks=1", func() error {
			return w.AddProducer(cluster.ProducerConfig{Name: "q", Topic: "t", TransactionalID: "x", Acks: "1"})
		}, "needs acks=all"},
	} {
		err := tc.do()
		if !errors.Is(err, cluster.ErrInvalidConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want ErrInvalidConfig saying %q", tc.name, err, tc.want)
		}
	}
}

// A transactional producer writes to two partitions, commits and aborts at
// random while brokers are killed and restarted, and a consumer polls one
// partition: every transaction ends, every replica holds the same batches,
// every acknowledged record is where it was acknowledged, each partition's
// last batch is a marker of the producer, and the consumer handed out every
// record below the HW and no marker, its position past the last marker.
func TestTransactionsRandom(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		replay := fmt.Sprintf("(seed %d; replay: go test ./cluster -run TestTransactionsRandom)", seed)
		rnd := rand.New(rand.NewPCG(seed, 7))
		w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 3, Rules: replica.Modern})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 2, ReplicationFactor: 3}))
		require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "t", TransactionalID: "tx-1", LingerMs: int64(rnd.IntN(30))}))
		require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "c", Topic: "t", Partition: 0, PollIntervalMs: 50}))
		require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "rc", Topic: "t", Partition: 0, PollIntervalMs: 70, IsolationLevel: cluster.ReadCommitted}))
		require.NoError(t, w.Deliver(0))
		down := int32(0)
		for i := range 80 {
			switch n := rnd.IntN(20); {
			case n < 12:
				err := w.Produce("tx", "", fmt.Sprintf("v%d", i), int32(rnd.IntN(2)))
				if err != nil && !errors.Is(err, cluster.ErrInvalidConfig) {
					t.Fatalf("produce: %v %s", err, replay)
				}
			case n < 15:
				_ = w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}) // refused while one is ending
			case n < 17:
				_ = w.Do(cluster.Action{Kind: cluster.ActAbortTransaction, Name: "tx"})
			case down == 0:
				down = int32(rnd.IntN(3) + 1)
				require.NoError(t, w.Kill(down))
			default:
				require.NoError(t, w.Start(down))
				down = 0
			}
			require.NoError(t, w.RunFor(int64(rnd.IntN(10))*10))
		}
		if down != 0 {
			require.NoError(t, w.Start(down))
		}
		require.NoError(t, w.RunFor(60000))
		// Every transaction ended: a commit is not refused as one in progress.
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}), replay)
		require.NoError(t, w.RunFor(60000))
		err = w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"})
		require.NoError(t, err, "the last commit did not end %s", replay)

		pid, _, fatal := w.Producers()[0].TxnProducerID()
		require.Empty(t, fatal, replay)
		logs := map[int32][]storedBatch{}
		for partition := int32(0); partition < 2; partition++ {
			dir := fmt.Sprintf("t-%d", partition)
			ref := storedBatchesOf(t, w, 1, dir)
			for id := int32(2); id <= 3; id++ {
				if diff := cmp.Diff(ref, storedBatchesOf(t, w, id, dir)); diff != "" {
					t.Errorf("%s: broker %d differs from broker 1 (-1 +%d):\n%s %s", dir, id, id, diff, replay)
				}
			}
			logs[partition] = ref
			if n := len(ref); n > 0 && (ref[n-1].Control == "" || ref[n-1].ProducerID != pid) {
				t.Errorf("%s: the last batch %+v is not the producer's marker %s", dir, ref[n-1], replay)
			}
			for _, b := range ref {
				if !b.Transactional || b.ProducerID != pid {
					t.Errorf("%s: batch %+v is not the transactional producer's %s", dir, b, replay)
				}
			}
		}
		valueAt := map[int32]map[int64]string{}
		for partition, bs := range logs {
			valueAt[partition] = map[int64]string{}
			for _, b := range bs {
				for k, v := range b.Values {
					valueAt[partition][b.BaseOffset+int64(k)] = v
				}
			}
		}
		for _, r := range w.Producers()[0].Results() {
			if r.Acked && valueAt[r.Partition][r.Offset] != r.Value {
				t.Errorf("%s acknowledged at t-%d offset %d, which holds %q %s", r.Value, r.Partition, r.Offset, valueAt[r.Partition][r.Offset], replay)
			}
		}
		var want, got []string
		for _, b := range logs[0] {
			for k, v := range b.Values {
				want = append(want, fmt.Sprintf("%d %s", b.BaseOffset+int64(k), v))
			}
		}
		for _, r := range w.Consumers()[0].Records() {
			got = append(got, fmt.Sprintf("%d %s", r.Offset, r.Value))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("records consumer c read from t-0 (-the log +read):\n%s %s", diff, replay)
		}
		if n := len(logs[0]); n > 0 {
			if end := logs[0][n-1].BaseOffset + 1; w.Consumers()[0].Position() != end {
				t.Errorf("consumer c at %d, the log ends at %d with a marker %s", w.Consumers()[0].Position(), end, replay)
			}
			if end := logs[0][n-1].BaseOffset + 1; w.Consumers()[1].Position() != end {
				t.Errorf("read_committed consumer rc at %d, the log ends at %d with a marker %s", w.Consumers()[1].Position(), end, replay)
			}
		}
		// read_committed: each committed transaction's records, whole,
		// and no aborted one.
		var committed, open []string
		for _, b := range logs[0] {
			switch {
			case strings.HasPrefix(b.Control, "COMMIT"):
				committed, open = append(committed, open...), nil
			case strings.HasPrefix(b.Control, "ABORT"):
				open = nil
			default:
				for k, v := range b.Values {
					open = append(open, fmt.Sprintf("%d %s", b.BaseOffset+int64(k), v))
				}
			}
		}
		got = nil
		for _, r := range w.Consumers()[1].Records() {
			got = append(got, fmt.Sprintf("%d %s", r.Offset, r.Value))
		}
		if diff := cmp.Diff(committed, got); diff != "" {
			t.Errorf("records read_committed consumer rc read from t-0 (-committed +read):\n%s %s", diff, replay)
		}
	}
}

// txnWorld is a three-broker modern world with topic t: one partition on
// three replicas.
func txnWorld(t *testing.T) *cluster.World {
	t.Helper()
	return txnWorldOf(t, replica.Modern)
}

// txnWorldOf is txnWorld under rules.
func txnWorldOf(t *testing.T, rules replica.RuleSet) *cluster.World {
	t.Helper()
	w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 3, Rules: rules})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}))
	return w
}

// partitionT0 returns partition t-0's state.
func partitionT0(w *cluster.World) cluster.PartitionInfo {
	for _, p := range w.State().Partitions {
		if p.Topic == "t" && p.Partition == 0 {
			return p
		}
	}
	return cluster.PartitionInfo{}
}

// polled returns what consumer i handed out, "offset value" each.
func polled(w *cluster.World, i int) []string {
	var out []string
	for _, r := range w.Consumers()[i].Records() {
		out = append(out, fmt.Sprintf("%d %s", r.Offset, r.Value))
	}
	return out
}

// An open transaction holds a read_committed consumer back at its first
// offset (the last stable offset), whatever was committed after it; a
// read_uncommitted consumer reads on to the high watermark. Once the
// transaction aborts, read_committed skips its records and reads on.
func TestReadCommittedWaitsForTheLastStableOffset(t *testing.T) {
	w := txnWorld(t)
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "slow", Topic: "t", TransactionalID: "slow-tx"}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "fast", Topic: "t", TransactionalID: "fast-tx"}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "ru", Topic: "t", Partition: 0}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "rc", Topic: "t", Partition: 0, IsolationLevel: cluster.ReadCommitted}))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Produce("slow", "", "s0", 0))
	require.NoError(t, w.RunFor(200))
	require.NoError(t, w.Produce("fast", "", "f0", 0))
	require.NoError(t, w.RunFor(200))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "fast"}))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Poll("ru"))
	require.NoError(t, w.Poll("rc"))
	if diff := cmp.Diff([]string{"0 s0", "1 f0"}, polled(w, 0)); diff != "" {
		t.Errorf("read_uncommitted (-want +got):\n%s", diff)
	}
	if got := polled(w, 1); len(got) != 0 {
		t.Errorf("read_committed read %v past the open transaction at offset 0", got)
	}
	slow, _, _ := w.Producers()[0].TxnProducerID()
	pi := partitionT0(w)
	if pi.LastStableOffset == nil || *pi.LastStableOffset != 0 || pi.HighWatermark != 3 {
		t.Errorf("partition state: LSO %v, HW %d; want LSO 0 (the open transaction's first offset) below HW 3", pi.LastStableOffset, pi.HighWatermark)
	}
	if diff := cmp.Diff([]cluster.OpenTransaction{{ProducerID: slow, FirstOffset: 0}}, pi.OpenTransactions); diff != "" {
		t.Errorf("open transactions (-want +got):\n%s", diff)
	}
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAbortTransaction, Name: "slow"}))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Poll("rc"))
	if diff := cmp.Diff([]string{"1 f0"}, polled(w, 1)); diff != "" {
		t.Errorf("read_committed after the abort (-want +got):\n%s", diff)
	}
	if got := w.Consumers()[1].Position(); got != 4 {
		t.Errorf("read_committed position %d, want 4: past both markers", got)
	}
	if pi := partitionT0(w); pi.LastStableOffset == nil || *pi.LastStableOffset != 4 || len(pi.OpenTransactions) != 0 {
		t.Errorf("partition state after the abort: LSO %v, open %v; want 4 and none", pi.LastStableOffset, pi.OpenTransactions)
	}
}

// A second producer with the same transactional.id bumps the epoch: the
// coordinator aborts the first one's open transaction, the leader refuses
// the first one's next batch (INVALID_PRODUCER_EPOCH), its commit is
// answered PRODUCER_FENCED, and it refuses to go on; read_committed never
// sees what it wrote.
func TestTransactionZombieIsFenced(t *testing.T) {
	w := txnWorld(t)
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "old", Topic: "t", TransactionalID: "app"}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "rc", Topic: "t", Partition: 0, IsolationLevel: cluster.ReadCommitted}))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Produce("old", "", "z0", 0))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "new", Topic: "t", TransactionalID: "app"}))
	require.NoError(t, w.RunFor(1000))
	require.NoError(t, w.Produce("old", "", "z1", 0))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "old"}))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Produce("new", "", "n0", 0))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "new"}))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Poll("rc"))

	oldPID, oldEpoch, fatal := w.Producers()[0].TxnProducerID()
	newPID, newEpoch, _ := w.Producers()[1].TxnProducerID()
	// The coordinator fences the open transaction at epoch 1, aborts it
	// (transaction.version 2 bumps again: the ABORT markers carry 2), then
	// answers the retried InitProducerId with 3; n0's commit bumps to 4
	// (Kafka 4.0's TransactionCoordinator.handleInitProducerId and
	// endTransaction; under 3.7's the markers carry 1, InitProducerId
	// answers 2 and the commit bumps nothing).
	if fatal != "PRODUCER_FENCED" || oldPID != newPID || oldEpoch != 0 || newEpoch != 4 {
		t.Errorf("old producer %d epoch %d (fatal %q), new %d epoch %d: want the same id, the epoch bumped, the old one fenced", oldPID, oldEpoch, fatal, newPID, newEpoch)
	}
	var got []string
	for _, r := range w.Producers()[0].Results() {
		got = append(got, fmt.Sprintf("%s:%d%s", r.Value, r.Offset, r.Error))
	}
	if diff := cmp.Diff([]string{"z0:0", "z1:-1INVALID_PRODUCER_EPOCH"}, got); diff != "" {
		t.Errorf("the zombie's results (-want +got):\n%s", diff)
	}
	if err := w.Produce("old", "", "z2", 0); !errors.Is(err, cluster.ErrInvalidConfig) || !strings.Contains(err.Error(), "PRODUCER_FENCED") {
		t.Errorf("a fenced producer's send: got %v, want refused with PRODUCER_FENCED", err)
	}
	if diff := cmp.Diff([]string{"2 n0"}, polled(w, 0)); diff != "" {
		t.Errorf("read_committed (-want +got):\n%s", diff)
	}
}

// A clone of a world whose brokers never wrote a transaction marker
// writes them as its original would (the user-level explorer with
// transactions found a clone's broker with its marker bookkeeping half
// made).
func TestTransactionCommitInAClone(t *testing.T) {
	w := txnWorld(t)
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "t", TransactionalID: "x"}))
	require.NoError(t, w.RunFor(500))
	c := w.Clone()
	for _, x := range []*cluster.World{w, c} {
		require.NoError(t, x.Produce("tx", "", "a", 0))
		require.NoError(t, x.RunFor(200))
		require.NoError(t, x.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}))
		require.NoError(t, x.RunFor(500))
		require.Empty(t, x.InternalErrors())
	}
	if diff := cmp.Diff(storedBatches(t, w, 1), storedBatches(t, c, 1)); diff != "" {
		t.Errorf("the clone's batches differ (-original +clone):\n%s", diff)
	}
}

// A record refused while the transaction ends is refused by the action's
// check: it is not an action of the world, so a jump back in time replays
// without it (the user-level explorer with transactions found a refused
// produce replayed, and refused again, by the timeline).
func TestTransactionRefusedSendIsNoAction(t *testing.T) {
	w := txnWorld(t)
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "t", TransactionalID: "x", LingerMs: 20}))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Produce("tx", "", "a", 0))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}))
	actions := len(w.Actions())
	require.ErrorIs(t, w.Produce("tx", "", "b", 0), cluster.ErrInvalidConfig)
	require.Len(t, w.Actions(), actions, "the refused produce is not an action")
	require.NoError(t, w.RunFor(1000))
	back, err := w.AtTime(w.NowMs() - 500)
	require.NoError(t, err)
	require.Empty(t, back.InternalErrors())
}

// A marker its leader refuses with a retriable error until time moves (the
// partition short of min.insync.replicas: NOT_ENOUGH_REPLICAS) is written
// again on the coordinator's next tick, not at once: at the same instant
// the refusal and the retry would ping-pong forever and the network would
// never be quiet. Here the transaction times out and its ABORT waits for
// the third replica, retried every tick without an internal error.
func TestTransactionMarkerRefusedUntilTimeMovesIsRetriedLater(t *testing.T) {
	w := txnWorld(t)
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "t", TransactionalID: "ledger-tx", LingerMs: 20}))
	require.NoError(t, w.Kill(3))
	a, err := w.AlterTopicConfigs("t", []cluster.ConfigOp{set("min.insync.replicas", "3")}, false)
	require.NoError(t, err)
	require.NoError(t, w.Do(a))
	require.NoError(t, w.Produce("tx", "", "", 0))
	require.NoError(t, w.RunFor(120_000)) // past transaction.timeout.ms: the coordinator aborts
	for _, ie := range w.InternalErrors() {
		t.Errorf("internal error: %s", ie.Error)
	}
}
