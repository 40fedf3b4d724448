package cluster

import (
	"math"
	"strconv"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
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

// topicSynonyms is what DescribeConfigs lists as a topic config's
// synonyms after its own: its broker synonyms in Kafka 3.7's order
// (ServerTopicConfigSynonyms.ALL_TOPIC_CONFIG_SYNONYMS and
// DynamicBrokerConfig.brokerConfigSynonyms), and the brokers' setting of
// it (in the topic config's unit: the first synonym's).
type topicSynonyms struct {
	synonyms []brokerSynonym
	broker   func(Config) string
}

// maxLong is Java's Long.MAX_VALUE, the default of the broker configs
// that are off unless set.
var maxLong = strconv.FormatInt(math.MaxInt64, 10)

// logInt reads a whole-number log setting of the brokers.
func logInt(get func(kafkalog.Config) int64) func(Config) string {
	return func(c Config) string { return strconv.FormatInt(get(c.Log), 10) }
}

// topicConfigSynonyms are the synonyms of each topic config the brokers
// describe ([World.TopicConfigs]).
var topicConfigSynonyms = map[string]topicSynonyms{
	"cleanup.policy":                      {[]brokerSynonym{{"log.cleanup.policy", "delete"}}, func(c Config) string { return c.Log.CleanupPolicy }},
	"compression.type":                    {[]brokerSynonym{{"compression.type", "producer"}}, func(Config) string { return "producer" }},
	"delete.retention.ms":                 {[]brokerSynonym{{"log.cleaner.delete.retention.ms", "86400000"}}, logInt(func(l kafkalog.Config) int64 { return l.DeleteRetentionMs })},
	"file.delete.delay.ms":                {[]brokerSynonym{{"log.segment.delete.delay.ms", "60000"}}, logInt(func(l kafkalog.Config) int64 { return l.FileDeleteDelayMs })},
	"flush.messages":                      {[]brokerSynonym{{"log.flush.interval.messages", maxLong}}, logInt(func(l kafkalog.Config) int64 { return l.FlushIntervalMessages })},
	"index.interval.bytes":                {[]brokerSynonym{{"log.index.interval.bytes", "4096"}}, logInt(func(l kafkalog.Config) int64 { return l.IndexIntervalBytes })},
	"max.compaction.lag.ms":               {[]brokerSynonym{{"log.cleaner.max.compaction.lag.ms", maxLong}}, logInt(func(l kafkalog.Config) int64 { return l.MaxCompactionLagMs })},
	"max.message.bytes":                   {[]brokerSynonym{{"message.max.bytes", "1048588"}}, logInt(func(l kafkalog.Config) int64 { return int64(l.MaxMessageBytes) })},
	"message.timestamp.after.max.ms":      {[]brokerSynonym{{"log.message.timestamp.after.max.ms", maxLong}}, logInt(func(l kafkalog.Config) int64 { return l.MessageTimestampAfterMaxMs })},
	"message.timestamp.before.max.ms":     {[]brokerSynonym{{"log.message.timestamp.before.max.ms", maxLong}}, logInt(func(l kafkalog.Config) int64 { return l.MessageTimestampBeforeMaxMs })},
	"message.timestamp.difference.max.ms": {[]brokerSynonym{{"log.message.timestamp.difference.max.ms", maxLong}}, logInt(func(l kafkalog.Config) int64 { return l.MessageTimestampDifferenceMaxMs })},
	"message.timestamp.type":              {[]brokerSynonym{{"log.message.timestamp.type", "CreateTime"}}, func(c Config) string { return c.Log.MessageTimestampType.String() }},
	"min.cleanable.dirty.ratio":           {[]brokerSynonym{{"log.cleaner.min.cleanable.ratio", "0.5"}}, func(c Config) string { return strconv.FormatFloat(c.Log.MinCleanableDirtyRatio, 'f', -1, 64) }},
	"min.compaction.lag.ms":               {[]brokerSynonym{{"log.cleaner.min.compaction.lag.ms", "0"}}, logInt(func(l kafkalog.Config) int64 { return l.MinCompactionLagMs })},
	"min.insync.replicas":                 {[]brokerSynonym{{"min.insync.replicas", "1"}}, func(c Config) string { return strconv.Itoa(c.MinInsyncReplicas) }},
	"preallocate":                         {[]brokerSynonym{{"log.preallocate", "false"}}, func(c Config) string { return strconv.FormatBool(c.Log.Preallocate) }},
	"retention.bytes":                     {[]brokerSynonym{{"log.retention.bytes", "-1"}}, logInt(func(l kafkalog.Config) int64 { return l.RetentionBytes })},
	"retention.ms":                        {[]brokerSynonym{{"log.retention.ms", ""}, {"log.retention.minutes", ""}, {"log.retention.hours", "168"}}, logInt(func(l kafkalog.Config) int64 { return l.RetentionMs })},
	"segment.bytes":                       {[]brokerSynonym{{"log.segment.bytes", "1073741824"}}, logInt(func(l kafkalog.Config) int64 { return l.SegmentBytes })},
	"segment.index.bytes":                 {[]brokerSynonym{{"log.index.size.max.bytes", "10485760"}}, logInt(func(l kafkalog.Config) int64 { return l.SegmentIndexBytes })},
	"segment.jitter.ms":                   {[]brokerSynonym{{"log.roll.jitter.ms", ""}, {"log.roll.jitter.hours", "0"}}, logInt(func(l kafkalog.Config) int64 { return l.SegmentJitterMs })},
	"segment.ms":                          {[]brokerSynonym{{"log.roll.ms", ""}, {"log.roll.hours", "168"}}, logInt(func(l kafkalog.Config) int64 { return l.SegmentMs })},
	"unclean.leader.election.enable":      {[]brokerSynonym{{"unclean.leader.election.enable", "false"}}, func(c Config) string { return strconv.FormatBool(c.UncleanLeaderElectionEnable) }},
}

// kafkaDefaults are brokers that set nothing: Kafka's own defaults.
var kafkaDefaults = Config{Log: kafkalog.DefaultConfig(), MinInsyncReplicas: replica.DefaultMinInsyncReplicas}

// synonymsOf lists a topic config's synonyms as Kafka 3.7's
// ConfigHelper.createTopicConfigEntry and configSynonyms list them: the
// topic's own value (DYNAMIC_TOPIC_CONFIG) if it sets one; then the
// brokers' first synonym with their value (STATIC_BROKER_CONFIG) where the
// simulated brokers set it, which is where it differs from Kafka's
// default; then each broker synonym's default (DEFAULT_CONFIG). Of the
// brokers' part, as in Kafka, nothing before the first synonym is kept: a
// default of a later one alone (log.retention.hours for retention.ms) is
// not listed. The simulated brokers have no dynamic broker configs, so no
// DYNAMIC_BROKER_CONFIG or DYNAMIC_DEFAULT_BROKER_CONFIG synonym comes
// up. A config the table does not know lists its own value only.
func (w *World) synonymsOf(e configEntry) []ConfigSynonym {
	var out []ConfigSynonym
	if e.source == kmsg.ConfigSourceDynamicTopicConfig {
		out = append(out, ConfigSynonym{e.name, e.value, e.source.String()})
	}
	s, ok := topicConfigSynonyms[e.name]
	if !ok {
		return out
	}
	var fromBrokers []ConfigSynonym
	if v := s.broker(w.cfg); v != s.broker(kafkaDefaults) {
		fromBrokers = append(fromBrokers, ConfigSynonym{s.synonyms[0].name, v, kmsg.ConfigSourceStaticBrokerConfig.String()})
	}
	for _, b := range s.synonyms {
		if b.def != "" {
			fromBrokers = append(fromBrokers, ConfigSynonym{b.name, b.def, kmsg.ConfigSourceDefaultConfig.String()})
		}
	}
	for len(fromBrokers) > 0 && fromBrokers[0].Name != s.synonyms[0].name {
		fromBrokers = fromBrokers[1:]
	}
	return append(out, fromBrokers...)
}
