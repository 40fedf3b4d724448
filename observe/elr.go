package observe

import (
	"context"
	"errors"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DescribePartitionsLimit is the most partitions the observer asks one
// DescribeTopicPartitions to answer (its ResponsePartitionLimit). Kafka
// answers at most its own max.request.partition.size.limit (2000 by
// default; Kafka 3.9's DescribeTopicPartitionsRequestHandler takes the
// smaller of the two) and names where to go on (NextCursor): the observer
// asks again from there, ceil(N / 2000) requests for N partitions.
const DescribePartitionsLimit int32 = 2000

// partitionELR is a partition's eligible leader replicas and last known
// leader (KIP-966).
type partitionELR struct {
	elr, lastKnown []int32
}

// elr asks DescribeTopicPartitions (Kafka 3.7 on) for the partitions' ELR
// and last known ELR, page after page (the cursor), every topic of the
// sample in one request a page; nil and false when the cluster does not
// answer it (an older cluster; franz-go's kfake): the partitions are then
// Metadata's and their ELR not observed.
func (p *poller) elr(ctx context.Context, s *Sample, note func(string)) (map[TopicPartition]partitionELR, bool) {
	if len(s.Topics) == 0 {
		return nil, true
	}
	req := kmsg.NewPtrDescribeTopicPartitionsRequest()
	limit := p.describeLimit
	if limit <= 0 {
		limit = DescribePartitionsLimit
	}
	req.ResponsePartitionLimit = limit
	for _, t := range s.Topics {
		rt := kmsg.NewDescribeTopicPartitionsRequestTopic()
		rt.Topic = t.Name
		req.Topics = append(req.Topics, rt)
	}
	out := make(map[TopicPartition]partitionELR, len(s.Partitions))
	// a page answers at least one partition: more pages than partitions
	// would be a cursor that does not move
	for pages := 0; pages <= len(s.Partitions)/int(limit)+len(s.Topics); pages++ {
		resp, err := anyBroker[*kmsg.DescribeTopicPartitionsResponse](ctx, p, req, nil)
		if err == nil {
			err = topicsError(resp)
		}
		if err != nil {
			note("DescribeTopicPartitions: " + err.Error() + " (the eligible leader replicas are not observed)")
			return nil, false
		}
		for _, t := range resp.Topics {
			for _, pt := range t.Partitions {
				if t.Topic != nil && pt.ErrorCode == 0 {
					out[TopicPartition{*t.Topic, pt.Partition}] = partitionELR{nilIfEmpty(pt.EligibleLeaderReplicas), nilIfEmpty(pt.LastKnownELR)}
				}
			}
		}
		if resp.NextCursor == nil {
			return out, true
		}
		c := kmsg.NewDescribeTopicPartitionsRequestCursor()
		c.Topic, c.Partition = resp.NextCursor.Topic, resp.NextCursor.Partition
		req.Cursor = &c
	}
	note("DescribeTopicPartitions: the cursor did not reach the last partition (the eligible leader replicas are not observed)")
	return nil, false
}

// topicsError is the first error a DescribeTopicPartitions answer gives a
// topic but UNKNOWN_TOPIC_OR_PARTITION (a topic deleted since Metadata).
func topicsError(resp *kmsg.DescribeTopicPartitionsResponse) error {
	for _, t := range resp.Topics {
		if err := kerr.ErrorForCode(t.ErrorCode); err != nil && !errors.Is(err, kerr.UnknownTopicOrPartition) {
			return err
		}
	}
	return nil
}

func nilIfEmpty(xs []int32) []int32 {
	if len(xs) == 0 {
		return nil
	}
	return xs
}
