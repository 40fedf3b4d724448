package broker

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/group"
)

// describeConfigs answers DescribeConfigs for topics (resource type 2)
// and brokers (4) with the configs the simulation models: a topic's
// configs (source DYNAMIC_TOPIC_CONFIG when the topic sets them, else
// DEFAULT_CONFIG or, for the brokers' own settings, STATIC_BROKER_CONFIG,
// with their synonyms when asked) and the broker's own settings. Enough
// for kcat and the Java tools (kafka-configs --describe).
func (b *Broker) describeConfigs(env Env, x *Request, req *kmsg.DescribeConfigsRequest) *kmsg.DescribeConfigsResponse {
	resp := kmsg.NewPtrDescribeConfigsResponse()
	for _, r := range req.Resources {
		rr := kmsg.NewDescribeConfigsResponseResource()
		rr.ResourceType, rr.ResourceName = r.ResourceType, r.ResourceName
		var entries, brokers []configEntry // brokers: a topic's configs as the brokers set them
		switch r.ResourceType {
		case kmsg.ConfigResourceTypeTopic:
			// Kafka 3.7's ConfigHelper.describeConfigs: the name is
			// checked (Topic.validate), an unknown topic answered
			// without a message
			if err := metadata.CheckTopicName(r.ResourceName); err != nil {
				rr.ErrorCode = kafkaerr.InvalidTopicException
				msg := err.Error()
				rr.ErrorMessage = &msg
				break
			}
			t := topicNamed(env, r.ResourceName)
			if t == nil {
				rr.ErrorCode = kafkaerr.UnknownTopicOrPartition
				break
			}
			entries, brokers = b.topicConfigEntries(t.Own()), b.topicConfigEntries(topicconfig.Own{})
		case kmsg.ConfigResourceTypeBroker:
			if id, err := strconv.Atoi(r.ResourceName); r.ResourceName != "" && (err != nil || int32(id) != x.Broker) {
				rr.ErrorCode = kafkaerr.InvalidRequest
				msg := "Unexpected broker id, expected " + strconv.Itoa(int(x.Broker)) + " or empty string, but received " + r.ResourceName
				rr.ErrorMessage = &msg
				break
			}
			entries = b.brokerConfigEntries()
		default:
			rr.ErrorCode = kafkaerr.InvalidRequest
			msg := fmt.Sprintf("Unsupported resource type %d", r.ResourceType)
			rr.ErrorMessage = &msg
		}
		for i, e := range entries {
			if r.ConfigNames != nil && !slices.Contains(r.ConfigNames, e.name) {
				continue
			}
			c := kmsg.NewDescribeConfigsResponseResourceConfig()
			v := e.value
			c.Name, c.Value, c.IsDefault, c.Source, c.ConfigType, c.ReadOnly = e.name, &v, e.source == kmsg.ConfigSourceDefaultConfig, e.source, e.typ, r.ResourceType == kmsg.ConfigResourceTypeBroker
			if req.IncludeSynonyms && r.ResourceType == kmsg.ConfigResourceTypeTopic {
				for _, syn := range topicconfig.Synonyms(e.topic, brokers[i].topic) {
					cs := kmsg.NewDescribeConfigsResponseResourceConfigConfigSynonym()
					cs.Name, cs.Value, cs.Source = syn.Name, kmsg.StringPtr(syn.Value), syn.Source
					c.ConfigSynonyms = append(c.ConfigSynonyms, cs)
				}
			}
			rr.Configs = append(rr.Configs, c)
		}
		resp.Resources = append(resp.Resources, rr)
	}
	return resp
}

// configEntry is one config as DescribeConfigs reports it: a broker's, or
// a topic's (topic then holds it as the table gives it).
type configEntry struct {
	name, value string
	source      kmsg.ConfigSource
	typ         kmsg.ConfigType
	topic       topicconfig.Entry
}

// topicConfigEntries are the configs of a topic that sets own as
// DescribeConfigs reports them (topicconfig.Entries), over the brokers'.
func (b *Broker) topicConfigEntries(own topicconfig.Own) []configEntry {
	es := topicconfig.Entries(b.cfg.TopicDefaults, own)
	out := make([]configEntry, len(es))
	for i, e := range es {
		out[i] = configEntry{name: e.Key.Name, value: e.Value, source: e.Source, typ: e.Key.Type, topic: e}
	}
	return out
}

