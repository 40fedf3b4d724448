package cluster_test

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// fataler is what the client's steps need of a test: a *testing.T or a
// *rapid.T.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// txnClient is a transactional producer outside the world, as a Kafka
// client drives one over the wire: its coordinator, producer id, epoch and
// sequences; after any failure it starts again with InitProducerId
// (KIP-360), which fences what it had open.
type txnClient struct {
	w     *cluster.World
	c     xclient
	id    string
	coord int32
	pid   int64
	epoch int16
	seq   map[int32]int32
	// tv2: the client uses transaction.version 2 (KIP-890 part 2): no
	// AddPartitionsToTxn, Produce v12, EndTxn v5 whose answer carries the
	// next transaction's producer id and epoch.
	tv2 bool
}

// ask sends req to broker and waits up to ms for its answer (nil: none
// came, the broker is down or the request hangs).
func (tc *txnClient) ask(t fataler, broker int32, req kmsg.Request, ms int64) kmsg.Response {
	id, err := tc.w.External(cluster.ExternalRequest{Client: tc.c.n, ClientID: tc.c.id, Remote: tc.c.remote, Broker: broker,
		Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
	if err != nil {
		t.Fatalf("external request: %v", err)
	}
	for waited := int64(0); waited <= ms; waited += 10 {
		for _, a := range tc.w.ExternalAnswers() {
			if a.ID == id {
				return a.Response
			}
		}
		if err := tc.w.RunFor(10); err != nil {
			t.Fatalf("run: %v", err)
		}
	}
	return nil
}

// init finds the coordinator and gets a producer id and epoch, retrying
// for up to a simulated minute; it reports whether it got them.
func (tc *txnClient) init(t fataler) bool {
	for range 60 {
		fc := kmsg.NewPtrFindCoordinatorRequest()
		fc.SetVersion(4)
		fc.CoordinatorType, fc.CoordinatorKeys = 1, []string{tc.id}
		for b := int32(1); b <= 3; b++ {
			if r, ok := tc.ask(t, b, fc, 200).(*kmsg.FindCoordinatorResponse); ok && r.Coordinators[0].ErrorCode == 0 {
				tc.coord = r.Coordinators[0].NodeID
				break
			}
		}
		ip := kmsg.NewPtrInitProducerIDRequest()
		ip.SetVersion(4)
		ip.TransactionalID, ip.TransactionTimeoutMillis, ip.ProducerID, ip.ProducerEpoch = kmsg.StringPtr(tc.id), 20000, tc.pid, tc.epoch
		if r, ok := tc.ask(t, tc.coord, ip, 2000).(*kmsg.InitProducerIDResponse); ok && r.ErrorCode == 0 {
			tc.pid, tc.epoch, tc.seq = r.ProducerID, r.ProducerEpoch, map[int32]int32{}
			return true
		}
		_ = tc.w.RunFor(1000)
	}
	return false
}

// txnPropWorld is a world of cfg (wireTxnWorld) and a transactional client of
// it that has its producer id.
func txnPropWorld(t fataler, cfg cluster.Config) (*cluster.World, *txnClient) {
	w := wireTxnWorld(t, cfg)
	return w, initTxnClient(t, w, xclient{1, "txn", "10.0.0.1:1"}, "tx", false)
}

// wireTxnWorld is a world of cfg with min.insync.replicas 2, three partitions
// of __transaction_state, cfg's partitions of __consumer_offsets (three if
// it names none) and topic t of as many partitions, run half a second.
func wireTxnWorld(t fataler, cfg cluster.Config) *cluster.World {
	n := cmp.Or(cfg.OffsetsTopicNumPartitions, 3)
	cfg.MinInsyncReplicas, cfg.TransactionStateLogNumPartitions, cfg.OffsetsTopicNumPartitions = 2, 3, n
	w, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: n, ReplicationFactor: 3}); err != nil {
		t.Fatal(err)
	}
	if err := w.RunFor(500); err != nil {
		t.Fatal(err)
	}
	return w
}

// initTxnClient returns client c of w with transactional.id id (under
// transaction.version 2 if tv2) once it has its producer id.
func initTxnClient(t fataler, w *cluster.World, c xclient, id string, tv2 bool) *txnClient {
	tc := &txnClient{w: w, c: c, id: id, pid: -1, epoch: -1, tv2: tv2}
	if !tc.init(t) {
		t.Fatal("no producer id on a healthy cluster")
	}
	return tc
}

// transaction runs one transaction writing values to partitions and
// ending it with commit; it reports whether the commit (or abort) was
// acknowledged, and false when a step failed (the outcome is then the
// coordinator's: aborted by a fence or a timeout, or unknown).
func (tc *txnClient) transaction(t fataler, values map[int32][]string, commit bool) bool {
	if !tc.tv2 && !tc.addPartitions(t, slices.Sorted(maps.Keys(values))) {
		return false
	}
	for _, p := range slices.Sorted(maps.Keys(values)) {
		if !tc.produce(t, p, values[p]) {
			return false
		}
	}
	return tc.end(t, commit)
}

