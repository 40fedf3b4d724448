package topicconfig

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// Own is what a topic sets itself, over the brokers' settings.
type Own struct {
	// Log is the topic's log configuration; nil: the brokers'.
	Log *kafkalog.Config
	// MinInsyncReplicas is its min.insync.replicas; 0: the brokers'.
	MinInsyncReplicas int
	// UncleanLeaderElectionEnable is its unclean.leader.election.enable;
	// nil: the brokers'.
	UncleanLeaderElectionEnable *bool
	// Overrides names the configs set on the topic itself, sorted
	// (DescribeConfigs reports them as DYNAMIC_TOPIC_CONFIG, even where
	// the value equals the brokers').
	Overrides []string
}

// Resolve returns a topic's settings: own's over brokers', as Kafka's
// LogConfig lays a topic's overrides over the broker's defaults.
func Resolve(brokers Settings, own Own) Settings {
	s := brokers
	if own.Log != nil {
		s.Log = *own.Log
	}
	if own.MinInsyncReplicas > 0 {
		s.MinInsyncReplicas = own.MinInsyncReplicas
	}
	if own.UncleanLeaderElectionEnable != nil {
		s.UncleanLeaderElectionEnable = *own.UncleanLeaderElectionEnable
	}
	return s
}

// sets reports whether own sets key k itself (its value is then the
// topic's, not the brokers').
func (own *Own) sets(k *Key, topic, brokers *Settings) bool {
	if slices.Contains(own.Overrides, k.Name) {
		return true
	}
	switch k.owner {
	case ownedByLog:
		return own.Log != nil && k.get(topic) != k.get(brokers)
	case ownedByMinISR:
		return own.MinInsyncReplicas > 0
	case ownedByUnclean:
		return own.UncleanLeaderElectionEnable != nil
	}
	return false
}

// Entry is one topic config as DescribeConfigs reports it.
type Entry struct {
	Key    *Key
	Value  string
	Source kmsg.ConfigSource
	// Kafka4: the brokers run Kafka 4 ([Settings.Kafka4]).
	Kafka4 bool
}

// Entries are a topic's configs as DescribeConfigs reports them, in the
// table's order: DYNAMIC_TOPIC_CONFIG for those the topic sets (own),
// else STATIC_BROKER_CONFIG where the brokers' setting is not Kafka's
// default, else DEFAULT_CONFIG.
func Entries(brokers Settings, own Own) []Entry {
	topic, def := Resolve(brokers, own), brokers.kafkaDefaults()
	out := make([]Entry, len(keys))
	for i := range keys {
		k := &keys[i]
		src := kmsg.ConfigSourceDefaultConfig
		switch {
		case own.sets(k, &topic, &brokers):
			src = kmsg.ConfigSourceDynamicTopicConfig
		case k.get(&brokers) != k.get(&def):
			src = kmsg.ConfigSourceStaticBrokerConfig
		}
		out[i] = Entry{Key: k, Value: k.get(&topic), Source: src, Kafka4: brokers.Kafka4}
	}
	return out
}

// Overrides returns the configs own sets itself, by name, with their
// values as DescribeConfigs prints them (source DYNAMIC_TOPIC_CONFIG).
func Overrides(brokers Settings, own Own) map[string]string {
	out := map[string]string{}
	for _, e := range Entries(brokers, own) {
		if e.Source == kmsg.ConfigSourceDynamicTopicConfig {
			out[e.Key.Name] = e.Value
		}
	}
	return out
}

// SynonymValue is one place a config's value may come from, as DescribeConfigs
// lists them (includeSynonyms, v1+).
type SynonymValue struct {
	// Name is the config's name there (log.retention.ms for a topic's
	// retention.ms), Value its value, Source Kafka's ConfigSource.
	Name, Value string
	Source      kmsg.ConfigSource
}

// Synonyms lists a topic config's synonyms as Kafka 3.7's
// ConfigHelper.createTopicConfigEntry and configSynonyms list them, most
// specific first: the topic's own value (DYNAMIC_TOPIC_CONFIG) if it sets
// one (e); then the brokers' setting under the first broker synonym
// (STATIC_BROKER_CONFIG) where the simulated brokers set it, which
// brokers, the same config of a topic that sets nothing, tells; then each
// broker synonym's default (DEFAULT_CONFIG). Of the brokers' part, as in
// Kafka, nothing before the first synonym is kept: a default of a later
// one alone (log.retention.hours for retention.ms) is not listed. The
// simulated brokers have no dynamic broker configs, so no
// DYNAMIC_BROKER_CONFIG or DYNAMIC_DEFAULT_BROKER_CONFIG synonym comes up.
func Synonyms(e, brokers Entry) []SynonymValue {
	var out []SynonymValue
	if e.Source == kmsg.ConfigSourceDynamicTopicConfig {
		out = append(out, SynonymValue{e.Key.Name, e.Value, e.Source})
	}
	syns := e.Key.Synonyms
	var fromBrokers []SynonymValue
	if brokers.Source == kmsg.ConfigSourceStaticBrokerConfig {
		fromBrokers = append(fromBrokers, SynonymValue{syns[0].Name, brokers.Value, brokers.Source})
	}
	for _, b := range syns {
		def := b.Default
		if e.Kafka4 && b.Kafka4Default != "" {
			def = b.Kafka4Default
		}
		if def != "" {
			fromBrokers = append(fromBrokers, SynonymValue{b.Name, def, kmsg.ConfigSourceDefaultConfig})
		}
	}
	for len(fromBrokers) > 0 && fromBrokers[0].Name != syns[0].Name {
		fromBrokers = fromBrokers[1:]
	}
	return append(out, fromBrokers...)
}

// Column returns the configs kafka-topics --describe prints in its
// Configs column for a topic whose settings are s: those of the table's
// Column keys whose value is not Kafka's default (ConfigEntry.isDefault is
// false for topic overrides and broker settings alike), as name=value,
// the log configs first in alphabetical order, then min.insync.replicas
// and unclean.leader.election.enable (Kafka's order is that of the
// broker's answer). skip names configs the caller prints itself.
func Column(s Settings, skip ...string) []string {
	def := s.kafkaDefaults()
	var out []string
	for _, logFirst := range []bool{true, false} {
		for i := range keys {
			k := &keys[i]
			if !k.Column || (k.owner == ownedByLog) != logFirst || slices.Contains(skip, k.Name) {
				continue
			}
			if v := k.get(&s); v != k.get(&def) {
				out = append(out, k.Name+"="+v)
			}
		}
	}
	return out
}
