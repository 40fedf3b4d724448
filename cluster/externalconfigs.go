package cluster

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A topic's configs altered while the world runs: IncrementalAlterConfigs
// (v0-1) and the legacy AlterConfigs (v0-2) from clients, the terminal's
// kafka-configs --alter, and the world's alter-configs action, as Kafka
// 3.7 alters them (ConfigAdminManager.preprocess on the broker, then the
// controller's ConfigurationControlManager and
// ControllerConfigurationValidator). The brokers apply the new configs at
// once (UnifiedLog.updateConfig): retention, compaction, roll, append
// and timestamp settings from their next check, min.insync.replicas from
// the next acks=all produce and high watermark check. As in Kafka 3.7,
// enabling unclean.leader.election.enable elects no leader by itself: the
// controller's next election of the partition does.
//
// Where it differs from Kafka 3.7, on purpose: the brokers' own configs
// (and their loggers) are static, and __consumer_offsets' configs are not
// altered (the coordinators read committed offsets from its log), both
// refused with POLICY_VIOLATION, saying why; an unknown operation id is
// INVALID_REQUEST (Kafka's controller meets a null OpType); a
// cleanup.policy emptied by SUBTRACT is refused (Kafka takes an empty
// list: neither deletion nor compaction).

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

// TopicConfigs returns topic's configs, sorted by name, as DescribeConfigs
// reports them ([ErrUnknownTopicOrPartition] for a topic the world does
// not have).
func (w *World) TopicConfigs(topic string) ([]TopicConfig, error) {
	t := w.topic(topic)
	if t == nil {
		return nil, fmt.Errorf("%w: %s", ErrUnknownTopicOrPartition, topic)
	}
	var out []TopicConfig
	brokers := w.brokersConfigEntries(t)
	for i, e := range w.topicConfigEntries(t.Own()) {
		out = append(out, TopicConfig{Name: e.name, Value: e.value, Source: e.source.String(), Synonyms: synonymsOf(e, brokers[i])})
	}
	return out, nil
}

// validateAlterConfigs checks an alter-configs action: a topic of the
// world's (not the internal one) and configs the log accepts.
func (w *World) validateAlterConfigs(a Action) error {
	t := w.topic(a.Name)
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
	t := w.topic(topic)
	t.Config, t.MinInsyncReplicas, t.UncleanLeaderElectionEnable = spec.Config, spec.MinInsyncReplicas, spec.UncleanLeaderElectionEnable
	t.Overrides = slices.Sorted(slices.Values(spec.Overrides))
	cfg, minISR := w.logConfig(topic), w.minInsyncReplicas(topic)
	for _, b := range w.brokers {
		if b.State() != BrokerRunning {
			continue
		}
		for _, tp := range b.Partitions() {
			s := b.Partition(tp)
			if tp.Topic != topic || s == nil {
				continue
			}
			if err := s.Log.Kafka().SetConfig(cfg); err != nil {
				w.internalError(b, err)
				continue
			}
			if err := s.Node.SetMinInsyncReplicas(minISR); err != nil {
				w.internalError(b, err)
				continue
			}
			if err := b.ProcessReady(w.env(), s); err != nil {
				w.internalError(b, err)
			}
		}
	}
	w.record(EventController, 0, nil, "topic %s: configs altered by %s; its own configs now: %s", topic, by, w.ctl.OwnConfigs(t.Own()))
}

// extIncrementalAlterConfigs answers IncrementalAlterConfigs (v0-1) as
// Kafka 3.7 does: a resource named twice is INVALID_REQUEST ("Each
// resource must appear at most once."); each topic resource is altered,
// or refused with Kafka's code and message, whole (one bad key changes
// none of the resource's); ValidateOnly checks and changes nothing. The
// brokers' own configs (and their loggers) are static in the simulated
// cluster: altering them is POLICY_VIOLATION, saying so, as an
// AlterConfigPolicy refuses.
func (w *World) extIncrementalAlterConfigs(x *ExternalRequest, req *kmsg.IncrementalAlterConfigsRequest) *kmsg.IncrementalAlterConfigsResponse {
	rs := make([]configResource, len(req.Resources))
	for i, r := range req.Resources {
		rs[i] = configResource{typ: r.ResourceType, name: r.ResourceName}
		for _, c := range r.Configs {
			rs[i].ops = append(rs[i].ops, ConfigOp{Name: c.Name, Op: ConfigOpType(c.Op), Value: c.Value})
		}
	}
	resp := kmsg.NewPtrIncrementalAlterConfigsResponse()
	for i, res := range w.alterConfigResources(x, rs, false, req.ValidateOnly) {
		rr := kmsg.NewIncrementalAlterConfigsResponseResource()
		rr.ResourceType, rr.ResourceName, rr.ErrorCode, rr.ErrorMessage = rs[i].typ, rs[i].name, res.code, res.msg
		resp.Resources = append(resp.Resources, rr)
	}
	return resp
}

