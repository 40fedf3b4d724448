package cluster_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// alterReq is an IncrementalAlterConfigs request (v1) of one resource per
// entry of resources.
func alterReq(validateOnly bool, resources ...kmsg.IncrementalAlterConfigsRequestResource) *kmsg.IncrementalAlterConfigsRequest {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	req.SetVersion(1)
	req.ValidateOnly, req.Resources = validateOnly, resources
	return req
}

// topicOps is one topic resource: each op is name, operation and value
// (nil: null).
func topicOps(topic string, ops ...cluster.ConfigOp) kmsg.IncrementalAlterConfigsRequestResource {
	r := kmsg.NewIncrementalAlterConfigsRequestResource()
	r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeTopic, topic
	for _, op := range ops {
		c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		c.Name, c.Op, c.Value = op.Name, kmsg.IncrementalAlterConfigOp(op.Op), op.Value
		r.Configs = append(r.Configs, c)
	}
	return r
}

func set(name, value string) cluster.ConfigOp {
	return cluster.ConfigOp{Name: name, Op: cluster.ConfigSet, Value: &value}
}

func op(name string, o cluster.ConfigOpType, value string) cluster.ConfigOp {
	return cluster.ConfigOp{Name: name, Op: o, Value: &value}
}

func alterResults(r *kmsg.IncrementalAlterConfigsResponse) []topicResult {
	var out []topicResult
	for _, rr := range r.Resources {
		msg := ""
		if rr.ErrorMessage != nil {
			msg = *rr.ErrorMessage
		}
		out = append(out, topicResult{rr.ResourceName, rr.ErrorCode, msg})
	}
	return out
}

// ownConfigs returns a topic's configs DescribeConfigs reports as its own
// (DYNAMIC_TOPIC_CONFIG), by name.
func ownConfigs(t *testing.T, w *cluster.World, topic string) map[string]string {
	t.Helper()
	req := kmsg.NewPtrDescribeConfigsRequest()
	req.SetVersion(4)
	r := kmsg.NewDescribeConfigsRequestResource()
	r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeTopic, topic
	req.Resources = append(req.Resources, r)
	resp := ask[*kmsg.DescribeConfigsResponse](t, w, 1, req, 10)
	require.Zero(t, resp.Resources[0].ErrorCode)
	out := map[string]string{}
	for _, c := range resp.Resources[0].Configs {
		if c.Source == kmsg.ConfigSourceDynamicTopicConfig {
			out[c.Name] = *c.Value
		}
	}
	return out
}

