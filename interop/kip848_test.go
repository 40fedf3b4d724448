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

	"github.com/kafkalive/kafkalive/cluster"
)

// consumerProtocolOp is the matrix's operation of a group that joins by
// the consumer group protocol (KIP-848): ConsumerGroupHeartbeat, the
// brokers' assignors, no JoinGroup or SyncGroup.
const consumerProtocolOp = "group protocol=consumer"

// kip848Partitions is the partition count of the topic the two members
// of a consumer-protocol group split.
const kip848Partitions = 4

// memberReads is what the members of a group read: by record value, the
// members that read it.
type memberReads struct {
	mu     sync.Mutex
	readBy map[string][]string
}

func (l *memberReads) add(member string, value []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.readBy == nil {
		l.readBy = map[string][]string{}
	}
	l.readBy[string(value)] = append(l.readBy[string(value)], member)
}

func (l *memberReads) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.readBy)
}

// TestKgoConsumerProtocol: two franz-go members with
// kgo.ServerSideBalancer() join a group through KIP-848's
// ConsumerGroupHeartbeat (never JoinGroup), the brokers' uniform assignor
// splits the topic's four partitions between them, every record produced
// is read exactly once, by its partition's owner, and ListGroups v5 calls
// the group "consumer" (its types filter keeps it or not).
func TestKgoConsumerProtocol(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 1)
	op(t, "kgo", consumerProtocolOp, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		topic, group := "interop-kip848-kgo", "interop-kip848-kgo-group"
		lc.createTopic(t, ctx, topic, kip848Partitions)
		var log memberReads
		lc.startKgoMembers(ctx, t, group, topic, &log, "kgo-848-a", "kgo-848-b")
		owner := lc.waitForSplit(ctx, t, group, "uniform")
		lc.checkListGroupsV5(ctx, t, group)
		sent := lc.produceToEach(ctx, t, topic, rand.New(rand.NewPCG(seedOf(t), 848)), 40)
		checkReadOnceByOwner(ctx, t, &log, sent, owner)
	})
}

// startKgoMembers starts a franz-go member of group for each client id,
// with kgo.ServerSideBalancer() (KIP-848), reading topic from its start
// and logging what each reads until ctx ends.
func (lc *liveCluster) startKgoMembers(ctx context.Context, t *testing.T, group, topic string, log *memberReads, ids ...string) {
	t.Helper()
	for _, id := range ids {
		cl := lc.kgoClient(t, kgo.ClientID(id), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
			kgo.ServerSideBalancer(), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.AutoCommitInterval(200*time.Millisecond))
		go func() {
			for ctx.Err() == nil {
				cl.PollFetches(ctx).EachRecord(func(r *kgo.Record) { log.add(id, r.Value) })
			}
		}()
	}
}

// waitForSplit waits until group has two members at the group's epoch,
// each with half the partitions, in the Stable state with assignor, and
// returns each partition's owner (by client id).
func (lc *liveCluster) waitForSplit(ctx context.Context, t *testing.T, group, assignor string) map[int32]string {
	t.Helper()
	admin := lc.kgoClient(t)
	var desc kmsg.ConsumerGroupDescribeResponseGroup
	waitUntil(ctx, t, "two members with two partitions each", func() (string, bool) {
		d, err := describeConsumerGroup(ctx, admin, group)
		desc = d
		if err != nil {
			return err.Error(), false
		}
		if len(d.Members) != 2 || d.State != "Stable" {
			return fmt.Sprintf("%s, %d members", d.State, len(d.Members)), false
		}
		for _, m := range d.Members {
			if n := assigned(m.Assignment); n != kip848Partitions/2 || m.MemberEpoch != d.Epoch {
				return fmt.Sprintf("member %s owns %d at epoch %d (group %d)", m.ClientID, n, m.MemberEpoch, d.Epoch), false
			}
		}
		return "", true
	})
	require.Equal(t, assignor, desc.AssignorName)
	owner := map[int32]string{}
	for _, m := range desc.Members {
		for _, tp := range m.Assignment.TopicPartitions {
			for _, p := range tp.Partitions {
				owner[p] = m.ClientID
			}
		}
	}
	return owner
}

