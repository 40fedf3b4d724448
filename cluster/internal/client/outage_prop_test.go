package client

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"pgregory.net/rapid"
)

// Outages a broker can have in TestProducerOutage.
const (
	outageRefuses  = "refuses"   // its partitions' ISR is too small: NOT_ENOUGH_REPLICAS
	outageDown     = "down"      // it does not run: every connection refused
	outageLost     = "lost"      // its link is cut: requests get no answer
	outageNoLeader = "no-leader" // its partitions have no leader
)

// outageLeader is the leaders of TestProducerOutage: the brokers append
// what they take to their partitions' logs and answer at once, except
// the broken broker during the outage.
type outageLeader struct {
	env    *fakeEnv
	p      *Producer
	broken int32
	kind   string
	out    bool // the outage is on
	logs   map[int32][]string
	// seqs is, per partition, what the leader knows of the idempotent
	// producer: its epoch, its next sequence, and the offset of each
	// sequence it appended in that epoch.
	seqs map[int32]*leaderSeqs
	// sent counts, per simulated second, the produce envelopes sent to
	// the broken broker.
	sent map[int64]int
}

// deliver delivers every envelope the producer sent, and those it sends
// on their answers, until none is left.
func (o *outageLeader) deliver() {
	for len(o.env.sent) > 0 {
		e := o.env.sent[0]
		o.env.sent = o.env.sent[1:]
		if e.Kind != netsim.KindReplica {
			continue
		}
		if e.To == o.broken && o.out {
			o.sent[o.env.now/1000]++
		}
		resp := replica.ProduceResponse{To: o.p.id, CorrelationID: e.Msg.CorrelationID, BaseOffset: -1}
		switch {
		case e.To == o.broken && o.out && o.kind == outageDown:
			o.p.RequestDropped(o.env, &e)
			continue
		case e.To == o.broken && o.out && o.kind == outageLost:
			continue
		case e.To == o.broken && o.out:
			resp.Error = replica.NotEnoughReplicas
		default:
			resp.BaseOffset, resp.Error = o.append(e.TP.Partition, e.Msg.Records)
		}
		o.p.Step(o.env, &netsim.Envelope{From: e.To, To: o.p.id, Kind: netsim.KindProduceResp, TP: e.TP, Resp: resp})
	}
}

// leaderSeqs is what a leader knows of the idempotent producer's
// sequences on a partition.
type leaderSeqs struct {
	epoch   int16
	next    int32
	offsets map[int32]int64
}

// append appends records to partition's log and returns the offset of
// the first, as a leader does (ProducerStateManager): an idempotent
// producer's batch must continue its sequence (a new epoch at 0), a batch
// it already appended is answered with its offset, and any other is
// OUT_OF_ORDER_SEQUENCE_NUMBER.
func (o *outageLeader) append(partition int32, records []replica.Record) (int64, replica.ErrorCode) {
	if s := records[0].Producer; s != nil {
		st := o.seqs[partition]
		switch {
		case st == nil || s.Epoch > st.epoch:
			if s.Sequence != 0 {
				return -1, replica.OutOfOrderSequenceNumber
			}
			st = &leaderSeqs{epoch: s.Epoch, offsets: map[int32]int64{}}
			o.seqs[partition] = st
		case s.Epoch < st.epoch || s.Sequence > st.next:
			return -1, replica.OutOfOrderSequenceNumber
		case s.Sequence < st.next:
			return st.offsets[s.Sequence], replica.None // a duplicate
		}
		base := int64(len(o.logs[partition]))
		for k := range records {
			st.offsets[st.next] = base + int64(k)
			st.next++
		}
	}
	base := int64(len(o.logs[partition]))
	for _, r := range records {
		o.logs[partition] = append(o.logs[partition], string(r.Value))
	}
	return base, replica.None
}

// setLeaders names each partition's leader: partition i is led by broker
// i mod brokers + 1, none for the broken broker's during a no-leader
// outage.
func (o *outageLeader) setLeaders(partitions, brokers int) {
	for i := range partitions {
		leader := int32(i%brokers + 1)
		if o.out && o.kind == outageNoLeader && leader == o.broken {
			leader = replica.NoLeader
		}
		o.env.leaders[kafkalog.TopicPartition{Topic: "t", Partition: int32(i)}] = leader
	}
}