// TestExternalIncrementalAlterConfigs: IncrementalAlterConfigs as Kafka
// 3.7 answers it (ConfigAdminManager.preprocess, then
// ConfigurationControlManager.incrementalAlterConfigResource and
// ControllerConfigurationValidator): each refusal with Kafka's code and
// message and nothing changed; validate-only changes nothing; SET,
// DELETE, APPEND and SUBTRACT leave the configs DescribeConfigs reports.
func TestExternalIncrementalAlterConfigs(t *testing.T) {
	w := extWorld(t)
	alter := func(req *kmsg.IncrementalAlterConfigsRequest) []topicResult {
		t.Helper()
		return alterResults(ask[*kmsg.IncrementalAlterConfigsResponse](t, w, 2, req, 10))
	}
	broker := kmsg.NewIncrementalAlterConfigsRequestResource()
	broker.ResourceType, broker.ResourceName = kmsg.ConfigResourceTypeBroker, "2"
	unknownType := kmsg.NewIncrementalAlterConfigsRequestResource()
	unknownType.ResourceType, unknownType.ResourceName = 3, "t"
	for _, c := range []struct {
		name string
		req  *kmsg.IncrementalAlterConfigsRequest
		want []topicResult
	}{
		{"resource twice", alterReq(false, topicOps("t", set("retention.ms", "1")), topicOps("t", set("retention.ms", "2"))),
			[]topicResult{{"t", 42, "Each resource must appear at most once."}, {"t", 42, "Each resource must appear at most once."}}},
		{"key twice", alterReq(false, topicOps("t", set("retention.ms", "1"), set("retention.ms", "2"))),
			[]topicResult{{"t", 42, "Error due to duplicate config keys"}}},
		{"null value", alterReq(false, topicOps("t", cluster.ConfigOp{Name: "retention.ms", Op: cluster.ConfigSet}, cluster.ConfigOp{Name: "segment.ms", Op: cluster.ConfigAppend})),
			[]topicResult{{"t", 42, "Null value not supported for : retention.ms, segment.ms"}}},
		{"unknown operation", alterReq(false, topicOps("t", op("retention.ms", 7, "1"))),
			[]topicResult{{"t", 42, "Unknown operations type 7"}}},
		{"default topic", alterReq(false, topicOps("", set("retention.ms", "1"))),
			[]topicResult{{"", 42, "Default topic resources are not allowed."}}},
		{"illegal name", alterReq(false, topicOps("a/b", set("retention.ms", "1"))),
			[]topicResult{{"a/b", 17, "Topic name is invalid: 'a/b' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"}}},
		{"append to a number", alterReq(false, topicOps("t", op("retention.ms", cluster.ConfigAppend, "1"))),
			[]topicResult{{"t", 40, "Can't APPEND to key retention.ms because its type is not LIST."}}},
		{"unknown config", alterReq(false, topicOps("t", set("retention.mss", "1"))),
			[]topicResult{{"t", 40, "Unknown topic config name: retention.mss"}}},
		{"bad value, with a good one", alterReq(false, topicOps("t", set("segment.ms", "100"), set("retention.ms", "-2"))),
			[]topicResult{{"t", 40, "Invalid value -2 for configuration retention.ms: Value must be at least -1"}}},
		{"policy list", alterReq(false, topicOps("t", set("cleanup.policy", "compact,forever"))),
			[]topicResult{{"t", 40, "Invalid value forever for configuration cleanup.policy: String must be one of: compact, delete"}}},
		{"unknown topic", alterReq(false, topicOps("nope", set("retention.ms", "1"))),
			[]topicResult{{"nope", 3, "The topic 'nope' does not exist."}}},
		{"a broker", alterReq(false, broker),
			[]topicResult{{"2", 44, "the simulated brokers' own configs are static: alter a topic's configs instead (kafka-configs --entity-type topics)"}}},
		{"unknown resource type", alterReq(false, unknownType),
			[]topicResult{{"t", 42, "Unknown resource type 3"}}},
	} {
		require.Equal(t, c.want, alter(c.req), c.name)
		require.Empty(t, ownConfigs(t, w, "t"), "%s: nothing changed", c.name)
	}
	// the offsets topic, made by a group's first FindCoordinator
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.CoordinatorKey = "g"
	ask[*kmsg.FindCoordinatorResponse](t, w, 1, fc, 10)
	require.NoError(t, w.RunFor(1000))
	require.Equal(t, []topicResult{{"__consumer_offsets", 44, "the configs of __consumer_offsets are not altered in the simulated cluster: its group coordinators read committed offsets from its log, which compaction and retention must keep as they are"}},
		alter(alterReq(false, topicOps("__consumer_offsets", set("retention.ms", "1")))))
	require.Equal(t, []topicResult{{"t", 0, ""}}, alter(alterReq(true, topicOps("t", set("retention.ms", "1000")))))
	require.Empty(t, ownConfigs(t, w, "t"), "validate-only changes nothing")

	require.Equal(t, []topicResult{{"t", 0, ""}}, alter(alterReq(false, topicOps("t", set("retention.ms", "60000"), set("min.insync.replicas", "3"), op("cleanup.policy", cluster.ConfigAppend, "compact")))))
	require.Equal(t, map[string]string{"retention.ms": "60000", "min.insync.replicas": "3", "cleanup.policy": "delete,compact"}, ownConfigs(t, w, "t"))
	require.Equal(t, []topicResult{{"t", 0, ""}}, alter(alterReq(false, topicOps("t", op("cleanup.policy", cluster.ConfigSubtract, "delete"), cluster.ConfigOp{Name: "min.insync.replicas", Op: cluster.ConfigDelete}, cluster.ConfigOp{Name: "segment.ms", Op: cluster.ConfigDelete}))))
	require.Equal(t, map[string]string{"retention.ms": "60000", "cleanup.policy": "compact"}, ownConfigs(t, w, "t"), "a key deleted that was not set is no error")
	require.Contains(t, lastEvents(w, 5), "topic t: configs altered by client 1 (test); its own configs now: cleanup.policy=compact,retention.ms=60000")
}