// addPartitions adds ps to the transaction (AddPartitionsToTxn v3).
func (tc *txnClient) addPartitions(t fataler, ps []int32) bool {
	add := kmsg.NewPtrAddPartitionsToTxnRequest()
	add.SetVersion(3)
	add.TransactionalID, add.ProducerID, add.ProducerEpoch = tc.id, tc.pid, tc.epoch
	at := kmsg.NewAddPartitionsToTxnRequestTopic()
	at.Topic = "t"
	at.Partitions = ps
	add.Topics = []kmsg.AddPartitionsToTxnRequestTopic{at}
	r, ok := tc.ask(t, tc.coord, add, 2000).(*kmsg.AddPartitionsToTxnResponse)
	return ok && r.Topics[0].Partitions[0].ErrorCode == 0
}

// end commits or aborts the transaction (EndTxn v3, or v5 under
// transaction.version 2, whose answer the client takes its next producer
// id and epoch from, its sequences starting again at 0).
func (tc *txnClient) end(t fataler, commit bool) bool {
	end := kmsg.NewPtrEndTxnRequest()
	end.SetVersion(3)
	if tc.tv2 {
		end.SetVersion(5)
	}
	end.TransactionalID, end.ProducerID, end.ProducerEpoch, end.Commit = tc.id, tc.pid, tc.epoch, commit
	er, ok := tc.ask(t, tc.coord, end, 2000).(*kmsg.EndTxnResponse)
	if !ok || er.ErrorCode != 0 {
		return false
	}
	if tc.tv2 {
		tc.pid, tc.epoch, tc.seq = er.ProducerID, er.ProducerEpoch, map[int32]int32{}
	}
	return true
}

// produce writes values to partition p as one transactional batch,
// acks=all, to its leader.
func (tc *txnClient) produce(t fataler, p int32, values []string) bool {
	if !tc.produceAt(t, p, tc.epoch, tc.seq[p], values) {
		return false
	}
	tc.seq[p] += int32(len(values))
	return true
}

// produceAt writes values to partition p as one transactional batch of
// epoch and base sequence seq (Produce v9, or v12 under
// transaction.version 2), reporting whether the leader took it.
func (tc *txnClient) produceAt(t fataler, p int32, epoch int16, seq int32, values []string) bool {
	var b kafkalog.RecordBatch
	b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, true, false)
	b.PartitionLeaderEpoch = kafkalog.NoPartitionLeaderEpoch
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = tc.pid, epoch, seq
	for i, v := range values {
		b.AppendRecord(int64(i), 0, nil, []byte(v))
	}
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(9)
	if tc.tv2 {
		req.SetVersion(12)
	}
	req.TransactionID, req.Acks, req.TimeoutMillis = kmsg.StringPtr(tc.id), -1, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = "t"
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Partition, rp.Records = p, b.AppendTo(nil)
	rt.Partitions = []kmsg.ProduceRequestTopicPartition{rp}
	req.Topics = []kmsg.ProduceRequestTopic{rt}
	leader := tc.w.PartitionLeader("t", p)
	if leader == replica.NoLeader {
		return false
	}
	r, ok := tc.ask(t, leader, req, 6000).(*kmsg.ProduceResponse)
	return ok && r.Topics[0].Partitions[0].ErrorCode == 0
}

// readCommitted reads partition p from its leader at read_committed, as a
// consumer does: fetches from 0 to the last stable offset, dropping the
// records of the aborted transactions the fetches list (each from its first
// offset until its producer's ABORT marker) and the markers; it returns
// the values delivered, the LSO and the HW.
func readCommitted(t fataler, tc *txnClient, p int32) (values []string, lso, hw int64) {
	var aborted []kmsg.FetchResponseTopicPartitionAbortedTransaction
	open := map[int64]bool{}
	for offset := int64(0); ; {
		req := kmsg.NewPtrFetchRequest()
		req.SetVersion(11)
		req.IsolationLevel, req.MaxBytes, req.MaxWaitMillis, req.ReplicaID = 1, 1<<20, 0, -1
		ft := kmsg.NewFetchRequestTopic()
		ft.Topic = "t"
		fp := kmsg.NewFetchRequestTopicPartition()
		fp.Partition, fp.FetchOffset, fp.PartitionMaxBytes, fp.CurrentLeaderEpoch = p, offset, 1<<20, -1
		ft.Partitions = []kmsg.FetchRequestTopicPartition{fp}
		req.Topics = []kmsg.FetchRequestTopic{ft}
		r, ok := tc.ask(t, tc.w.PartitionLeader("t", p), req, 1000).(*kmsg.FetchResponse)
		if !ok || r.Topics[0].Partitions[0].ErrorCode != 0 {
			t.Fatalf("read_committed fetch of t-%d at %d failed: %v", p, offset, r)
		}
		rp := r.Topics[0].Partitions[0]
		lso, hw = rp.LastStableOffset, rp.HighWatermark
		aborted = append(aborted, rp.AbortedTransactions...)
		raw := rp.RecordBatches
		if len(raw) == 0 {
			return values, lso, hw
		}
		for len(raw) > 0 {
			rb, n, err := kafkalog.ReadBatch(raw)
			if err != nil {
				break
			}
			raw = raw[n:]
			for _, a := range aborted {
				if a.FirstOffset <= rb.LastOffset() && a.FirstOffset >= rb.BaseOffset && a.ProducerID == rb.ProducerID {
					open[a.ProducerID] = true
				}
			}
			switch {
			case rb.Attributes.IsControl():
				delete(open, rb.ProducerID)
			case rb.Attributes.IsTransactional() && open[rb.ProducerID]:
			default:
				for _, rec := range rb.Records {
					values = append(values, string(rec.Value))
				}
			}
			offset = rb.NextOffset()
		}
	}
}

