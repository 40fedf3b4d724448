package cluster

import "github.com/kafkalive/kafkalive/cluster/internal/topicconfig"

// ConfigSynonym is one place a config's value may come from, as
// DescribeConfigs lists them (includeSynonyms, v1+), most specific first:
// the topic's own config, then the brokers' configs it falls back to.
type ConfigSynonym struct {
	// Name is the config's name there (log.retention.ms for a topic's
	// retention.ms), Value its value, Source Kafka's ConfigSource name
	// (DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG).
	Name, Value, Source string
}

// synonymsOf lists a topic config's synonyms (topicconfig.Synonyms):
// e is the topic's, brokers the same config of a topic that sets nothing.
func synonymsOf(e, brokers configEntry) []ConfigSynonym {
	var out []ConfigSynonym
	for _, s := range topicconfig.Synonyms(e.topic, brokers.topic) {
		out = append(out, ConfigSynonym{s.Name, s.Value, s.Source.String()})
	}
	return out
}

// brokersConfigEntries are the configs of a topic named like t that sets
// none of its own: the brokers' settings, each with its source
// (STATIC_BROKER_CONFIG or DEFAULT_CONFIG), in topicConfigEntries' order.
func (w *World) brokersConfigEntries(t *Topic) []configEntry {
	return w.topicConfigEntries(topicconfig.Own{})
}