// TestExternalAlterConfigsReplaces: the legacy AlterConfigs replaces a
// topic's configs: one it leaves out goes back to the broker's.
func TestExternalAlterConfigsReplaces(t *testing.T) {
	w := extWorld(t)
	legacy := func(configs ...[2]string) []topicResult {
		t.Helper()
		req := kmsg.NewPtrAlterConfigsRequest()
		req.SetVersion(2)
		r := kmsg.NewAlterConfigsRequestResource()
		r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeTopic, "t"
		for _, c := range configs {
			rc := kmsg.NewAlterConfigsRequestResourceConfig()
			rc.Name, rc.Value = c[0], kmsg.StringPtr(c[1])
			r.Configs = append(r.Configs, rc)
		}
		req.Resources = append(req.Resources, r)
		var out []topicResult
		for _, rr := range ask[*kmsg.AlterConfigsResponse](t, w, 3, req, 10).Resources {
			msg := ""
			if rr.ErrorMessage != nil {
				msg = *rr.ErrorMessage
			}
			out = append(out, topicResult{rr.ResourceName, rr.ErrorCode, msg})
		}
		return out
	}
	require.Equal(t, []topicResult{{"t", 0, ""}}, legacy([2]string{"retention.bytes", "1000000"}, [2]string{"segment.bytes", "100000"}))
	require.Equal(t, map[string]string{"retention.bytes": "1000000", "segment.bytes": "100000"}, ownConfigs(t, w, "t"))
	require.Equal(t, []topicResult{{"t", 0, ""}}, legacy([2]string{"retention.ms", "5000"}))
	require.Equal(t, map[string]string{"retention.ms": "5000"}, ownConfigs(t, w, "t"))
	require.Equal(t, []topicResult{{"t", 40, "Unknown topic config name: retention"}}, legacy([2]string{"retention", "5000"}))
	require.Equal(t, map[string]string{"retention.ms": "5000"}, ownConfigs(t, w, "t"))
}

// TestAlteredConfigsApplyAtOnce: a topic's configs altered apply to its
// replicas while they run, and to a replica whose broker was down when it
// starts: a lower retention.bytes deletes segments, min.insync.replicas 3
// refuses acks=all while a replica is out of the ISR.
func TestAlteredConfigsApplyAtOnce(t *testing.T) {
	w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: 3, MinInsyncReplicas: 2, Rules: replica.Modern, LogRetentionCheckIntervalMs: 1000})
	require.NoError(t, err)
	cfg := w.Config().Log
	cfg.SegmentBytes = 200
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}, Config: &cfg}))
	require.NoError(t, w.RunFor(500))
	for seq := range int32(10) {
		resp := ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, plainBatch("value value value")), 2000)
		require.Zero(t, resp.Topics[0].Partitions[0].ErrorCode, "batch %d", seq)
	}
	require.NoError(t, w.RunFor(2000))
	require.Zero(t, partitionState(w, "t").LogStartOffset)

	require.NoError(t, w.Stop(3))
	require.NoError(t, w.RunFor(500))
	a, err := w.AlterTopicConfigs("t", []cluster.ConfigOp{set("retention.bytes", "1"), set("min.insync.replicas", "3")}, false)
	require.NoError(t, err)
	require.Equal(t, "alter-configs t min.insync.replicas=3,retention.bytes=1,segment.bytes=200", a.String())
	require.NoError(t, w.Do(a))
	require.NoError(t, w.RunFor(30000)) // broker 3 leaves the ISR; retention runs
	pi := partitionState(w, "t")
	require.Equal(t, []int32{1, 2}, pi.ISR)
	require.Positive(t, pi.LogStartOffset, "retention.bytes=1 deletes all but the active segment")
	resp := ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, plainBatch("value value value")), 2000)
	require.Equal(t, int16(19), resp.Topics[0].Partitions[0].ErrorCode, "NOT_ENOUGH_REPLICAS under min.insync.replicas 3")

	require.NoError(t, w.Start(3))
	require.NoError(t, w.RunFor(30000))
	pi = partitionState(w, "t")
	require.Equal(t, []int32{1, 2, 3}, pi.ISR)
	for _, l := range pi.Logs {
		require.Equal(t, pi.LogEndOffset, l.LogEndOffset, "broker %d", l.Broker)
	}
	resp = ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, plainBatch("value value value")), 2000)
	require.Zero(t, resp.Topics[0].Partitions[0].ErrorCode, "all three in the ISR")
	require.Empty(t, w.Violations())
}

// partitionState is partition 0 of topic in the world's state.
func partitionState(w *cluster.World, topic string) cluster.PartitionInfo {
	for _, p := range w.State().Partitions {
		if p.Topic == topic && p.Partition == 0 {
			return p
		}
	}
	return cluster.PartitionInfo{}
}

