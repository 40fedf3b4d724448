package observe

import (
	"context"
	"fmt"
	"sync"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The special timestamps and replica ids of ListOffsets.
const (
	listLatest         = -1
	listEarliest       = -2
	consumerReplicaID  = -1
	debuggingReplicaID = -2 // ListOffsetsRequest.DEBUGGING_REPLICA_ID: any replica answers from its own log
)

// partitionOffsets are the offsets a poll's ListOffsets found: each
// replica's log end, and each leader's log start, high watermark and last
// stable offset.
type partitionOffsets struct {
	leo                      map[replicaKey]int64
	logStart, hw, lastStable map[TopicPartition]int64
	unreachable              map[int32]bool // brokers whose requests failed to be sent
}

type replicaKey struct {
	tp     TopicPartition
	broker int32
}

// listing is one ListOffsets request: which offsets of which partitions,
// asked of which broker, as whom.
type listing struct {
	broker    int32
	replicaID int32
	timestamp int64
	isolation int8
	parts     []*Partition
	into      func(k TopicPartition, broker int32, offset int64)
}

// offsets asks each broker the cluster lists, side by side, for its
// replicas' log ends (the debugging replica id) and, for the partitions it
// leads, their log start, high watermark and last stable offset.
func (p *poller) offsets(ctx context.Context, s *Sample, note func(string)) partitionOffsets {
	out := partitionOffsets{leo: map[replicaKey]int64{}, logStart: map[TopicPartition]int64{}, hw: map[TopicPartition]int64{},
		lastStable: map[TopicPartition]int64{}, unreachable: map[int32]bool{}}
	var mu sync.Mutex
	set := func(m map[TopicPartition]int64) func(TopicPartition, int32, int64) {
		return func(k TopicPartition, _ int32, off int64) { mu.Lock(); m[k] = off; mu.Unlock() }
	}
	var ls []listing
	for _, b := range s.Brokers {
		if b.State == BrokerDown {
			continue
		}
		var hosted, led []*Partition
		for _, pt := range s.Partitions {
			if pt.Leader == b.ID {
				led = append(led, pt)
			}
			for _, r := range pt.Replicas {
				if r == b.ID {
					hosted = append(hosted, pt)
				}
			}
		}
		ls = append(ls,
			listing{b.ID, debuggingReplicaID, listLatest, 0, hosted, func(k TopicPartition, broker int32, off int64) {
				mu.Lock()
				out.leo[replicaKey{k, broker}] = off
				mu.Unlock()
			}},
			listing{b.ID, consumerReplicaID, listEarliest, 0, led, set(out.logStart)},
			listing{b.ID, consumerReplicaID, listLatest, 0, led, set(out.hw)},
			listing{b.ID, consumerReplicaID, listLatest, 1, led, set(out.lastStable)})
	}
	var wg sync.WaitGroup
	for _, l := range ls {
		if len(l.parts) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.list(ctx, l); err != nil {
				mu.Lock()
				out.unreachable[l.broker] = true
				mu.Unlock()
				note(fmt.Sprintf("ListOffsets at broker %d: %v", l.broker, err))
			}
		}()
	}
	wg.Wait()
	return out
}

// list sends one ListOffsets and hands each answered offset to l.into; a
// partition that errs is not observed.
func (p *poller) list(ctx context.Context, l listing) error {
	req := kmsg.NewPtrListOffsetsRequest()
	req.ReplicaID, req.IsolationLevel = l.replicaID, l.isolation
	for _, pt := range l.parts {
		if n := len(req.Topics); n == 0 || req.Topics[n-1].Topic != pt.Topic {
			rt := kmsg.NewListOffsetsRequestTopic()
			rt.Topic = pt.Topic
			req.Topics = append(req.Topics, rt)
		}
		rp := kmsg.NewListOffsetsRequestTopicPartition()
		// the metadata's epoch: an answer from another epoch is refused
		// (FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH), not mixed in
		rp.Partition, rp.Timestamp, rp.CurrentLeaderEpoch = pt.Partition, l.timestamp, pt.LeaderEpoch
		rt := &req.Topics[len(req.Topics)-1]
		rt.Partitions = append(rt.Partitions, rp)
	}
	resp, err := request[*kmsg.ListOffsetsResponse](ctx, p.cl.Broker(int(l.broker)), req)
	if err != nil {
		return err
	}
	for _, t := range resp.Topics {
		for _, rp := range t.Partitions {
			if kerr.ErrorForCode(rp.ErrorCode) == nil && rp.Offset >= 0 {
				l.into(TopicPartition{t.Topic, rp.Partition}, l.broker, rp.Offset)
			}
		}
	}
	return nil
}