// TestExternalTransactionsProperty drives a transactional producer over
// the wire through random transactions (commit or abort, on random
// partitions) while brokers are killed and started: once the world is
// healed, a read_committed consumer of every partition gets each
// transaction whole or not at all, every acknowledged commit's records,
// no acknowledged abort's record, and the last stable offset is never
// above the high watermark. The producer runs transaction.version 0 or 2
// (KIP-890 part 2: partitions added by Produce v12, the epoch bumped by
// EndTxn v5). Replay: go test ./cluster -run
// TestExternalTransactionsProperty -rapid.seed=N.
func TestExternalTransactionsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, tc := txnPropWorld(t, cluster.Config{Seed: rapid.Uint64().Draw(t, "seed"), Rules: replica.Modern})
		tc.tv2 = rapid.Bool().Draw(t, "transaction.version 2")
		type txn struct {
			values       []string
			commit, sure bool
		}
		var txns []txn
		for i := range rapid.IntRange(1, 8).Draw(t, "transactions") {
			if rapid.Bool().Draw(t, fmt.Sprintf("fault-%d", i)) {
				b := rapid.Int32Range(1, 3).Draw(t, fmt.Sprintf("killed-%d", i))
				_ = w.Do(cluster.Action{Kind: cluster.ActKill, Broker: b})
				_ = w.RunFor(rapid.Int64Range(0, 3000).Draw(t, fmt.Sprintf("down-ms-%d", i)))
				_ = w.Do(cluster.Action{Kind: cluster.ActStart, Broker: b})
			}
			values := map[int32][]string{}
			var all []string
			for _, p := range rapid.SliceOfNDistinct(rapid.Int32Range(0, 2), 1, 3, rapid.ID[int32]).Draw(t, fmt.Sprintf("partitions-%d", i)) {
				for j := range rapid.IntRange(1, 3).Draw(t, fmt.Sprintf("records-%d-%d", i, p)) {
					v := fmt.Sprintf("x%d-p%d-r%d", i, p, j)
					values[p] = append(values[p], v)
					all = append(all, v)
				}
			}
			commit := rapid.Bool().Draw(t, fmt.Sprintf("commit-%d", i))
			ok := tc.transaction(t, values, commit)
			txns = append(txns, txn{values: all, commit: commit, sure: ok})
			if !ok {
				tc.init(t) // fences and aborts what it had open
			}
		}
		// heal: every broker runs, and the coordinator finishes its markers
		for b := int32(1); b <= 3; b++ {
			_ = w.Do(cluster.Action{Kind: cluster.ActStart, Broker: b})
		}
		_ = w.RunFor(60000)
		delivered := map[string]bool{}
		for p := int32(0); p < 3; p++ {
			vals, lso, hw := readCommitted(t, tc, p)
			if lso > hw {
				t.Fatalf("t-%d: last stable offset %d above the high watermark %d", p, lso, hw)
			}
			for _, v := range vals {
				delivered[v] = true
			}
		}
		for i, x := range txns {
			n := 0
			for _, v := range x.values {
				if delivered[v] {
					n++
				}
			}
			switch {
			case n != 0 && n != len(x.values):
				t.Fatalf("transaction %d delivered in part: %d of %v", i, n, x.values)
			case x.sure && x.commit && n == 0:
				t.Fatalf("transaction %d was committed, none of %v delivered", i, x.values)
			case x.sure && !x.commit && n > 0:
				t.Fatalf("transaction %d was aborted, %v delivered", i, x.values)
			case !x.commit && n > 0:
				t.Fatalf("transaction %d was never committed, %v delivered", i, x.values)
			}
		}
	})
}
