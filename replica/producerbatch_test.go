package replica_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/replica"
)

// batchMemLog is a MemLog that takes a ProducerBatch: it appends Count
// records with the batch's producer fields, as a log of bytes would.
type batchMemLog struct {
	*replica.MemLog
	batches int
}

func (l *batchMemLog) AppendBatchAsLeader(b replica.ProducerBatch, leaderEpoch int32) (int64, error) {
	l.batches++
	return l.AppendAsLeader(recordsOf(b), leaderEpoch)
}

// recordsOf is b one record at a time.
func recordsOf(b replica.ProducerBatch) []replica.Record {
	out := make([]replica.Record, b.Count)
	for i := range out {
		out[i].Value = b.Bytes
		if b.Producer != nil {
			p := *b.Producer
			p.Sequence = int32((int64(p.Sequence) + int64(i)) % (1 << 31)) // 0 after the largest int32, as Kafka's
			out[i].Producer = &p
		}
	}
	return out
}

// TestProducerBatchAsRecords: a leader given random produces (idempotent
// producers with retries, gaps, epoch bumps, sequences near the int32
// wrap, and producers without idempotence) as ProducerBatch values answers
// each exactly as a leader given the same records one by one, and the two
// logs end the same; a leader whose log is no BatchLog refuses a batch with
// an error, appending nothing.
func TestProducerBatchAsRecords(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		byRecords, byBatch := replica.NewMemLog(), &batchMemLog{MemLog: replica.NewMemLog()}
		nr, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, byRecords)
		mustDo(t, err)
		nb, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, byBatch)
		mustDo(t, err)
		for _, n := range []*replica.Node{nr, nb} {
			mustDo(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1}, Replicas: []int32{1}}))
			n.Advance(n.Ready())
		}
		next := map[int64]int32{} // a plausible next sequence per producer
		steps := rapid.IntRange(1, 40).Draw(t, "produces")
		for i := range steps {
			b := replica.ProducerBatch{Count: rapid.IntRange(1, 5).Draw(t, "count"), Bytes: []byte{byte(i)}}
			if id := rapid.Int64Range(-1, 2).Draw(t, "producer id"); id >= 0 {
				seq := next[id]
				switch rapid.IntRange(0, 5).Draw(t, "sequence") {
				case 0:
					seq = max(0, seq-int32(rapid.IntRange(1, 4).Draw(t, "back"))) // a retry
				case 1:
					seq = int32((int64(seq) + int64(rapid.IntRange(1, 3).Draw(t, "gap"))) % (1 << 31))
				case 2:
					seq = 1<<31 - 1 - int32(rapid.IntRange(0, 3).Draw(t, "near the wrap"))
				}
				epoch := int16(rapid.IntRange(0, 1).Draw(t, "producer epoch"))
				b.Producer = &replica.ProducerSequence{ID: id, Epoch: epoch, Sequence: seq}
				next[id] = int32((int64(seq) + int64(b.Count)) % (1 << 31))
			}
			corr := int64(i + 1)
			mustDo(t, nr.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: corr, Acks: 1, Records: recordsOf(b)}))
			mustDo(t, nb.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: corr, Acks: 1, Batch: &b}))
			rr, rb := nr.Ready(), nb.Ready()
			if diff := cmp.Diff(rr.ProduceResponses, rb.ProduceResponses); diff != "" {
				t.Fatalf("produce %d (%d records, producer %+v): the batch's answer differs from the records' (-records +batch):\n%s", i, b.Count, b.Producer, diff)
			}
			nr.Advance(rr)
			nb.Advance(rb)
		}
		if byRecords.LogEndOffset() != byBatch.LogEndOffset() {
			t.Fatalf("LEO %d by records, %d by batches", byRecords.LogEndOffset(), byBatch.LogEndOffset())
		}
		want, err := byRecords.Read(0, 1<<30)
		mustDo(t, err)
		got, err := byBatch.Read(0, 1<<30)
		mustDo(t, err)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("the logs differ (-records +batches):\n%s", diff)
		}
	})

	// A log that takes no batch: the produce fails the Step, nothing appended.
	log := replica.NewMemLog()
	n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, log)
	must(t, err)
	must(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1}, Replicas: []int32{1}}))
	n.Advance(n.Ready())
	err = n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: 1, Acks: 1, Batch: &replica.ProducerBatch{Count: 2, Bytes: []byte{1}}})
	if err == nil || log.LogEndOffset() != 0 {
		t.Fatalf("a batch to a log that is no BatchLog: err %v, LEO %d; want an error and nothing appended", err, log.LogEndOffset())
	}
}

// TestIdempotentBatches: a leader remembers the sequence range of a batch it
// appended, whether the batch came as records or whole: the next batch
// continues after the last one, a retry of the whole batch gets its offsets
// back, and a retry of part of it is OUT_OF_ORDER_SEQUENCE_NUMBER, as Kafka
// matches retries on the exact range (ProducerStateEntry.batchWithSequenceRange).
func TestIdempotentBatches(t *testing.T) {
	for _, whole := range []bool{false, true} {
		log := &batchMemLog{MemLog: replica.NewMemLog()}
		n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, log)
		must(t, err)
		must(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1}, Replicas: []int32{1}}))
		n.Advance(n.Ready())
		steps := []struct {
			seq, count int32
			want       replica.ProduceResponse
		}{
			{0, 3, replica.ProduceResponse{BaseOffset: 0}},
			{3, 2, replica.ProduceResponse{BaseOffset: 3}},
			{0, 3, replica.ProduceResponse{BaseOffset: 0}},
			{3, 2, replica.ProduceResponse{BaseOffset: 3}},
			{1, 2, replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}},
			{4, 1, replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}},
			{6, 1, replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}},
			{5, 1, replica.ProduceResponse{BaseOffset: 5}},
		}
		for i, s := range steps {
			b := replica.ProducerBatch{Count: int(s.count), Producer: &replica.ProducerSequence{ID: 7, Sequence: s.seq}, Bytes: []byte("v")}
			m := replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: int64(i), Acks: 1, Records: recordsOf(b)}
			if whole {
				m.Records, m.Batch = nil, &b
			}
			must(t, n.Step(m))
			s.want.To, s.want.CorrelationID = 100, int64(i)
			if diff := cmp.Diff([]replica.ProduceResponse{s.want}, n.Ready().ProduceResponses); diff != "" {
				t.Errorf("whole %v, step %d: sequences %d..%d (-want +got):\n%s", whole, i, s.seq, s.seq+s.count-1, diff)
			}
			n.Advance(n.Ready())
		}
		if whole && log.batches != 3 {
			t.Errorf("%d batches reached the log as batches, want 3 (the others are retries or refused)", log.batches)
		}
	}
}