// TestProducerOutage has a producer send records at a random rate to the
// partitions of a few brokers while one of them has an outage of random
// kind and length (its partitions refuse records for a too small ISR, it
// does not run, its link is cut, or its partitions have no leader), then
// comes back. During the outage the requests sent to the broken broker
// stay bounded by its partitions, whatever the records waiting: a
// partition sends its batches in order, at most five in flight, a refused
// batch backs off and holds back the records behind it, which gather in
// batches, and a broker that refuses connections is tried again after the
// reconnect backoff.
// Once the broker is back every record is delivered (but those that waited
// out delivery.timeout.ms, which fail with a TIMEOUT), once, at the offset
// the producer was told, and an idempotent producer's records in the order
// they were produced.
func TestProducerOutage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]replica.RuleSet{replica.V2_1, replica.V3_7, replica.V4}).Draw(t, "rules")
		partitions := rapid.IntRange(1, 6).Draw(t, "partitions")
		brokers := rapid.IntRange(1, 3).Draw(t, "brokers")
		rate := rapid.IntRange(20, 400).Draw(t, "records per second")
		acks := rapid.SampledFrom([]string{"all", "1"}).Draw(t, "acks")
		linger := rapid.SampledFrom([]int64{NoLinger, 5, 50}).Draw(t, "linger.ms")
		kind := rapid.SampledFrom([]string{outageRefuses, outageDown, outageLost, outageNoLeader}).Draw(t, "outage")
		startMs := rapid.Int64Range(0, 3000).Draw(t, "outage starts at ms")
		lengthMs := rapid.Int64Range(100, 150000).Draw(t, "outage ms")
		broken := int32(rapid.IntRange(1, brokers).Draw(t, "broken broker"))

		env := newFakeEnv(1)
		assignment := make([][]int32, partitions)
		for i := range assignment {
			assignment[i] = []int32{int32(i%brokers + 1)}
		}
		env.topics = []metadata.Topic{{Name: "t", Assignment: assignment}}
		s := Settings{Rules: rules, TickMs: 10}
		p, err := NewProducer(env, s, ProducerConfig{Name: "p", Topic: "t", Acks: acks, LingerMs: linger, RecordsPerSec: rate}, netsim.ProducerBase)
		if err != nil {
			t.Fatal(err)
		}
		o := &outageLeader{env: env, p: p, broken: broken, kind: kind, logs: map[int32][]string{}, seqs: map[int32]*leaderSeqs{}, sent: map[int64]int{}}
		o.setLeaders(partitions, brokers)
		endMs := startMs + lengthMs
		// Past the outage, request.timeout.ms (30 s) and a little more,
		// well within delivery.timeout.ms (120 s).
		for env.now <= endMs || env.now < endMs+40000 && (env.now%1000 != 0 || !allSettled(p)) {
			env.now += s.TickMs
			if out := env.now >= startMs && env.now < endMs; out != o.out {
				o.out = out
				o.setLeaders(partitions, brokers)
			}
			if env.now >= endMs {
				p.cfg.RecordsPerSec = 0 // the application stops producing once the broker is back
			}
			p.Tick(env)
			o.deliver()
		}

		// Per partition of the broken broker and second: at most
		// MaxInFlightRequestsPerConnection batches per retry backoff (100 ms
		// at the shortest: what goes before the first refusal comes back,
		// which then heads the deque and holds the rest back), or one per
		// reconnect backoff (50 ms), and one more for the records produced
		// meanwhile: bounded by partitions, not by the rate times the
		// seconds waited.
		led := 0
		for i := range partitions {
			if int32(i%brokers+1) == broken {
				led++
			}
		}
		bound := led * (max(MaxInFlightRequestsPerConnection*1000/DefaultRetryBackoffMs, 1000/ReconnectBackoffMs) + 1)
		for sec, n := range o.sent {
			if n > bound {
				t.Fatalf("second %d of the outage: %d requests to broker %d, more than %d for its %d partitions (%d records produced a second)", sec, n, broken, bound, led, rate)
			}
		}

		acked := map[int32]int{}
		for i, r := range p.Results() {
			if r.Failed && strings.HasPrefix(r.Error, "TIMEOUT") && lengthMs+DefaultRequestTimeoutMs >= DefaultDeliveryTimeoutMs {
				continue // it waited out delivery.timeout.ms
			}
			if !r.Acked {
				t.Fatalf("record %d (%s, partition %d) not delivered %d ms after the outage: %+v", i, r.Value, r.Partition, env.now-endMs, r)
			}
			acked[r.Partition]++
			log := o.logs[r.Partition]
			if r.Offset < 0 || r.Offset >= int64(len(log)) || log[r.Offset] != r.Value {
				t.Fatalf("record %d (%s) acknowledged at offset %d of partition %d, which holds %v", i, r.Value, r.Offset, r.Partition, log[max(0, min(r.Offset, int64(len(log))-5)):])
			}
		}
		for partition, log := range o.logs {
			if len(log) != acked[partition] {
				t.Fatalf("partition %d holds %d records, %d were acknowledged", partition, len(log), acked[partition])
			}
			if *p.cfg.EnableIdempotence && !slices.IsSortedFunc(log, byProduceOrder) {
				t.Fatalf("partition %d holds an idempotent producer's records out of order: %v", partition, log)
			}
		}
	})
}

// allSettled reports whether every record of p was answered.
func allSettled(p *Producer) bool {
	for _, r := range p.EachResult() {
		if !r.Acked && !r.Failed {
			return false
		}
	}
	return true
}

// byProduceOrder orders the values "p-N" a producer's rate makes by N.
func byProduceOrder(a, b string) int {
	var x, y int
	fmt.Sscanf(a, "p-%d", &x)
	fmt.Sscanf(b, "p-%d", &y)
	return x - y
}
