package cluster

import (
	"math"
	"strconv"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// ConfigSynonym is one place a config's value may come from, as
// DescribeConfigs lists them (includeSynonyms, v1+), most specific first:
// the topic's own config, then the brokers' configs it falls back to.
type ConfigSynonym struct {
	// Name is the config's name there (log.retention.ms for a topic's
	// retention.ms), Value its value, Source Kafka's ConfigSource name
	// (DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG).
	Name, Value, Source string
}

// brokerSynonym is one broker config a topic config falls back to, and
// the default Kafka 3.7's KafkaConfig gives it ("" for none: it is
// null).
type brokerSynonym struct{ name, def string }

// maxLong is Java's Long.MAX_VALUE, the default of the broker configs
// that are off unless set.
var maxLong = strconv.FormatInt(math.MaxInt64, 10)

// topicConfigSynonyms are the broker configs each topic config the
// brokers describe ([World.TopicConfigs]) falls back to, in Kafka 3.7's
// order (ServerTopicConfigSynonyms.ALL_TOPIC_CONFIG_SYNONYMS and
// DynamicBrokerConfig.brokerConfigSynonyms): the first is the one the
// brokers' own setting is listed under, in the topic config's unit.
var topicConfigSynonyms = map[string][]brokerSynonym{
	"cleanup.policy":                      {{"log.cleanup.policy", "delete"}},
	"compression.type":                    {{"compression.type", "producer"}},
	"delete.retention.ms":                 {{"log.cleaner.delete.retention.ms", "86400000"}},
	"file.delete.delay.ms":                {{"log.segment.delete.delay.ms", "60000"}},
	"flush.messages":                      {{"log.flush.interval.messages", maxLong}},
	"index.interval.bytes":                {{"log.index.interval.bytes", "4096"}},
	"max.compaction.lag.ms":               {{"log.cleaner.max.compaction.lag.ms", maxLong}},
	"max.message.bytes":                   {{"message.max.bytes", "1048588"}},
	"message.timestamp.after.max.ms":      {{"log.message.timestamp.after.max.ms", maxLong}},
	"message.timestamp.before.max.ms":     {{"log.message.timestamp.before.max.ms", maxLong}},
	"message.timestamp.difference.max.ms": {{"log.message.timestamp.difference.max.ms", maxLong}},
	"message.timestamp.type":              {{"log.message.timestamp.type", "CreateTime"}},
	"min.cleanable.dirty.ratio":           {{"log.cleaner.min.cleanable.ratio", "0.5"}},
	"min.compaction.lag.ms":               {{"log.cleaner.min.compaction.lag.ms", "0"}},
	"min.insync.replicas":                 {{"min.insync.replicas", "1"}},
	"preallocate":                         {{"log.preallocate", "false"}},
	"retention.bytes":                     {{"log.retention.bytes", "-1"}},
	"retention.ms":                        {{"log.retention.ms", ""}, {"log.retention.minutes", ""}, {"log.retention.hours", "168"}},
	"segment.bytes":                       {{"log.segment.bytes", "1073741824"}},
	"segment.index.bytes":                 {{"log.index.size.max.bytes", "10485760"}},
	"segment.jitter.ms":                   {{"log.roll.jitter.ms", ""}, {"log.roll.jitter.hours", "0"}},
	"segment.ms":                          {{"log.roll.ms", ""}, {"log.roll.hours", "168"}},
	"unclean.leader.election.enable":      {{"unclean.leader.election.enable", "false"}},
}

// synonymsOf lists a topic config's synonyms as Kafka 3.7's
// ConfigHelper.createTopicConfigEntry and configSynonyms list them: the
// topic's own value (DYNAMIC_TOPIC_CONFIG) if it sets one (e); then the
// brokers' setting under the first broker synonym (STATIC_BROKER_CONFIG)
// where the simulated brokers set it, which brokers, the same config of
// a topic that sets nothing, tells; then each broker synonym's default
// (DEFAULT_CONFIG). Of the brokers' part, as in Kafka, nothing before the
// first synonym is kept: a default of a later one alone
// (log.retention.hours for retention.ms) is not listed. The simulated
// brokers have no dynamic broker configs, so no DYNAMIC_BROKER_CONFIG or
// DYNAMIC_DEFAULT_BROKER_CONFIG synonym comes up. A config the table does
// not know lists its own value only.
func synonymsOf(e, brokers configEntry) []ConfigSynonym {
	var out []ConfigSynonym
	if e.source == kmsg.ConfigSourceDynamicTopicConfig {
		out = append(out, ConfigSynonym{e.name, e.value, e.source.String()})
	}
	syns, ok := topicConfigSynonyms[e.name]
	if !ok {
		return out
	}
	var fromBrokers []ConfigSynonym
	if brokers.source == kmsg.ConfigSourceStaticBrokerConfig {
		fromBrokers = append(fromBrokers, ConfigSynonym{syns[0].name, brokers.value, brokers.source.String()})
	}
	for _, b := range syns {
		if b.def != "" {
			fromBrokers = append(fromBrokers, ConfigSynonym{b.name, b.def, kmsg.ConfigSourceDefaultConfig.String()})
		}
	}
	for len(fromBrokers) > 0 && fromBrokers[0].Name != syns[0].name {
		fromBrokers = fromBrokers[1:]
	}
	return append(out, fromBrokers...)
}

// brokersConfigEntries are the configs of a topic named like t that sets
// none of its own: the brokers' settings, each with its source
// (STATIC_BROKER_CONFIG or DEFAULT_CONFIG), in topicConfigEntries' order.
func (w *World) brokersConfigEntries(t *Topic) []configEntry {
	return w.topicConfigEntries(&Topic{Name: t.Name})
}
