package client

import (
	"fmt"
	"slices"
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
			resp.BaseOffset = int64(len(o.logs[e.TP.Partition]))
			for _, r := range e.Msg.Records {
				o.logs[e.TP.Partition] = append(o.logs[e.TP.Partition], string(r.Value))
			}
		}
		o.p.Step(o.env, &netsim.Envelope{From: e.To, To: o.p.id, Kind: netsim.KindProduceResp, TP: e.TP, Resp: resp})
	}
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
// partition sends its batches in order, a refused batch backs off and
// holds back the records behind it, which gather in batches, and a broker
// that refuses connections is tried again after the reconnect backoff.
// Once the broker is back every record is delivered, once, at the offset
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
		lengthMs := rapid.Int64Range(100, 60000).Draw(t, "outage ms")
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
		o := &outageLeader{env: env, p: p, broken: broken, kind: kind, logs: map[int32][]string{}, sent: map[int64]int{}}
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

		// At most one request per partition of the broken broker per 50 ms
		// (reconnect.backoff.ms, the shortest wait), and one more for the
		// records produced meanwhile in each: bounded by partitions, not by
		// the rate times the seconds waited.
		led := 0
		for i := range partitions {
			if int32(i%brokers+1) == broken {
				led++
			}
		}
		bound := led * (1000/ReconnectBackoffMs + 1)
		for sec, n := range o.sent {
			if n > bound {
				t.Fatalf("second %d of the outage: %d requests to broker %d, more than %d for its %d partitions (%d records produced a second)", sec, n, broken, bound, led, rate)
			}
		}

		for i, r := range p.Results() {
			if !r.Acked {
				t.Fatalf("record %d (%s, partition %d) not delivered %d ms after the outage: %+v", i, r.Value, r.Partition, env.now-endMs, r)
			}
			log := o.logs[r.Partition]
			if r.Offset < 0 || r.Offset >= int64(len(log)) || log[r.Offset] != r.Value {
				t.Fatalf("record %d (%s) acknowledged at offset %d of partition %d, which holds %v", i, r.Value, r.Offset, r.Partition, log[max(0, min(r.Offset, int64(len(log))-5)):])
			}
		}
		for partition, log := range o.logs {
			if len(log) != countIn(p, partition) {
				t.Fatalf("partition %d holds %d records, %d were produced to it", partition, len(log), countIn(p, partition))
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

// countIn counts the records p produced to partition.
func countIn(p *Producer, partition int32) int {
	n := 0
	for _, r := range p.EachResult() {
		if r.Partition == partition {
			n++
		}
	}
	return n
}

// byProduceOrder orders the values "p-N" a producer's rate makes by N.
func byProduceOrder(a, b string) int {
	var x, y int
	fmt.Sscanf(a, "p-%d", &x)
	fmt.Sscanf(b, "p-%d", &y)
	return x - y
}
