package replica_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/replica"
)

// The leader's sequence checks (KIP-98), one produce after the log already
// holds sequences 0-2 of producer 7 in producer epoch 1.
func TestIdempotentProduce(t *testing.T) {
	seqs := func(epoch int16, seq ...int32) []replica.Record {
		out := make([]replica.Record, len(seq))
		for i, s := range seq {
			out[i] = replica.Record{Value: []byte("v"), Producer: &replica.ProducerSequence{ID: 7, Epoch: epoch, Sequence: s}}
		}
		return out
	}
	tests := []struct {
		name    string
		records []replica.Record
		want    replica.ProduceResponse
		leo     int64
	}{
		{"the next sequence is appended", seqs(1, 3, 4), replica.ProduceResponse{BaseOffset: 3}, 5},
		{"a retry of the batch gets its offsets back", seqs(1, 0, 1, 2), replica.ProduceResponse{BaseOffset: 0}, 3},
		{"a retry of part of the batch is refused", seqs(1, 1, 2), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}, 3},
		{"a retry of one record of the batch is refused", seqs(1, 1), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}, 3},
		{"a gap is refused", seqs(1, 5), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}, 3},
		{"sequences within a batch must be consecutive", seqs(1, 3, 5), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}, 3},
		{"an older producer epoch is fenced", seqs(0, 3), replica.ProduceResponse{Error: replica.InvalidProducerEpoch, BaseOffset: -1}, 3},
		{"a newer producer epoch starts over", seqs(2, 0), replica.ProduceResponse{BaseOffset: 3}, 4},
		{"a newer producer epoch must start at sequence 0", seqs(2, 3), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}, 3},
		{"another producer is independent", []replica.Record{{Producer: &replica.ProducerSequence{ID: 8, Sequence: 9}}}, replica.ProduceResponse{BaseOffset: 3}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := replica.NewMemLog()
			_, err := log.AppendAsLeader(seqs(1, 0, 1, 2), 0)
			must(t, err)
			n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, log)
			must(t, err)
			// The new leader learns the sequences from its log.
			must(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1}, Replicas: []int32{1}}))
			n.Advance(n.Ready())
			must(t, n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: 1, Acks: 1, Records: tt.records}))
			tt.want.To, tt.want.CorrelationID = 100, 1
			if diff := cmp.Diff([]replica.ProduceResponse{tt.want}, n.Ready().ProduceResponses); diff != "" {
				t.Errorf("produce answer (-want +got):\n%s", diff)
			}
			if got := log.LogEndOffset(); got != tt.leo {
				t.Errorf("LEO = %d, want %d", got, tt.leo)
			}
		})
	}
}

// TestIdempotentSequenceWrap: a producer's sequence starts again at 0
// after the largest int32 (DefaultRecordBatch.incrementSequence): the
// batch after it continues at 0, a batch may span the wrap, and a retry of
// such a batch gets its offsets back (a retry of part of it does not).
func TestIdempotentSequenceWrap(t *testing.T) {
	const top = 1<<31 - 1
	seqs := func(seq ...int32) []replica.Record {
		out := make([]replica.Record, len(seq))
		for i, s := range seq {
			out[i] = replica.Record{Value: []byte("v"), Producer: &replica.ProducerSequence{ID: 7, Epoch: 0, Sequence: s}}
		}
		return out
	}
	log := replica.NewMemLog()
	_, err := log.AppendAsLeader(seqs(top-2, top-1), 0)
	must(t, err)
	n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, log)
	must(t, err)
	must(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1}, Replicas: []int32{1}}))
	n.Advance(n.Ready())
	for i, c := range []struct {
		records []replica.Record
		want    replica.ProduceResponse
	}{
		{seqs(top, 0, 1), replica.ProduceResponse{BaseOffset: 2}},                                        // spans the wrap
		{seqs(top, 0, 1), replica.ProduceResponse{BaseOffset: 2}},                                        // its retry
		{seqs(0, 1), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}},   // a retry of its tail alone
		{seqs(2), replica.ProduceResponse{BaseOffset: 5}},                                                // on after the wrap
		{seqs(top), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}},    // the largest alone
		{seqs(4), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}},      // a gap
		{seqs(top, 1), replica.ProduceResponse{Error: replica.OutOfOrderSequenceNumber, BaseOffset: -1}}, // not consecutive
		{seqs(3, 4), replica.ProduceResponse{BaseOffset: 6}},
	} {
		corr := int64(i + 1)
		must(t, n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: corr, Acks: 1, Records: c.records}))
		c.want.To, c.want.CorrelationID = 100, corr
		rd := n.Ready()
		if diff := cmp.Diff([]replica.ProduceResponse{c.want}, rd.ProduceResponses); diff != "" {
			t.Errorf("produce %d: answer (-want +got):\n%s", i, diff)
		}
		n.Advance(rd)
	}
	if got := log.LogEndOffset(); got != 8 {
		t.Errorf("LEO = %d, want 8", got)
	}
}