// plainBatch is a batch of three uncompressed records of no producer,
// without keys.
func plainBatch(value string) []byte {
	var b kafkalog.RecordBatch
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
	for i := range 3 {
		b.AppendRecord(int64(i), 1_700_000_000_000, nil, []byte(value))
	}
	return b.AppendTo(nil)
}

// lastEvents returns the texts of the world's latest n events.
func lastEvents(w *cluster.World, n int) []string {
	ev := w.Events()
	var out []string
	for _, e := range ev[max(len(ev)-n, 0):] {
		out = append(out, e.Text)
	}
	return out
}

// TestFollowerRetriesRecordsLargerThanSegment: segment.bytes lowered below
// a batch the leader took while a follower was down: the follower cannot
// append it (RecordBatchTooLargeException), says so once, stays out of the
// ISR and retries; with segment.bytes raised again it catches up.
func TestFollowerRetriesRecordsLargerThanSegment(t *testing.T) {
	w := extWorld(t)
	require.NoError(t, w.Stop(3))
	require.NoError(t, w.RunFor(30000))
	big := plainBatch(string(make([]byte, 1500)))
	resp := ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, big), 2000)
	require.Zero(t, resp.Topics[0].Partitions[0].ErrorCode)
	a, err := w.AlterTopicConfigs("t", []cluster.ConfigOp{set("segment.bytes", "1024")}, false)
	require.NoError(t, err)
	require.NoError(t, w.Do(a))
	resp = ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, big), 2000)
	require.Equal(t, int16(18), resp.Topics[0].Partitions[0].ErrorCode, "RECORD_LIST_TOO_LARGE at the leader")

	require.NoError(t, w.Start(3))
	require.NoError(t, w.RunFor(30000))
	pi := partitionState(w, "t")
	require.Equal(t, []int32{1, 2}, pi.ISR)
	refused := 0
	for _, e := range w.Events() {
		if e.Broker == 3 && strings.Contains(e.Text, "larger than segment.bytes (RecordBatchTooLargeException)") {
			refused++
		}
	}
	require.Equal(t, 1, refused, "said once")

	a, err = w.AlterTopicConfigs("t", []cluster.ConfigOp{{Name: "segment.bytes", Op: cluster.ConfigDelete}}, false)
	require.NoError(t, err)
	require.NoError(t, w.Do(a))
	require.NoError(t, w.RunFor(30000))
	pi = partitionState(w, "t")
	require.Equal(t, []int32{1, 2, 3}, pi.ISR)
	for _, l := range pi.Logs {
		require.Equal(t, pi.LogEndOffset, l.LogEndOffset, "broker %d", l.Broker)
	}
	require.Empty(t, w.InternalErrors())
	require.Empty(t, w.Violations())
}

