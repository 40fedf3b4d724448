package cluster

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
)

// A topic's configs, as DescribeConfigs reports them and as the terminal's
// kafka-configs --alter and the world's alter-configs action alter them
// while the world runs. The checks are the controller's, as a client's
// IncrementalAlterConfigs and AlterConfigs meet them (the brokers serve
// those: cluster/internal/broker's api_alterconfigs.go); the brokers apply
// the new configs at once (UnifiedLog.updateConfig).

// ConfigOpType is an IncrementalAlterConfigs operation
// (AlterConfigOp.OpType).
type ConfigOpType = topicconfig.OpType

// The operations.
const (
	ConfigSet      = topicconfig.OpSet
	ConfigDelete   = topicconfig.OpDelete
	ConfigAppend   = topicconfig.OpAppend
	ConfigSubtract = topicconfig.OpSubtract
)

// ConfigOp is one change to a topic's configs: set Name to Value, delete
// it (back to the broker's value), or append values to or subtract them
// from a list (cleanup.policy). Its String prints the change: name=value
// for a SET, "delete name", name+=value for an APPEND, name-=value for a
// SUBTRACT (a null value as null).
type ConfigOp = topicconfig.Op

// ConfigOpsString prints changes, separated by commas.
func ConfigOpsString(ops []ConfigOp) string { return topicconfig.OpsString(ops) }

// AlterTopicConfigs returns the action that alters topic's configs by ops
// (incremental; with replace, ops are SETs that become the topic's only
// configs, as the legacy AlterConfigs replaces them), checked as Kafka
// 3.7's broker and controller check them; a refusal is a
// [*ConfigRefusal] carrying Kafka's code and message, or
// [ErrUnknownTopicOrPartition] for a topic the world does not have.
func (w *World) AlterTopicConfigs(topic string, ops []ConfigOp, replace bool) (Action, error) {
	spec, code, msg := w.ctl.CheckAlterConfigs(topic, ops, replace)
	switch code {
	case 0:
		return Action{Kind: ActAlterConfigs, Name: topic, Topic: spec, Value: w.ctl.OwnConfigs(spec.Own())}, nil
	case kafkaerr.UnknownTopicOrPartition:
		return Action{}, fmt.Errorf("%w: %s", ErrUnknownTopicOrPartition, msg)
	}
	return Action{}, &ConfigRefusal{Code: code, Message: msg}
}

// ConfigRefusal is a refused alteration of a topic's configs: Kafka's
// error code (INVALID_CONFIG, INVALID_REQUEST, INVALID_TOPIC_EXCEPTION,
// POLICY_VIOLATION) and message. It is an [ErrInvalidConfig].
type ConfigRefusal struct {
	Code    int16
	Message string
}

func (e *ConfigRefusal) Error() string        { return e.Message }
func (e *ConfigRefusal) Is(target error) bool { return target == ErrInvalidConfig }

// ErrorName is the code's name in Kafka's Errors (INVALID_CONFIG...).
func (e *ConfigRefusal) ErrorName() string { return kafkaerr.Name(e.Code) }

// TopicConfig is one of a topic's configs as DescribeConfigs reports it:
// its name, value and source ("DYNAMIC_TOPIC_CONFIG" for one the topic
// sets itself, "STATIC_BROKER_CONFIG" for the brokers' setting,
// "DEFAULT_CONFIG" for Kafka's default).
type TopicConfig struct {
	Name, Value, Source string
	// Synonyms are where its value may come from, the topic's own first,
	// as DescribeConfigs lists them with includeSynonyms.
	Synonyms []ConfigSynonym
}

// ConfigSynonym is one place a config's value may come from, as
// DescribeConfigs lists them (includeSynonyms, v1+), most specific first:
// the topic's own config, then the brokers' configs it falls back to.
type ConfigSynonym struct {
	// Name is the config's name there (log.retention.ms for a topic's
	// retention.ms), Value its value, Source Kafka's ConfigSource name
	// (DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG).
	Name, Value, Source string
}

// TopicConfigs returns topic's configs, sorted by name, as DescribeConfigs
// reports them ([ErrUnknownTopicOrPartition] for a topic the world does
// not have).
func (w *World) TopicConfigs(topic string) ([]TopicConfig, error) {
	t := w.ctl.Topic(topic)
	if t == nil {
		return nil, fmt.Errorf("%w: %s", ErrUnknownTopicOrPartition, topic)
	}
	var out []TopicConfig
	brokers := topicconfig.Entries(w.cfg.topicDefaults(), topicconfig.Own{}) // a topic that sets nothing
	for i, e := range topicconfig.Entries(w.cfg.topicDefaults(), t.Own()) {
		var syns []ConfigSynonym
		for _, s := range topicconfig.Synonyms(e, brokers[i]) {
			syns = append(syns, ConfigSynonym{s.Name, s.Value, s.Source.String()})
		}
		out = append(out, TopicConfig{Name: e.Key.Name, Value: e.Value, Source: e.Source.String(), Synonyms: syns})
	}
	return out, nil
}

// validateAlterConfigs checks an alter-configs action: a topic of the
// world's (not the internal one) and configs the log accepts.
func (w *World) validateAlterConfigs(a Action) error {
	t := w.ctl.Topic(a.Name)
	if t == nil || t.Internal {
		return fmt.Errorf("%w: alter-configs %q: no such topic", ErrInvalidConfig, a.Name)
	}
	if a.Topic.Config != nil {
		if err := a.Topic.Config.Validate(); err != nil {
			return err
		}
	}
	if a.Topic.MinInsyncReplicas < 0 {
		return fmt.Errorf("%w: alter-configs %s: min.insync.replicas %d", ErrInvalidConfig, a.Name, a.Topic.MinInsyncReplicas)
	}
	return nil
}

// alterTopicConfigs gives topic the configs spec holds and applies them
// to its replicas on the running brokers (a broker that is down opens its
// logs with them when it starts).
func (w *World) alterTopicConfigs(topic string, spec TopicSpec, by string) {
	t := w.ctl.Topic(topic)
	t.Config, t.MinInsyncReplicas, t.UncleanLeaderElectionEnable = spec.Config, spec.MinInsyncReplicas, spec.UncleanLeaderElectionEnable
	t.Overrides = slices.Sorted(slices.Values(spec.Overrides))
	for _, b := range w.brokers {
		b.UpdateTopicConfig(w.env(), topic)
	}
	w.record(EventController, 0, nil, "topic %s: configs altered by %s; its own configs now: %s", topic, by, w.ctl.OwnConfigs(t.Own()))
}