// extAlterConfigs answers the legacy AlterConfigs (v0-2), which replaces
// a resource's configs with those it names (a topic config it leaves out
// goes back to the broker's value), checked as IncrementalAlterConfigs'
// are (ConfigurationControlManager.legacyAlterConfigResource).
func (w *World) extAlterConfigs(x *ExternalRequest, req *kmsg.AlterConfigsRequest) *kmsg.AlterConfigsResponse {
	rs := make([]configResource, len(req.Resources))
	for i, r := range req.Resources {
		rs[i] = configResource{typ: r.ResourceType, name: r.ResourceName}
		for _, c := range r.Configs {
			rs[i].ops = append(rs[i].ops, ConfigOp{Name: c.Name, Op: ConfigSet, Value: c.Value})
		}
	}
	resp := kmsg.NewPtrAlterConfigsResponse()
	for i, res := range w.alterConfigResources(x, rs, true, req.ValidateOnly) {
		rr := kmsg.NewAlterConfigsResponseResource()
		rr.ResourceType, rr.ResourceName, rr.ErrorCode, rr.ErrorMessage = rs[i].typ, rs[i].name, res.code, res.msg
		resp.Resources = append(resp.Resources, rr)
	}
	return resp
}

// configResource is one resource of an alter-configs request, and
// configResult its answer: Kafka's error code and message (nil on
// success).
type (
	configResource struct {
		typ  kmsg.ConfigResourceType
		name string
		ops  []ConfigOp
	}
	configResult struct {
		code int16
		msg  *string
	}
)

// alterConfigResources alters the resources of one alter-configs request
// in turn (replace: the legacy AlterConfigs), or only checks them
// (validateOnly); a resource named twice is refused, each time, with
// INVALID_REQUEST ("Each resource must appear at most once.", as
// ConfigAdminManager.preprocess refuses it).
func (w *World) alterConfigResources(x *ExternalRequest, rs []configResource, replace, validateOnly bool) []configResult {
	type key struct {
		typ  kmsg.ConfigResourceType
		name string
	}
	count := map[key]int{}
	for _, r := range rs {
		count[key{r.typ, r.name}]++
	}
	out := make([]configResult, len(rs))
	for i, r := range rs {
		code, msg := kafkaerr.InvalidRequest, "Each resource must appear at most once."
		if count[key{r.typ, r.name}] == 1 {
			code, msg = w.alterConfigsResource(x, r.typ, r.name, r.ops, replace, validateOnly)
		}
		if code != 0 {
			out[i] = configResult{code, &msg}
		}
	}
	return out
}

// alterConfigsResource alters one resource of an alter-configs request
// (or only checks it, validateOnly); it returns Kafka's error code and
// message (0 and "" when done).
func (w *World) alterConfigsResource(x *ExternalRequest, typ kmsg.ConfigResourceType, name string, ops []ConfigOp, replace, validateOnly bool) (int16, string) {
	switch typ {
	case kmsg.ConfigResourceTypeTopic:
	case kmsg.ConfigResourceTypeBroker, kmsg.ConfigResourceTypeBrokerLogger:
		return kafkaerr.PolicyViolation, "the simulated brokers' own configs are static: alter a topic's configs instead (kafka-configs --entity-type topics)"
	default:
		return kafkaerr.InvalidRequest, fmt.Sprintf("Unknown resource type %d", int8(typ))
	}
	spec, code, msg := w.ctl.CheckAlterConfigs(name, ops, replace)
	if code != 0 || validateOnly {
		return code, msg
	}
	w.alterTopicConfigs(name, spec, fmt.Sprintf("client %d (%s)", x.Client, x.ClientID))
	return 0, ""
}