// brokerConfigEntries are the broker's own configs the simulation models,
// sorted by name (broker.rack and replica.selector.class only when set).
func (b *Broker) brokerConfigEntries() []configEntry {
	static := kmsg.ConfigSourceStaticBrokerConfig
	autoCreateSource := kmsg.ConfigSourceDefaultConfig
	if !b.cfg.AutoCreateTopicsEnable {
		autoCreateSource = static
	}
	fetchMaxSource := kmsg.ConfigSourceDefaultConfig
	if b.cfg.FetchMaxBytes != DefaultFetchMaxBytes {
		fetchMaxSource = static
	}
	roles := "broker"
	if b.cfg.CombinedControllers {
		roles = "broker,controller"
	}
	d := b.cfg.TopicDefaults
	l := d.Log
	es := []configEntry{
		brokerEntry("auto.create.topics.enable", strconv.FormatBool(b.cfg.AutoCreateTopicsEnable), autoCreateSource, kmsg.ConfigTypeBoolean),
		brokerEntry("broker.id", strconv.Itoa(int(b.id)), static, kmsg.ConfigTypeInt),
		brokerEntry("default.replication.factor", strconv.Itoa(metadata.DefaultReplicationFactor), kmsg.ConfigSourceDefaultConfig, kmsg.ConfigTypeInt),
		brokerEntry("fetch.max.bytes", strconv.FormatInt(b.cfg.FetchMaxBytes, 10), fetchMaxSource, kmsg.ConfigTypeInt),
		brokerEntry("log.cleanup.policy", l.CleanupPolicy, static, kmsg.ConfigTypeList),
		brokerEntry("log.dirs", LogDir, static, kmsg.ConfigTypeString),
		brokerEntry("log.retention.bytes", strconv.FormatInt(l.RetentionBytes, 10), static, kmsg.ConfigTypeLong),
		brokerEntry("log.retention.ms", strconv.FormatInt(l.RetentionMs, 10), static, kmsg.ConfigTypeLong),
		brokerEntry("log.segment.bytes", strconv.FormatInt(l.SegmentBytes, 10), static, kmsg.ConfigTypeInt),
		brokerEntry("min.insync.replicas", strconv.Itoa(d.MinInsyncReplicas), static, kmsg.ConfigTypeInt),
		brokerEntry("num.partitions", strconv.Itoa(metadata.DefaultNumPartitions), kmsg.ConfigSourceDefaultConfig, kmsg.ConfigTypeInt),
		brokerEntry("offsets.retention.check.interval.ms", strconv.FormatInt(b.cfg.OffsetsRetentionCheckIntervalMs, 10),
			sourceUnless(b.cfg.OffsetsRetentionCheckIntervalMs == group.DefaultOffsetsRetentionCheckIntervalMs), kmsg.ConfigTypeLong),
		brokerEntry("offsets.retention.minutes", strconv.Itoa(b.cfg.OffsetsRetentionMinutes),
			sourceUnless(b.cfg.OffsetsRetentionMinutes == group.DefaultOffsetsRetentionMinutes), kmsg.ConfigTypeInt),
		brokerEntry("offsets.topic.num.partitions", strconv.Itoa(b.cfg.OffsetsTopicNumPartitions), static, kmsg.ConfigTypeInt),
		brokerEntry("process.roles", roles, static, kmsg.ConfigTypeList),
		brokerEntry("replica.lag.time.max.ms", strconv.FormatInt(b.cfg.ReplicaLagTimeMaxMs, 10), static, kmsg.ConfigTypeLong),
		brokerEntry("unclean.leader.election.enable", strconv.FormatBool(d.UncleanLeaderElectionEnable), static, kmsg.ConfigTypeBoolean),
	}
	if r := b.rackOf(b.id); r != nil {
		es = append(es, brokerEntry("broker.rack", *r, static, kmsg.ConfigTypeString))
	}
	if c := b.cfg.ReplicaSelectorClass; c != "" {
		es = append(es, brokerEntry("replica.selector.class", c, static, kmsg.ConfigTypeClass))
	}
	slices.SortFunc(es, func(x, y configEntry) int { return strings.Compare(x.name, y.name) })
	return es
}

// sourceUnless is the source of a broker config that is Kafka's default
// when isDefault, else set in the broker's file (static).
func sourceUnless(isDefault bool) kmsg.ConfigSource {
	if isDefault {
		return kmsg.ConfigSourceDefaultConfig
	}
	return kmsg.ConfigSourceStaticBrokerConfig
}

// brokerEntry is one of a broker's configs.
func brokerEntry(name, value string, source kmsg.ConfigSource, typ kmsg.ConfigType) configEntry {
	return configEntry{name: name, value: value, source: source, typ: typ}
}