// TestTopicConfigSynonyms checks the synonyms of every config of every
// topic against the config's own account, in the page's world and in one
// whose brokers set more: a config the topic sets has its own value
// first; one it does not has the brokers' value, its source is the first
// synonym's (DEFAULT_CONFIG without any), and that synonym's value is the
// config's, as Kafka 3.7's ConfigHelper.createTopicConfigEntry makes
// them. The brokers' part starts with the first broker synonym, as in
// Kafka: log.retention.hours' default alone is left out.
func TestTopicConfigSynonyms(t *testing.T) {
	cfg := defaultworld.Config(1)
	cfg.Log.SegmentMs = 3_600_000
	cfg.Log.RetentionMs = kafkalog.DefaultConfig().RetentionMs
	cfg.Log.MinCleanableDirtyRatio = 0.25
	cfg.Log.MaxMessageBytes = 2_000_000
	cfg.Log.MessageTimestampType = kafkalog.LogAppendTime
	cfg.UncleanLeaderElectionEnable = true
	cfg.MinInsyncReplicas = 1
	busy, err := defaultworld.NewWith(cfg)
	require.NoError(t, err)
	plain, err := defaultworld.New(1)
	require.NoError(t, err)
	a, err := plain.AlterTopicConfigs("orders", []cluster.ConfigOp{set("retention.ms", "60000")}, false)
	require.NoError(t, err)
	require.NoError(t, plain.Do(a))
	for name, w := range map[string]*cluster.World{"page": plain, "busy brokers": busy} {
		for _, tp := range w.Topics() {
			configs, err := w.TopicConfigs(tp.Name)
			require.NoError(t, err)
			for _, e := range configs {
				syn := e.Synonyms
				if e.Source == "DYNAMIC_TOPIC_CONFIG" {
					require.NotEmpty(t, syn, "%s world, %s: %s", name, tp.Name, e.Name)
					require.Equal(t, cluster.ConfigSynonym{Name: e.Name, Value: e.Value, Source: e.Source}, syn[0], "%s world, %s: the topic's own value first", name, tp.Name)
					continue
				}
				source, value := "DEFAULT_CONFIG", e.Value
				if len(syn) > 0 {
					source, value = syn[0].Source, syn[0].Value
				}
				require.Equal(t, [2]string{e.Source, e.Value}, [2]string{source, value}, "%s world, %s: %s's synonyms %v", name, tp.Name, e.Name, syn)
			}
		}
	}
	synonyms := func(w *cluster.World, config string) []cluster.ConfigSynonym {
		configs, err := w.TopicConfigs("orders")
		require.NoError(t, err)
		for _, e := range configs {
			if e.Name == config {
				return e.Synonyms
			}
		}
		t.Fatalf("no config %s", config)
		return nil
	}
	require.Nil(t, synonyms(busy, "retention.ms"))
	require.Equal(t, []cluster.ConfigSynonym{{Name: "retention.ms", Value: "60000", Source: "DYNAMIC_TOPIC_CONFIG"},
		{Name: "log.retention.ms", Value: "300000", Source: "STATIC_BROKER_CONFIG"}, {Name: "log.retention.hours", Value: "168", Source: "DEFAULT_CONFIG"}},
		synonyms(plain, "retention.ms"), "the page's brokers keep 5 minutes")
	require.Equal(t, []cluster.ConfigSynonym{{Name: "log.roll.ms", Value: "3600000", Source: "STATIC_BROKER_CONFIG"}, {Name: "log.roll.hours", Value: "168", Source: "DEFAULT_CONFIG"}}, synonyms(busy, "segment.ms"))
	require.Equal(t, []cluster.ConfigSynonym{{Name: "min.insync.replicas", Value: "1", Source: "DEFAULT_CONFIG"}}, synonyms(busy, "min.insync.replicas"))
	require.Equal(t, []cluster.ConfigSynonym{{Name: "unclean.leader.election.enable", Value: "true", Source: "STATIC_BROKER_CONFIG"}, {Name: "unclean.leader.election.enable", Value: "false", Source: "DEFAULT_CONFIG"}}, synonyms(busy, "unclean.leader.election.enable"))
}

// TestDescribeConfigsSynonyms: DescribeConfigs (v1+) lists the synonyms
// when asked to (includeSynonyms), not otherwise; a topic it does not
// have is UNKNOWN_TOPIC_OR_PARTITION without a message, and a name Kafka
// refuses INVALID_TOPIC_EXCEPTION with Topic.validate's (Kafka 3.7's
// ConfigHelper.describeConfigs).
func TestDescribeConfigsSynonyms(t *testing.T) {
	w := extWorld(t)
	a, err := w.AlterTopicConfigs("t", []cluster.ConfigOp{set("retention.ms", "60000")}, false)
	require.NoError(t, err)
	require.NoError(t, w.Do(a))
	describe := func(synonyms bool, topic string) kmsg.DescribeConfigsResponseResource {
		req := kmsg.NewPtrDescribeConfigsRequest()
		req.SetVersion(4)
		req.IncludeSynonyms = synonyms
		r := kmsg.NewDescribeConfigsRequestResource()
		r.ResourceType, r.ResourceName, r.ConfigNames = kmsg.ConfigResourceTypeTopic, topic, []string{"retention.ms"}
		req.Resources = append(req.Resources, r)
		return ask[*kmsg.DescribeConfigsResponse](t, w, 1, req, 10).Resources[0]
	}
	got := describe(true, "t")
	require.Len(t, got.Configs, 1)
	var syn []string
	for _, s := range got.Configs[0].ConfigSynonyms {
		syn = append(syn, fmt.Sprintf("%s:%s=%s", s.Source, s.Name, *s.Value))
	}
	require.Equal(t, []string{"DYNAMIC_TOPIC_CONFIG:retention.ms=60000"}, syn)
	require.Empty(t, describe(false, "t").Configs[0].ConfigSynonyms)
	nope := describe(true, "nope")
	require.Equal(t, int16(3), nope.ErrorCode)
	require.Nil(t, nope.ErrorMessage)
	bad := describe(true, "a b")
	require.Equal(t, int16(17), bad.ErrorCode)
	require.Equal(t, "Topic name is invalid: 'a b' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'", *bad.ErrorMessage)
}
