package cluster_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// createTopics asks broker 1 to create each topic with one partition on
// replication factor rf and the given configs (name, value pairs), and
// returns each topic's error code and message.
func createTopics(t *testing.T, w *cluster.World, rf int16, topics map[string][]string) map[string]string {
	t.Helper()
	ct := kmsg.NewPtrCreateTopicsRequest()
	ct.SetVersion(5)
	for name, cfg := range topics {
		rt := kmsg.NewCreateTopicsRequestTopic()
		rt.Topic, rt.NumPartitions, rt.ReplicationFactor = name, 1, rf
		for i := 0; i+1 < len(cfg); i += 2 {
			rt.Configs = append(rt.Configs, kmsg.CreateTopicsRequestTopicConfig{Name: cfg[i], Value: kmsg.StringPtr(cfg[i+1])})
		}
		ct.Topics = append(ct.Topics, rt)
	}
	out := map[string]string{}
	for _, rt := range ask[*kmsg.CreateTopicsResponse](t, w, 1, ct, 10).Topics {
		msg := ""
		if rt.ErrorMessage != nil {
			msg = *rt.ErrorMessage
		}
		out[rt.Topic] = fmt.Sprintf("%d %s", rt.ErrorCode, msg)
	}
	return out
}

func produceTo(topic string, acks int16, seq int32) *kmsg.ProduceRequest {
	req := produceReq(acks, clientBatch(seq))
	req.Topics[0].Topic = topic
	return req
}

// TestExternalTopicMinInsyncReplicas: a topic created with
// min.insync.replicas M over the broker's 1 holds acks=all produces to
// M in-sync replicas (NOT_ENOUGH_REPLICAS, 19, below), whatever the broker
// says, for every M and every number of followers stopped; acks=1 is not
// held; a topic without the config follows the broker's 1.
func TestExternalTopicMinInsyncReplicas(t *testing.T) {
	for minISR := 1; minISR <= 3; minISR++ {
		for stopped := 0; stopped <= 2; stopped++ {
			t.Run(fmt.Sprintf("min.insync.replicas=%d,stopped=%d", minISR, stopped), func(t *testing.T) {
				w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: 5, Rules: replica.Modern})
				require.NoError(t, err)
				created := createTopics(t, w, 3, map[string][]string{
					"strict": {"min.insync.replicas", fmt.Sprint(minISR)},
					"loose":  nil,
				})
				require.Equal(t, map[string]string{"strict": "0 ", "loose": "0 "}, created)
				require.NoError(t, w.RunFor(500))
				for i := range stopped {
					require.NoError(t, w.Stop(int32(3-i)))
				}
				require.NoError(t, w.RunFor(15000))
				for _, topic := range []string{"strict", "loose"} {
					p := w.TopicPartitions(topic)[0]
					require.Equal(t, int32(1), p.Leader, topic)
					require.Len(t, p.ISR, 3-stopped, "ISR of %s: %v", topic, p.ISR)
				}
				want := map[string]int16{"strict": 0, "loose": 0, "strict acks=1": 0}
				if 3-stopped < minISR {
					want["strict"] = 19 // NOT_ENOUGH_REPLICAS
				}
				got := map[string]int16{
					"strict":        produced(ask[*kmsg.ProduceResponse](t, w, 1, produceTo("strict", -1, 0), 5000)).Code,
					"loose":         produced(ask[*kmsg.ProduceResponse](t, w, 1, produceTo("loose", -1, 0), 5000)).Code,
					"strict acks=1": produced(ask[*kmsg.ProduceResponse](t, w, 1, produceTo("strict", 1, 3), 5000)).Code,
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("produce error codes (-want +got):\n%s", diff)
				}
				require.Empty(t, w.InternalErrors())
			})
		}
	}
}

// TestExternalTopicUncleanLeaderElection: the controller elects an
// out-of-sync replica of a partition with no in-sync replica alive only
// where the topic's unclean.leader.election.enable, or without it the
// broker's, allows it (ReplicationControlManager asks
// uncleanLeaderElectionEnabledForTopic).
func TestExternalTopicUncleanLeaderElection(t *testing.T) {
	for _, broker := range []bool{false, true} {
		t.Run(fmt.Sprintf("broker=%v", broker), func(t *testing.T) {
			w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: 5, Rules: replica.Modern, UncleanLeaderElectionEnable: broker})
			require.NoError(t, err)
			created := createTopics(t, w, 2, map[string][]string{
				"on":      {"unclean.leader.election.enable", "true"},
				"off":     {"unclean.leader.election.enable", "false"},
				"inherit": nil,
			})
			require.Equal(t, map[string]string{"on": "0 ", "off": "0 ", "inherit": "0 "}, created)
			require.NoError(t, w.RunFor(500))
			// Each partition is on brokers 1 and 2, led by 1: stop the
			// follower, then the leader, then start the follower alone.
			require.NoError(t, w.Stop(2))
			require.NoError(t, w.RunFor(15000))
			require.NoError(t, w.Stop(1))
			require.NoError(t, w.RunFor(15000))
			require.NoError(t, w.Start(2))
			require.NoError(t, w.RunFor(15000))
			got := map[string]int32{}
			for _, topic := range []string{"on", "off", "inherit"} {
				got[topic] = w.TopicPartitions(topic)[0].Leader
			}
			want := map[string]int32{"on": 2, "off": -1, "inherit": -1}
			if broker {
				want["inherit"] = 2
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("leaders (-want +got):\n%s", diff)
			}
			require.Empty(t, w.InternalErrors())
		})
	}
}