// produceToEach sends n records to topic, record i to partition i mod
// kip848Partitions, and returns them with their partitions.
func (lc *liveCluster) produceToEach(ctx context.Context, t *testing.T, topic string, rng *rand.Rand, n int) []rec {
	t.Helper()
	sent := records(rng, "kip848", n)
	pr := lc.kgoClient(t, kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	for i := range sent {
		sent[i].Partition = int32(i % kip848Partitions)
		kr := &kgo.Record{Key: sent[i].Key, Value: sent[i].Value, Partition: sent[i].Partition}
		require.NoError(t, pr.ProduceSync(ctx, kr).FirstErr())
	}
	return sent
}

// checkReadOnceByOwner waits until log holds every record of sent, then
// checks that each was read once, by the member that owns its partition.
func checkReadOnceByOwner(ctx context.Context, t *testing.T, log *memberReads, sent []rec, owner map[int32]string) {
	t.Helper()
	waitUntil(ctx, t, "every record read", func() (string, bool) {
		n := log.count()
		return fmt.Sprintf("%d of %d read", n, len(sent)), n >= len(sent)
	})
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, r := range sent {
		require.Equal(t, []string{owner[r.Partition]}, log.readBy[string(r.Value)], "record %s", r)
	}
	require.Len(t, log.readBy, len(sent), "records read that were not sent")
}

// checkListGroupsV5: ListGroups v5 types group "consumer" (protocol type
// consumer), and its types filter (case-insensitive) keeps it or not.
func (lc *liveCluster) checkListGroupsV5(ctx context.Context, t *testing.T, group string) {
	t.Helper()
	admin := lc.kgoClient(t)
	for _, filter := range [][]string{nil, {"consumer"}, {"Classic"}} {
		req := kmsg.NewPtrListGroupsRequest()
		req.Version, req.TypesFilter = 5, filter
		var types []string
		for _, s := range admin.RequestSharded(ctx, req) {
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
	out := lc.exec(t, "kafka-consumer-groups --describe --group "+group+" --members --verbose")
	require.Contains(t, out, "CURRENT-EPOCH", "kafka-consumer-groups:\n%s", out)
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

// TestKgoConsumerProtocolRegex: a franz-go member with
// kgo.ServerSideBalancer() and kgo.ConsumeRegex() subscribes through
// KIP-848's SubscribedTopicRegex: the brokers resolve it against the
// topics, matching whole names, and a topic created later that matches is
// read too. franz-go matches anywhere in a name, as Go's MatchString does,
// and sends its pattern wrapped in .* so that the brokers agree: the
// pattern here starts with ^, and a topic with the prefix inside its name
// is not read.
func TestKgoConsumerProtocolRegex(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 1)
	op(t, "kgo", consumerProtocolOp+", regex", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		rng := rand.New(rand.NewPCG(seedOf(t), 849))
		lc.createTopic(t, ctx, "interop-rx-a", 2)
		lc.createTopic(t, ctx, "not-interop-rx-c", 1) // the prefix inside the name
		var log memberReads
		cl := lc.kgoClient(t, kgo.ClientID("kgo-848-rx"), kgo.ConsumerGroup("interop-rx-group"), kgo.ConsumeRegex(),
			kgo.ConsumeTopics("^interop-rx-.*"), kgo.ServerSideBalancer(), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.MetadataMinAge(250*time.Millisecond))
		go func() {
			for ctx.Err() == nil {
				cl.PollFetches(ctx).EachRecord(func(r *kgo.Record) { log.add(r.Topic, r.Value) })
			}
		}()
		lc.createTopic(t, ctx, "interop-rx-b", 2)
		var sent []rec
		for _, topic := range []string{"interop-rx-a", "interop-rx-b", "not-interop-rx-c"} {
			recs := records(rng, topic, 6)
			got, err := kgoDriver{lc}.produce(ctx, t, topic, "all", recs)
			require.NoError(t, err)
			for i := range got {
				got[i].Key = []byte(topic) // the topic it went to, for the check below
			}
			sent = append(sent, got...)
		}
		waitUntil(ctx, t, "the records of both matching topics", func() (string, bool) {
			return fmt.Sprintf("%d of 12 read", log.count()), log.count() >= 12
		})
		time.Sleep(500 * time.Millisecond) // anything more would come now
		log.mu.Lock()
		defer log.mu.Unlock()
		for _, r := range sent {
			want := []string{string(r.Key)}
			if string(r.Key) == "not-interop-rx-c" {
				want = nil
			}
			require.Equal(t, want, log.readBy[string(r.Value)], "record %s of %s", r, r.Key)
		}
	})
}

// TestKgoConsumerProtocolCoordinatorFailover: two franz-go members of a
// consumer-protocol group split four partitions; the broker coordinating
// the group is killed. The broker that takes its __consumer_offsets
// partition over replays the group's records, so the members carry on at
// the same group epoch with the same partitions (no rebalance): every
// record produced after the kill is read exactly once, by its
// partition's owner from before.
func TestKgoConsumerProtocolCoordinatorFailover(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 1)
	op(t, "kgo", consumerProtocolOp+", coordinator killed", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		topic, group := "interop-kip848-failover", "interop-kip848-failover-group"
		lc.createTopic(t, ctx, topic, kip848Partitions)
		var log memberReads
		lc.startKgoMembers(ctx, t, group, topic, &log, "kgo-848-x", "kgo-848-y")
		owner := lc.waitForSplit(ctx, t, group, "uniform")
		admin := lc.kgoClient(t)
		before, err := describeConsumerGroup(ctx, admin, group)
		require.NoError(t, err)
		var coordinator int32
		lc.world(t, func(w *cluster.World) error {
			for _, g := range w.Groups() {
				if g.Name == group {
					coordinator = g.Coordinator
				}
			}
			if coordinator <= 0 {
				return fmt.Errorf("group %s has no coordinator", group)
			}
			return w.Kill(coordinator)
		})
		// A new client: the old one's requests to the killed broker wait
		// for connections that are never answered.
		admin = lc.kgoClient(t, kgo.SeedBrokers(lc.bootstrap(1), lc.bootstrap(2), lc.bootstrap(3)), kgo.RequestTimeoutOverhead(2*time.Second))
		var after kmsg.ConsumerGroupDescribeResponseGroup
		waitUntil(ctx, t, "the group at its new coordinator", func() (string, bool) {
			cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			var err error
			after, err = describeConsumerGroup(cctx, admin, group)
			if err != nil {
				return err.Error(), false
			}
			return after.State, after.State == "Stable"
		})
		require.Equal(t, before.Epoch, after.Epoch, "the group epoch moved with the coordinator: a rebalance")
		sent := records(rand.New(rand.NewPCG(seedOf(t), 849)), "kip848-failover", 40)
		pr := lc.kgoClient(t, kgo.SeedBrokers(lc.bootstrap(1), lc.bootstrap(2), lc.bootstrap(3)), kgo.DefaultProduceTopic(topic),
			kgo.RecordPartitioner(kgo.ManualPartitioner()))
		for i := range sent {
			sent[i].Partition = int32(i % kip848Partitions)
			require.NoError(t, pr.ProduceSync(ctx, &kgo.Record{Key: sent[i].Key, Value: sent[i].Value, Partition: sent[i].Partition}).FirstErr())
		}
		checkReadOnceByOwner(ctx, t, &log, sent, owner)
		now, err := describeConsumerGroup(ctx, admin, group)
		require.NoError(t, err)
		require.Equal(t, before.Epoch, now.Epoch, "the group epoch moved after the coordinator did: a rebalance")
	})
}
