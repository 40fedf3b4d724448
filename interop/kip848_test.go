package interop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// consumerProtocolOp is the matrix's operation of a group that joins by
// the consumer group protocol (KIP-848): ConsumerGroupHeartbeat, the
// brokers' assignors, no JoinGroup or SyncGroup.
const consumerProtocolOp = "group protocol=consumer"

// TestKgoConsumerProtocol: two franz-go members with
// kgo.ServerSideBalancer() join a group through KIP-848's
// ConsumerGroupHeartbeat (never JoinGroup), the brokers' uniform assignor
// splits the topic's four partitions between them, every record produced
// is read exactly once, and ListGroups v5 calls the group "consumer"
// (ConsumerGroupDescribe shows both members at the group's epoch).
func TestKgoConsumerProtocol(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 1)
	op(t, "kgo", consumerProtocolOp, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		rng := rand.New(rand.NewPCG(seedOf(t), 848))
		topic, group := "interop-kip848", "interop-kip848-group"
		lc.createTopic(t, ctx, topic, 4)

		var mu sync.Mutex
		readBy := map[string][]string{} // value -> members that read it
		partsOf := map[string]map[int32]bool{}
		members := []*kgo.Client{}
		for _, id := range []string{"kgo-848-a", "kgo-848-b"} {
			cl := lc.kgoClient(t, kgo.ClientID(id), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
				kgo.ServerSideBalancer(), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
				kgo.AutoCommitInterval(200*time.Millisecond))
			members = append(members, cl)
			partsOf[id] = map[int32]bool{}
			go func() {
				for ctx.Err() == nil {
					fs := cl.PollFetches(ctx)
					fs.EachRecord(func(r *kgo.Record) {
						mu.Lock()
						readBy[string(r.Value)] = append(readBy[string(r.Value)], id)
						partsOf[id][r.Partition] = true
						mu.Unlock()
					})
				}
			}()
		}
		// both members in the group at one epoch, the partitions split
		var desc kmsg.ConsumerGroupDescribeResponseGroup
		waitUntil(ctx, t, "two members with two partitions each", func() (string, bool) {
			d, err := describeConsumerGroup(ctx, members[0], group)
			desc = d
			if err != nil {
				return err.Error(), false
			}
			if len(d.Members) != 2 {
				return fmt.Sprintf("%d members", len(d.Members)), false
			}
			for _, m := range d.Members {
				if n := assigned(m.Assignment); n != 2 || m.MemberEpoch != d.Epoch {
					return fmt.Sprintf("member %s owns %d at epoch %d (group %d)", m.ClientID, n, m.MemberEpoch, d.Epoch), false
				}
			}
			return "", true
		})
		require.Equal(t, "Stable", desc.State)
		require.Equal(t, "uniform", desc.AssignorName)
		owner := map[int32]string{}
		for _, m := range desc.Members {
			for _, tp := range m.Assignment.TopicPartitions {
				for _, p := range tp.Partitions {
					owner[p] = m.ClientID
				}
			}
		}

		// records produced once the group is stable: each one read by the
		// member that owns its partition, once
		sent := records(rng, "kip848", 40)
		pr := lc.kgoClient(t, kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
		for i := range sent {
			sent[i].Partition = int32(i % 4)
			kr := &kgo.Record{Key: sent[i].Key, Value: sent[i].Value, Partition: sent[i].Partition}
			require.NoError(t, pr.ProduceSync(ctx, kr).FirstErr())
		}

		waitUntil(ctx, t, "every record read", func() (string, bool) {
			mu.Lock()
			defer mu.Unlock()
			return fmt.Sprintf("%d of %d read", len(readBy), len(sent)), len(readBy) == len(sent)
		})
		mu.Lock()
		for _, r := range sent {
			require.Equal(t, []string{owner[r.Partition]}, readBy[string(r.Value)], "record %s", r)
		}
		for id, ps := range partsOf {
			require.Len(t, ps, 2, "%s read partitions %v", id, ps)
		}
		mu.Unlock()

		// ListGroups v5 says what kind of group it is, and the types filter
		// keeps it or not.
		for _, filter := range [][]string{nil, {"consumer"}, {"Classic"}} {
			req := kmsg.NewPtrListGroupsRequest()
			req.Version, req.TypesFilter = 5, filter
			shards := members[0].RequestSharded(ctx, req)
			var types []string
			for _, s := range shards {
				require.NoError(t, s.Err)
				for _, g := range s.Resp.(*kmsg.ListGroupsResponse).Groups {
					if g.Group == group {
						types = append(types, g.GroupType+"/"+g.ProtocolType)
					}
				}
			}
			want := []string{"consumer/consumer"}
			if slices.Contains(filter, "Classic") {
				want = nil
			}
			require.Equal(t, want, types, "ListGroups v5 types filter %v", filter)
		}
		out := lc.exec(t, "kafka-consumer-groups --describe --group "+group)
		require.Contains(t, out, topic, "kafka-consumer-groups:\n%s", out)
	})
}

// describeConsumerGroup sends ConsumerGroupDescribe for group through cl.
func describeConsumerGroup(ctx context.Context, cl *kgo.Client, group string) (kmsg.ConsumerGroupDescribeResponseGroup, error) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return kmsg.ConsumerGroupDescribeResponseGroup{}, err
	}
	if len(resp.Groups) != 1 {
		return kmsg.ConsumerGroupDescribeResponseGroup{}, fmt.Errorf("%d groups described", len(resp.Groups))
	}
	g := resp.Groups[0]
	if g.ErrorCode != 0 {
		return g, fmt.Errorf("ConsumerGroupDescribe %s: error %d", group, g.ErrorCode)
	}
	return g, nil
}

// assigned counts an assignment's partitions.
func assigned(a kmsg.Assignment) int {
	n := 0
	for _, t := range a.TopicPartitions {
		n += len(t.Partitions)
	}
	return n
}

// waitUntil polls cond every 100 ms until it holds, failing t with cond's
// last word when ctx ends first.
func waitUntil(ctx context.Context, t *testing.T, what string, cond func() (string, bool)) {
	t.Helper()
	for {
		msg, ok := cond()
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %s", what, msg)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
