package observe

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// MaxProducerPartitions bounds the partitions a poll asks each broker
// DescribeProducers of: one request a broker leading partitions, for at
// most this many of them, in turn from poll to poll, so that every
// partition is asked at least once every ceil(L / MaxProducerPartitions)
// polls, L the most partitions a broker leads. A partition not asked in a
// poll keeps what the poll that last asked it was told, with that poll's
// number (Partition.ProducersSeq).
const MaxProducerPartitions = 200

// producersOf are the producers DescribeProducers told of a partition.
type producersOf map[TopicPartition][]Producer

// producers asks each live broker, side by side, for the producers of the
// next MaxProducerPartitions of the partitions it leads (DescribeProducers
// at the leader: a follower answers NOT_LEADER_OR_FOLLOWER).
func (p *poller) producers(ctx context.Context, s *Sample, note func(string)) producersOf {
	out := producersOf{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, b := range s.Brokers {
		if b.State == BrokerDown || b.State == BrokerFenced {
			continue
		}
		asked := p.producerTurn(b.ID, s.Partitions)
		if len(asked) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := p.describeProducers(ctx, b.ID, asked)
			if err != nil {
				note(fmt.Sprintf("DescribeProducers at broker %d: %v", b.ID, err))
				return
			}
			mu.Lock()
			for k, v := range got {
				out[k] = v
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// producerTurn is the partitions broker leads that this poll asks it
// about: the next MaxProducerPartitions after those the poll before asked.
func (p *poller) producerTurn(broker int32, parts []*Partition) []*Partition {
	var led []*Partition
	for _, pt := range parts {
		if pt.Leader == broker {
			led = append(led, pt)
		}
	}
	if len(led) <= MaxProducerPartitions {
		return led
	}
	if p.producerNext == nil {
		p.producerNext = map[int32]int{}
	}
	from := p.producerNext[broker] % len(led)
	p.producerNext[broker] = from + MaxProducerPartitions
	out := slices.Clone(led[from:min(len(led), from+MaxProducerPartitions)])
	if n := MaxProducerPartitions - len(out); n > 0 {
		out = append(out, led[:n]...)
	}
	return out
}

// describeProducers sends one DescribeProducers for parts to broker.
func (p *poller) describeProducers(ctx context.Context, broker int32, parts []*Partition) (producersOf, error) {
	req := kmsg.NewPtrDescribeProducersRequest()
	for _, pt := range parts {
		if n := len(req.Topics); n == 0 || req.Topics[n-1].Topic != pt.Topic {
			rt := kmsg.NewDescribeProducersRequestTopic()
			rt.Topic = pt.Topic
			req.Topics = append(req.Topics, rt)
		}
		rt := &req.Topics[len(req.Topics)-1]
		rt.Partitions = append(rt.Partitions, pt.Partition)
	}
	resp, err := request[*kmsg.DescribeProducersResponse](ctx, p.cl.Broker(int(broker)), req)
	if err != nil {
		return nil, err
	}
	out := producersOf{}
	for _, t := range resp.Topics {
		for _, rp := range t.Partitions {
			if kerr.ErrorForCode(rp.ErrorCode) != nil {
				continue // the leader moved since Metadata: not observed this poll
			}
			ps := make([]Producer, 0, len(rp.ActiveProducers))
			for _, ap := range rp.ActiveProducers {
				ps = append(ps, Producer{ID: ap.ProducerID, Epoch: ap.ProducerEpoch, LastSequence: ap.LastSequence,
					LastTimestamp: ap.LastTimestamp, CoordinatorEpoch: ap.CoordinatorEpoch, CurrentTxnStartOffset: ap.CurrentTxnStartOffset})
			}
			slices.SortFunc(ps, func(a, b Producer) int { return cmp.Compare(a.ID, b.ID) })
			out[TopicPartition{t.Topic, rp.Partition}] = ps
		}
	}
	return out, nil
}
