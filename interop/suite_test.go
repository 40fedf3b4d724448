package interop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// errUnsupported is a client's answer to an operation it does not have
// (kcat lists no groups).
var errUnsupported = errors.New("the client has no such operation")

// groupDesc is what a client says of a group.
type groupDesc struct {
	State        string
	ProtocolType string
	Members      int
}

// client is one Kafka client under test, against one live world.
type client interface {
	// produce sends recs to topic with acks ("all" or "1") and returns them
	// with the partition and offset the client was told (-1 when it does
	// not say).
	produce(ctx context.Context, t *testing.T, topic, acks string, recs []rec) ([]rec, error)
	// consumePlain reads n records of topic's partitions (0 to
	// partitions-1) from the start, without a group.
	consumePlain(ctx context.Context, t *testing.T, topic string, partitions int32, n int) ([]rec, error)
	// consumeGroup joins group, reads n records of topic from the start,
	// commits the offsets after them and leaves the group.
	consumeGroup(ctx context.Context, t *testing.T, topic, group string, n int) ([]rec, error)
	// committed reads group's committed offsets of topic.
	committed(ctx context.Context, t *testing.T, group, topic string, partitions int32) (map[int32]int64, error)
	// listGroups lists the groups the cluster knows.
	listGroups(ctx context.Context, t *testing.T) ([]string, error)
	// describeGroup describes group.
	describeGroup(ctx context.Context, t *testing.T, group string) (groupDesc, error)
	// addPartitions grows topic to count partitions with the client's
	// admin API (CreatePartitions).
	addPartitions(ctx context.Context, t *testing.T, topic string, count int32) error
	// deleteGroup deletes group (DeleteGroups), which has no members.
	deleteGroup(ctx context.Context, t *testing.T, group string) error
	// alterConfigs alters topic's own configs by ops with the client's
	// admin API and returns the request it sent: incrementalAlterConfigs
	// (SET, DELETE and APPEND; a config ops do not name keeps its value)
	// when the client has it, else legacyAlterConfigs (SETs only, which
	// become the topic's own configs: one they leave out goes back to the
	// broker's value).
	alterConfigs(ctx context.Context, t *testing.T, topic string, ops []cluster.ConfigOp) (string, error)
	// describeConfigs describes topic's configs (DescribeConfigs): each
	// config's value and source, by name.
	describeConfigs(ctx context.Context, t *testing.T, topic string) (map[string]configDesc, error)
}

// The requests a client alters a topic's configs with: Kafka's
// IncrementalAlterConfigs (KIP-339, API key 44) and the legacy
// AlterConfigs (API key 33), whose configs replace the resource's.
const (
	incrementalAlterConfigs = "IncrementalAlterConfigs"
	legacyAlterConfigs      = "AlterConfigs"
)

// configDesc is a topic config as DescribeConfigs reports it: its value
// and its source by Kafka's name (ConfigSource: DYNAMIC_TOPIC_CONFIG for
// the topic's own, STATIC_BROKER_CONFIG or DEFAULT_CONFIG otherwise).
type configDesc struct {
	Value, Source string
}

// partitionRule is the rule a client's default partitioner puts a key by.
type partitionRule struct {
	name string
	fn   func(key []byte, partitions int32) int32
}

// suiteOps are the operations runSuite records, in order.
var suiteOps = []string{"produce acks=all", "produce acks=1", "partitioner", "log agrees", "consume plain", "consume group", "commit offsets", "fetch offsets", "list groups", "describe groups", "auto-create topic", "add partitions", "delete group", "alter configs"}