// TestExternalDescribeTopicConfigSources: a config the topic was created
// with is DYNAMIC_TOPIC_CONFIG even where it equals the broker's; the
// broker's min.insync.replicas=2 is STATIC_BROKER_CONFIG on a topic
// without its own; Kafka's defaults are DEFAULT_CONFIG.
func TestExternalDescribeTopicConfigSources(t *testing.T) {
	w := extWorld(t)
	created := createTopics(t, w, 3, map[string][]string{
		"own": {"min.insync.replicas", "2", "unclean.leader.election.enable", "false", "segment.ms", "3600000"},
	})
	require.Equal(t, map[string]string{"own": "0 "}, created)
	req := kmsg.NewPtrDescribeConfigsRequest()
	req.SetVersion(4)
	names := []string{"min.insync.replicas", "unclean.leader.election.enable", "segment.ms", "retention.ms"}
	for _, topic := range []string{"own", "t"} {
		r := kmsg.NewDescribeConfigsRequestResource()
		r.ResourceType, r.ResourceName, r.ConfigNames = kmsg.ConfigResourceTypeTopic, topic, names
		req.Resources = append(req.Resources, r)
	}
	type entry struct {
		Name, Value string
		Source      kmsg.ConfigSource
		IsDefault   bool
	}
	got := map[string][]entry{}
	for _, r := range ask[*kmsg.DescribeConfigsResponse](t, w, 2, req, 10).Resources {
		require.Equal(t, int16(0), r.ErrorCode, r.ResourceName)
		for _, c := range r.Configs {
			got[r.ResourceName] = append(got[r.ResourceName], entry{c.Name, *c.Value, c.Source, c.IsDefault})
		}
	}
	dynamic, static, def := kmsg.ConfigSourceDynamicTopicConfig, kmsg.ConfigSourceStaticBrokerConfig, kmsg.ConfigSourceDefaultConfig
	want := map[string][]entry{
		"own": {
			{"min.insync.replicas", "2", dynamic, false},
			{"retention.ms", "604800000", def, true},
			{"segment.ms", "3600000", dynamic, false},
			{"unclean.leader.election.enable", "false", dynamic, false},
		},
		"t": {
			{"min.insync.replicas", "2", static, false},
			{"retention.ms", "604800000", def, true},
			{"segment.ms", "604800000", def, true},
			{"unclean.leader.election.enable", "false", def, true},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("configs (-want +got):\n%s", diff)
	}
}

// TestExternalCreateTopicsConfigErrors: CreateTopics takes LogConfig's
// topic configs and refuses, with INVALID_CONFIG (40) and Kafka 3.7's
// message, an unknown name, a value that is not of the config's type and
// one out of its range; nothing is created, a valid topic in the same
// request is.
func TestExternalCreateTopicsConfigErrors(t *testing.T) {
	w := extWorld(t)
	asks := map[string][]string{
		"ok": {"min.insync.replicas", " 3 ", "retention.ms", "-1", "retention.bytes", "1048576", "segment.bytes", "1048576",
			"cleanup.policy", "compact,delete", "max.message.bytes", "2000000", "min.compaction.lag.ms", "100",
			"delete.retention.ms", "1000", "unclean.leader.election.enable", "TRUE", "message.timestamp.type", "LogAppendTime",
			"compression.type", "producer", "index.interval.bytes", "1024", "min.cleanable.dirty.ratio", "0.1",
			"max.compaction.lag.ms", "100000", "segment.jitter.ms", "0", "file.delete.delay.ms", "0", "flush.messages", "1000",
			"preallocate", "false", "message.timestamp.before.max.ms", "3600000", "message.timestamp.after.max.ms", "0",
			"message.timestamp.difference.max.ms", "9223372036854775807"},
		"unknown":       {"retention.ms", "1000", "not.a.config", "1"},
		"before":        {"message.timestamp.before.max.ms", "-1"},
		"difference":    {"message.timestamp.difference.max.ms", "soon"},
		"minisr-zero":   {"min.insync.replicas", "0"},
		"minisr-word":   {"min.insync.replicas", "two"},
		"minisr-huge":   {"min.insync.replicas", "3000000000"},
		"unclean-yes":   {"unclean.leader.election.enable", "yes"},
		"segment-small": {"segment.bytes", "13"},
		"retention":     {"retention.ms", "-2"},
		"policy":        {"cleanup.policy", "compact,keep"},
		"timestamp":     {"message.timestamp.type", "Now"},
		"ratio":         {"min.cleanable.dirty.ratio", "2"},
		"compression":   {"compression.type", "brotli"},
		"lag":           {"max.compaction.lag.ms", "0"},
	}
	want := map[string]string{
		"ok":            "0 ",
		"unknown":       "40 Unknown topic config name: not.a.config",
		"before":        "40 Invalid value -1 for configuration message.timestamp.before.max.ms: Value must be at least 0",
		"difference":    "40 Invalid value soon for configuration message.timestamp.difference.max.ms: Not a number of type LONG",
		"minisr-zero":   "40 Invalid value 0 for configuration min.insync.replicas: Value must be at least 1",
		"minisr-word":   "40 Invalid value two for configuration min.insync.replicas: Not a number of type INT",
		"minisr-huge":   "40 Invalid value 3000000000 for configuration min.insync.replicas: Not a number of type INT",
		"unclean-yes":   "40 Invalid value yes for configuration unclean.leader.election.enable: Expected value to be either true or false",
		"segment-small": "40 Invalid value 13 for configuration segment.bytes: Value must be at least 14",
		"retention":     "40 Invalid value -2 for configuration retention.ms: Value must be at least -1",
		"policy":        "40 Invalid value keep for configuration cleanup.policy: String must be one of: compact, delete",
		"timestamp":     "40 Invalid value Now for configuration message.timestamp.type: String must be one of: CreateTime, LogAppendTime",
		"ratio":         "40 Invalid value 2.0 for configuration min.cleanable.dirty.ratio: Value must be no more than 1",
		"compression":   "40 Invalid value brotli for configuration compression.type: String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer",
		"lag":           "40 Invalid value 0 for configuration max.compaction.lag.ms: Value must be at least 1",
	}
	if diff := cmp.Diff(want, createTopics(t, w, 3, asks)); diff != "" {
		t.Errorf("CreateTopics answers (-want +got):\n%s", diff)
	}
	var names []string
	for _, tp := range w.Topics() {
		names = append(names, tp.Name)
	}
	require.Equal(t, []string{"ok", "t"}, names)
	require.NoError(t, w.RunFor(1000))
	require.Empty(t, w.InternalErrors())
}

// TestExternalCreateTopicsAnswersConfigs: a created topic's answer (v5+)
// carries its effective configs sorted by name with their sources, also
// for validate_only, which creates nothing; a refused topic's carries
// none.
func TestExternalCreateTopicsAnswersConfigs(t *testing.T) {
	w := extWorld(t)
	for _, validateOnly := range []bool{true, false} {
		ct := kmsg.NewPtrCreateTopicsRequest()
		ct.SetVersion(7)
		ct.ValidateOnly = validateOnly
		for _, minISR := range []string{"3", "0"} {
			rt := kmsg.NewCreateTopicsRequestTopic()
			rt.Topic, rt.NumPartitions, rt.ReplicationFactor = "m"+minISR, 2, 3
			rt.Configs = []kmsg.CreateTopicsRequestTopicConfig{{Name: "min.insync.replicas", Value: kmsg.StringPtr(minISR)}}
			ct.Topics = append(ct.Topics, rt)
		}
		resp := ask[*kmsg.CreateTopicsResponse](t, w, 1, ct, 10)
		type entry struct {
			Name, Value string
			Source      int8
		}
		got := map[string][]entry{}
		var names []string
		for _, rt := range resp.Topics {
			got[rt.Topic] = []entry{}
			for _, c := range rt.Configs {
				names = append(names, c.Name)
				if c.Name == "min.insync.replicas" || c.Name == "retention.ms" {
					got[rt.Topic] = append(got[rt.Topic], entry{c.Name, *c.Value, c.Source})
				}
			}
		}
		want := map[string][]entry{
			"m3": {{"min.insync.replicas", "3", int8(kmsg.ConfigSourceDynamicTopicConfig)}, {"retention.ms", "604800000", int8(kmsg.ConfigSourceDefaultConfig)}},
			"m0": {},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("validate_only %v: configs in the answer (-want +got):\n%s", validateOnly, diff)
		}
		require.IsIncreasing(t, names)
		require.Equal(t, validateOnly, w.TopicPartitions("m3") == nil, "validate_only %v: m3 created", validateOnly)
	}
}
