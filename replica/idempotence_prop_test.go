package replica_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/replica"
)

// kafkaBatch is one batch the model's log holds.
type kafkaBatch struct {
	id                int64
	epoch             int16
	firstSeq, lastSeq int32
	offset            int64
}

// kafkaRule is a model of Kafka's idempotence rule (3.7 and 4.x alike,
// UnifiedLog.append with ProducerStateEntry and ProducerAppendInfo), kept
// apart from the leader's: it keeps every batch ever appended and looks
// back at each producer's last five of its latest epoch.
type kafkaRule struct {
	log []kafkaBatch
	leo int64
}

// answer is the produce answer the model expects for a batch of count
// records from (id, epoch, first), and whether it is appended.
func (m *kafkaRule) answer(id int64, epoch int16, first int32, count int) (replica.ProduceResponse, bool) {
	last := int32((int64(first) + int64(count) - 1) % (math.MaxInt32 + 1))
	var mine []kafkaBatch
	for _, b := range m.log {
		if b.id == id {
			mine = append(mine, b)
		}
	}
	if len(mine) == 0 {
		return replica.ProduceResponse{BaseOffset: m.leo}, true // a producer the leader does not know
	}
	latest := mine[len(mine)-1].epoch
	var kept []kafkaBatch
	for i := len(mine) - 1; i >= 0 && mine[i].epoch == latest && len(kept) < replica.BatchesRetained; i-- {
		kept = append(kept, mine[i])
	}
	if epoch == latest {
		for _, b := range kept {
			if b.firstSeq == first && b.lastSeq == last {
				return replica.ProduceResponse{BaseOffset: b.offset}, false
			}
		}
	}
	refused := replica.ProduceResponse{BaseOffset: -1, Error: replica.OutOfOrderSequenceNumber}
	switch {
	case epoch < latest:
		refused.Error = replica.InvalidProducerEpoch
		return refused, false
	case epoch > latest && first != 0:
		return refused, false
	case epoch == latest:
		next := int32((int64(kept[0].lastSeq) + 1) % (math.MaxInt32 + 1))
		if first != next {
			return refused, false
		}
	}
	return replica.ProduceResponse{BaseOffset: m.leo}, true
}

// TestIdempotenceFollowsKafka: random producers send new batches, retries
// of recent and old batches, parts of batches, gaps, batches of newer and
// older epochs, and the leadership moves to a node that reads the producers
// back from the log; every answer is the one Kafka's rule gives.
// Replay: go test ./replica -run TestIdempotenceFollowsKafka -rapid.seed=N
func TestIdempotenceFollowsKafka(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := replica.NewMemLog()
		leaderEpoch := int32(0)
		newLeader := func() *replica.Node {
			n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, log)
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			if err := n.BecomeLeader(replica.LeaderAndISR{Leader: 1, LeaderEpoch: leaderEpoch, ISR: []int32{1}, Replicas: []int32{1}}); err != nil {
				t.Fatalf("become leader: %v", err)
			}
			n.Advance(n.Ready())
			return n
		}
		n := newLeader()
		var model kafkaRule
		// what each producer sent last: its epoch and next sequence
		type sender struct {
			epoch int16
			next  int32
		}
		senders := map[int64]*sender{}
		steps := rapid.IntRange(1, 60).Draw(t, "steps")
		for step := range steps {
			id := rapid.Int64Range(1, 2).Draw(t, "producer")
			s := senders[id]
			if s == nil {
				s = &sender{next: rapid.SampledFrom([]int32{0, 7, math.MaxInt32 - 3}).Draw(t, "first sequence")}
				senders[id] = s
			}
			epoch, first := s.epoch, s.next
			count := rapid.IntRange(1, 4).Draw(t, "count")
			switch rapid.SampledFrom([]string{"next", "next", "next", "retry", "retry", "part", "gap", "bump", "bump at", "older epoch", "new leader"}).Draw(t, "what") {
			case "retry", "part":
				var mine []kafkaBatch
				for _, b := range model.log {
					if b.id == id {
						mine = append(mine, b)
					}
				}
				if len(mine) == 0 {
					break
				}
				b := mine[rapid.IntRange(0, len(mine)-1).Draw(t, "which batch")]
				epoch, first = b.epoch, b.firstSeq
				count = int((int64(b.lastSeq)-int64(b.firstSeq)+math.MaxInt32+1)%(math.MaxInt32+1)) + 1
				if count > 1 && rapid.Bool().Draw(t, "drop the first record") {
					first, count = int32((int64(first)+1)%(math.MaxInt32+1)), count-1
				} else if count > 1 {
					count--
				}
			case "gap":
				first = int32((int64(first) + int64(rapid.IntRange(1, 3).Draw(t, "skipped"))) % (math.MaxInt32 + 1))
			case "bump":
				epoch, first = epoch+1, 0
			case "bump at":
				epoch, first = epoch+1, rapid.Int32Range(1, 5).Draw(t, "sequence of the new epoch")
			case "older epoch":
				epoch--
			case "new leader":
				leaderEpoch++
				n = newLeader()
				continue
			}
			want, appended := model.answer(id, epoch, first, count)
			records := make([]replica.Record, count)
			for i := range records {
				seq := int32((int64(first) + int64(i)) % (math.MaxInt32 + 1))
				records[i] = replica.Record{Value: []byte("v"), Producer: &replica.ProducerSequence{ID: id, Epoch: epoch, Sequence: seq}}
			}
			corr := int64(step + 1)
			if err := n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: corr, Acks: 1, Records: records}); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			rd := n.Ready()
			n.Advance(rd)
			want.To, want.CorrelationID = 100, corr
			if diff := cmp.Diff([]replica.ProduceResponse{want}, rd.ProduceResponses); diff != "" {
				t.Fatalf("step %d: producer %d epoch %d sequences from %d, %d records (-kafka +leader):\n%s", step, id, epoch, first, count, diff)
			}
			if appended {
				last := int32((int64(first) + int64(count) - 1) % (math.MaxInt32 + 1))
				model.log = append(model.log, kafkaBatch{id: id, epoch: epoch, firstSeq: first, lastSeq: last, offset: model.leo})
				model.leo += int64(count)
				s.epoch, s.next = epoch, int32((int64(last)+1)%(math.MaxInt32+1))
			}
			if got := log.LogEndOffset(); got != model.leo {
				t.Fatalf("step %d: LEO %d, want %d", step, got, model.leo)
			}
		}
	})
}