// runSuite runs every operation of c against lc on a topic of its own:
// each one a subtest and a cell of the matrix.
func runSuite(t *testing.T, lc *liveCluster, name string, c client, rule partitionRule) {
	rng := rand.New(rand.NewPCG(seedOf(t), 7))
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	topic, group := "interop-"+name, "interop-"+name+"-group"
	const partitions = 3
	lc.createTopic(t, ctx, topic, partitions)

	var sent []rec // as the producers were told
	for _, acks := range []string{"all", "1"} {
		op(t, name, "produce acks="+acks, func(t *testing.T) {
			recs := records(rng, name+"-acks"+acks, 15)
			got, err := c.produce(ctx, t, topic, acks, recs)
			require.NoError(t, err)
			require.Len(t, got, len(recs))
			for i := range got {
				require.Equal(t, recs[i].Key, got[i].Key)
				require.Equal(t, recs[i].Value, got[i].Value)
			}
			sent = append(sent, got...)
		})
	}

	// The leaders' segments, as kafka-dump-log prints them.
	var logged []rec
	loggedAt := map[string]rec{}
	for p := range int32(partitions) {
		for _, r := range lc.dumpLog(t, topic, p) {
			logged = append(logged, r)
			loggedAt[string(r.Value)] = r
		}
	}

	op(t, name, "partitioner", func(t *testing.T) {
		if len(sent) == 0 {
			t.Fatal("nothing was produced")
		}
		for _, s := range sent {
			at := s.Partition
			if at < 0 {
				at = loggedAt[string(s.Value)].Partition // the client does not say: where the log has it
			}
			if want := rule.fn(s.Key, partitions); at != want {
				t.Errorf("key %s went to partition %d; %s says %d", s.Key, at, rule.name, want)
			}
		}
		t.Logf("%d keyed records where %s puts them", len(sent), rule.name)
	})

	op(t, name, "log agrees", func(t *testing.T) {
		if len(sent) == 0 {
			t.Fatal("nothing was produced")
		}
		var want []rec
		for _, s := range sent {
			l, ok := loggedAt[string(s.Value)]
			if !ok {
				t.Errorf("%s is not in the leaders' logs", s)
				continue
			}
			if s.Partition >= 0 && (s.Partition != l.Partition || s.Offset != l.Offset) {
				t.Errorf("the client was told %d@%d for %s=%s, the log has it at %d@%d", s.Partition, s.Offset, s.Key, s.Value, l.Partition, l.Offset)
			}
			want = append(want, rec{Key: s.Key, Value: s.Value, Partition: l.Partition, Offset: l.Offset})
		}
		if diff := cmp.Diff(sortRecs(want), sortRecs(logged)); diff != "" {
			t.Errorf("kafka-dump-log against what was produced (-want +got):\n%s", diff)
		}
		// offsets from 0 without gaps in each partition
		next := map[int32]int64{}
		for _, l := range sortRecs(logged) {
			require.Equal(t, next[l.Partition], l.Offset, "partition %d's offsets", l.Partition)
			next[l.Partition]++
		}
	})

	op(t, name, "consume plain", func(t *testing.T) {
		got, err := c.consumePlain(ctx, t, topic, partitions, len(logged))
		require.NoError(t, err)
		if diff := cmp.Diff(sortRecs(logged), sortRecs(got)); diff != "" {
			t.Errorf("a plain consumer read (-want the log +got):\n%s", diff)
		}
	})

	ends := map[int32]int64{}
	for _, l := range logged {
		ends[l.Partition] = max(ends[l.Partition], l.Offset+1)
	}
	op(t, name, "consume group", func(t *testing.T) {
		got, err := c.consumeGroup(ctx, t, topic, group, len(logged))
		require.NoError(t, err)
		if diff := cmp.Diff(sortRecs(logged), sortRecs(dedup(got))); diff != "" {
			t.Errorf("a group member read (-want the log +got):\n%s", diff)
		}
	})
	op(t, name, "commit offsets", func(t *testing.T) {
		var got map[int32]int64
		deadline := time.Now().Add(15 * time.Second)
		for {
			got = lc.committed(t, group, topic)
			if cmp.Equal(ends, got) || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if diff := cmp.Diff(ends, got); diff != "" {
			t.Errorf("kafka-consumer-groups --describe's CURRENT-OFFSET against the log's ends (-want +got):\n%s", diff)
		}
	})
	op(t, name, "fetch offsets", func(t *testing.T) {
		got, err := c.committed(ctx, t, group, topic, partitions)
		if errors.Is(err, errUnsupported) {
			notApplicable(t, "%v", err)
			return
		}
		require.NoError(t, err)
		if diff := cmp.Diff(ends, got); diff != "" {
			t.Errorf("the client's committed offsets against the log's ends (-want +got):\n%s", diff)
		}
	})
	op(t, name, "list groups", func(t *testing.T) {
		got, err := c.listGroups(ctx, t)
		if errors.Is(err, errUnsupported) {
			notApplicable(t, "%v", err)
			return
		}
		require.NoError(t, err)
		for _, g := range []string{group, "billing", "search-index"} {
			require.True(t, slices.Contains(got, g), "%s is not among the groups listed: %v", g, got)
		}
	})
	op(t, name, "describe groups", func(t *testing.T) {
		got, err := c.describeGroup(ctx, t, group)
		if errors.Is(err, errUnsupported) {
			notApplicable(t, "%v", err)
			return
		}
		require.NoError(t, err)
		// the member left: the group is Empty, its offsets kept
		want := groupDesc{State: "Empty", ProtocolType: "consumer", Members: 0}
		if got.ProtocolType == "" {
			want.ProtocolType = "" // the client does not say
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s described (-want +got):\n%s", group, diff)
		}
	})
	op(t, name, "auto-create topic", func(t *testing.T) {
		if why, ok := noAutoCreate[name]; ok {
			notApplicable(t, "%s", why)
			return
		}
		auto := topic + "-auto"
		recs := records(rng, name+"-auto", 3)
		got, err := c.produce(ctx, t, auto, "1", recs)
		require.NoError(t, err)
		require.Len(t, got, len(recs))
		// Kafka's num.partitions and default.replication.factor
		lc.world(t, func(w *cluster.World) error {
			parts := w.TopicPartitions(auto)
			require.Len(t, parts, cluster.DefaultNumPartitions)
			require.Len(t, parts[0].Replicas, cluster.DefaultReplicationFactor)
			return nil
		})
		require.Len(t, lc.dumpLog(t, auto, 0), len(recs))
	})

	// The group, Empty since its member left, is deleted with its offsets.
	op(t, name, "delete group", func(t *testing.T) {
		err := c.deleteGroup(ctx, t, group)
		if errors.Is(err, errUnsupported) {
			notApplicable(t, "%v", err)
			return
		}
		require.NoError(t, err)
		var out bytes.Buffer
		_ = lc.term.Exec("kafka-consumer-groups --describe --group "+group, nil, &out)
		require.Contains(t, out.String(), fmt.Sprintf("Consumer group '%s' does not exist.", group), "kafka-consumer-groups after the delete")
		lc.world(t, func(w *cluster.World) error {
			for _, g := range w.Groups() {
				require.NotEqual(t, group, g.Name, "the world still lists the group")
			}
			return nil
		})
	})

	// The topic grows from 3 partitions to 5; a new producer of the client
	// puts each key where its partitioner says for 5: after this, a key's
	// new records may go elsewhere than its old ones.
	op(t, name, "add partitions", func(t *testing.T) {
		const grown = 5
		err := c.addPartitions(ctx, t, topic, grown)
		if errors.Is(err, errUnsupported) {
			notApplicable(t, "%v", err)
			return
		}
		require.NoError(t, err)
		require.Contains(t, lc.exec(t, "kafka-topics --describe --topic "+topic), fmt.Sprintf("PartitionCount: %d\t", grown))
		recs := records(rng, name+"-grown", 20)
		got, err := c.produce(ctx, t, topic, "1", recs)
		require.NoError(t, err)
		at := map[string]int32{}
		for p := range int32(grown) {
			for _, r := range lc.dumpLog(t, topic, p) {
				at[string(r.Value)] = r.Partition
			}
		}
		moved := 0
		for _, g := range got {
			p, ok := at[string(g.Value)]
			require.True(t, ok, "%s is not in the log", g)
			if g.Partition >= 0 {
				require.Equal(t, g.Partition, p, "the client was told another partition for %s", g)
			}
			require.Equal(t, rule.fn(g.Key, grown), p, "key %s with %d partitions", g.Key, grown)
			if rule.fn(g.Key, partitions) != p {
				moved++
			}
		}
		t.Logf("%d of %d keys go elsewhere than with %d partitions", moved, len(got), partitions)
	})

	// A topic of the client's own, created without configs, is given
	// configs with the client's admin API and described back with it
	// (DescribeConfigs), every step's answer checked against the world's
	// own view (World.TopicConfigs): retention.ms and max.message.bytes
	// set; then retention.ms alone set again, after which max.message.bytes
	// keeps its value under IncrementalAlterConfigs and is back to the
	// brokers' under the legacy AlterConfigs, whose configs replace the
	// topic's own; then, incrementally, max.message.bytes deleted and
	// compact appended to cleanup.policy (a LIST config).
	op(t, name, "alter configs", func(t *testing.T) {
		ct := topic + "-configs"
		lc.createTopic(t, ctx, ct, 1)
		againstWorld := func(after string, got map[string]configDesc) {
			t.Helper()
			world := map[string]configDesc{}
			lc.world(t, func(w *cluster.World) error {
				cs, err := w.TopicConfigs(ct)
				for _, c := range cs {
					world[c.Name] = configDesc{Value: c.Value, Source: c.Source}
				}
				return err
			})
			if diff := cmp.Diff(world, got); diff != "" {
				t.Errorf("after %s, the client's DescribeConfigs against the world's configs of %s (-want +got):\n%s", after, ct, diff)
			}
		}
		describe := func(after string) map[string]configDesc {
			t.Helper()
			got, err := c.describeConfigs(ctx, t, ct)
			require.NoError(t, err, "DescribeConfigs after %s", after)
			againstWorld(after, got)
			return got
		}
		alter := func(ops ...cluster.ConfigOp) string {
			t.Helper()
			api, err := c.alterConfigs(ctx, t, ct, ops)
			require.NoError(t, err, "alter %s's configs by %s", ct, cluster.ConfigOpsString(ops))
			return api
		}
		check := func(after string, got map[string]configDesc, want map[string]configDesc) {
			t.Helper()
			picked := map[string]configDesc{}
			for k := range want {
				if d, ok := got[k]; ok {
					picked[k] = d
				}
			}
			if diff := cmp.Diff(want, picked); diff != "" {
				t.Errorf("after %s, %s's configs as the client describes them (-want +got):\n%s", after, ct, diff)
			}
		}
		const dynamic = "DYNAMIC_TOPIC_CONFIG"
		const retention1, retention2, maxBytes = "1209600001", "2419200002", "777777"

		before, err := c.describeConfigs(ctx, t, ct)
		if errors.Is(err, errUnsupported) {
			notApplicable(t, "%v", err)
			return
		}
		require.NoError(t, err)
		againstWorld("the topic's creation", before)
		for _, k := range []string{"cleanup.policy", "max.message.bytes", "retention.ms"} {
			require.Contains(t, before, k, "DescribeConfigs of a new topic")
			require.NotEqual(t, dynamic, before[k].Source, "%s of a topic created without configs", k)
		}
		require.Equal(t, "delete", before["cleanup.policy"].Value, "cleanup.policy of a new topic")

		api := alter(setConfig("retention.ms", retention1), setConfig("max.message.bytes", maxBytes))
		t.Logf("%s alters configs with %s", name, api)
		check("setting retention.ms and max.message.bytes", describe("the first alteration"), map[string]configDesc{
			"retention.ms":      {retention1, dynamic},
			"max.message.bytes": {maxBytes, dynamic},
			"cleanup.policy":    before["cleanup.policy"],
		})

		require.Equal(t, api, alter(setConfig("retention.ms", retention2)), "the request of the second alteration")
		kept := configDesc{maxBytes, dynamic} // IncrementalAlterConfigs: not named, not changed
		if api == legacyAlterConfigs {
			kept = before["max.message.bytes"] // AlterConfigs: left out, back to the brokers' value
		}
		check("setting retention.ms alone with "+api, describe("the second alteration"), map[string]configDesc{
			"retention.ms":      {retention2, dynamic},
			"max.message.bytes": kept,
			"cleanup.policy":    before["cleanup.policy"],
		})
		if api == legacyAlterConfigs {
			return
		}
		require.Equal(t, incrementalAlterConfigs, api)

		compact := "compact"
		alter(cluster.ConfigOp{Name: "max.message.bytes", Op: cluster.ConfigDelete},
			cluster.ConfigOp{Name: "cleanup.policy", Op: cluster.ConfigAppend, Value: &compact})
		check("deleting max.message.bytes and appending compact to cleanup.policy", describe("the third alteration"), map[string]configDesc{
			"retention.ms":      {retention2, dynamic},
			"max.message.bytes": before["max.message.bytes"],
			"cleanup.policy":    {"delete,compact", dynamic}, // appended to LogConfig's default
		})
	})

	lc.world(t, func(w *cluster.World) error {
		require.Empty(t, w.InternalErrors(), "the world's internal errors")
		return nil
	})
}

// noAutoCreate are the clients whose producer does not ask, by default,
// for a topic that does not exist to be created (a Metadata request with
// AllowAutoTopicCreation false), and so fail to produce to one: the others
// find the topic created, as a default Kafka broker creates it.
var noAutoCreate = map[string]string{
	"kgo":      "kgo asks for no topic to be created unless told to (kgo.AllowAutoTopicCreation)",
	"kafka-go": "kafka-go's Writer asks for no topic to be created unless told to (Writer.AllowAutoTopicCreation)",
}

// setConfig is the operation that sets a topic's config name to value.
func setConfig(name, value string) cluster.ConfigOp {
	return cluster.ConfigOp{Name: name, Op: cluster.ConfigSet, Value: &value}
}

// dedup drops records read twice (a group member may read again what it
// read before a rebalance).
func dedup(rs []rec) []rec {
	seen := map[string]bool{}
	var out []rec
	for _, r := range rs {
		k := fmt.Sprintf("%d/%d", r.Partition, r.Offset)
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// TestPartitionRulesDiffer: the partitioner cells can fail: on the keys
// the suite draws, murmur2, CRC-32 and sarama's FNV-1a put some key on
// different partitions of three.
func TestPartitionRulesDiffer(t *testing.T) {
	rules := []partitionRule{murmur2, crc32Rule, saramaFNV}
	for i, a := range rules {
		for _, b := range rules[i+1:] {
			differ := 0
			for k := range 12 {
				key := fmt.Appendf(nil, "key-%d", k)
				if a.fn(key, 3) != b.fn(key, 3) {
					differ++
				}
			}
			if differ == 0 {
				t.Errorf("%s and %s agree on every key: the partitioner check cannot tell them apart", a.name, b.name)
			}
			t.Logf("%s and %s disagree on %d of 12 keys", a.name, b.name, differ)
		}
	}
}
