package cluster

import (
	"fmt"
	"maps"
	"slices"
	"strings"

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
type ConfigOpType int8

// The operations.
const (
	ConfigSet      ConfigOpType = 0
	ConfigDelete   ConfigOpType = 1
	ConfigAppend   ConfigOpType = 2
	ConfigSubtract ConfigOpType = 3
)

// String is the operation's name as Kafka prints it.
func (o ConfigOpType) String() string {
	switch o {
	case ConfigSet:
		return "SET"
	case ConfigDelete:
		return "DELETE"
	case ConfigAppend:
		return "APPEND"
	case ConfigSubtract:
		return "SUBTRACT"
	}
	return fmt.Sprintf("ConfigOpType(%d)", int8(o))
}

// ConfigOp is one change to a topic's configs: set Name to Value, delete
// it (back to the broker's value), or append values to or subtract them
// from a list (cleanup.policy).
type ConfigOp struct {
	Name  string
	Op    ConfigOpType
	Value *string
}

// String prints the change: name=value for a SET, "delete name",
// name+=value for an APPEND, name-=value for a SUBTRACT (a null value as
// null).
func (o ConfigOp) String() string {
	v := "null"
	if o.Value != nil {
		v = *o.Value
	}
	switch o.Op {
	case ConfigSet:
		return o.Name + "=" + v
	case ConfigDelete:
		return "delete " + o.Name
	case ConfigAppend:
		return o.Name + "+=" + v
	case ConfigSubtract:
		return o.Name + "-=" + v
	}
	return fmt.Sprintf("%s %s=%s", o.Op, o.Name, v)
}

// ConfigOpsString prints changes, separated by commas.
func ConfigOpsString(ops []ConfigOp) string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = o.String()
	}
	return strings.Join(parts, ", ")
}

// AlterTopicConfigs returns the action that alters topic's configs by ops
// (incremental; with replace, ops are SETs that become the topic's only
// configs, as the legacy AlterConfigs replaces them), checked as Kafka
// 3.7's broker and controller check them; a refusal is a
// [*ConfigRefusal] carrying Kafka's code and message, or
// [ErrUnknownTopicOrPartition] for a topic the world does not have.
func (w *World) AlterTopicConfigs(topic string, ops []ConfigOp, replace bool) (Action, error) {
	spec, code, msg := w.alteredTopicConfigs(topic, ops, replace)
	switch code {
	case 0:
		return Action{Kind: ActAlterConfigs, Name: topic, Topic: spec, Value: w.overridesString(specTopic(spec))}, nil
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

// alteredTopicConfigs is AlterTopicConfigs' check: the topic's configs
// after ops, as a TopicSpec's Config, MinInsyncReplicas,
// UncleanLeaderElectionEnable and Overrides, or Kafka's error code and
// message. In Kafka's order: the request's own form (a key named twice,
// a null value, an unknown operation: INVALID_REQUEST, as
// ConfigAdminManager.preprocess answers), the topic name, APPEND and
// SUBTRACT on a list only, every config of the result parsed and checked
// (INVALID_CONFIG), then the topic's existence.
func (w *World) alteredTopicConfigs(topic string, ops []ConfigOp, replace bool) (TopicSpec, int16, string) {
	fail := func(code int16, msg string) (TopicSpec, int16, string) { return TopicSpec{}, code, msg }
	seen := map[string]bool{}
	var nulls []string
	for _, op := range ops {
		if seen[op.Name] {
			return fail(kafkaerr.InvalidRequest, "Error due to duplicate config keys")
		}
		seen[op.Name] = true
		if op.Op < ConfigSet || op.Op > ConfigSubtract || replace && op.Op != ConfigSet {
			return fail(kafkaerr.InvalidRequest, fmt.Sprintf("Unknown operations type %d", int8(op.Op)))
		}
		if op.Op != ConfigDelete && op.Value == nil {
			nulls = append(nulls, op.Name)
		}
	}
	if len(nulls) > 0 {
		return fail(kafkaerr.InvalidRequest, "Null value not supported for : "+strings.Join(nulls, ", "))
	}
	if topic == "" {
		return fail(kafkaerr.InvalidRequest, "Default topic resources are not allowed.")
	}
	if err := CheckTopicName(topic); err != nil {
		return fail(kafkaerr.InvalidTopicException, err.Error())
	}
	t := w.topic(topic)
	configs := map[string]string{}
	if t != nil && !replace {
		configs = w.topicOverrides(t)
	}
	for _, op := range ops {
		switch op.Op {
		case ConfigSet:
			configs[op.Name] = *op.Value
		case ConfigDelete:
			delete(configs, op.Name)
		case ConfigAppend, ConfigSubtract:
			// the LIST configs (the throttled-replica lists are not
			// modelled), from Kafka's default when the topic sets none
			k, ok := topicconfig.Lookup(op.Name)
			if !ok || !k.IsList() {
				return fail(kafkaerr.InvalidConfig, fmt.Sprintf("Can't %s to key %s because its type is not LIST.", op.Op, op.Name))
			}
			cur, set := configs[op.Name]
			if !set {
				def := topicconfig.KafkaDefaults()
				cur = k.Get(&def)
			}
			parts := slices.DeleteFunc(strings.Split(cur, ","), func(s string) bool { return s == "" })
			for _, v := range strings.Split(*op.Value, ",") {
				if op.Op == ConfigAppend && !slices.Contains(parts, v) {
					parts = append(parts, v)
				} else if op.Op == ConfigSubtract {
					if i := slices.Index(parts, v); i >= 0 {
						parts = slices.Delete(parts, i, i+1)
					}
				}
			}
			configs[op.Name] = strings.Join(parts, ",")
		}
	}
	spec := TopicSpec{Name: topic}
	var list []kmsg.CreateTopicsRequestTopicConfig
	for _, name := range slices.Sorted(maps.Keys(configs)) {
		c := kmsg.NewCreateTopicsRequestTopicConfig()
		c.Name, c.Value = name, kmsg.StringPtr(configs[name])
		list = append(list, c)
	}
	if code, msg := w.applyTopicConfigs(&spec, list); code != 0 {
		return fail(code, msg)
	}
	switch {
	case t == nil:
		return fail(kafkaerr.UnknownTopicOrPartition, fmt.Sprintf("The topic '%s' does not exist.", topic))
	case t.Internal:
		return fail(kafkaerr.PolicyViolation, fmt.Sprintf("the configs of %s are not altered in the simulated cluster: its group coordinators read committed offsets from its log, which compaction and retention must keep as they are", topic))
	}
	return spec, 0, ""
}

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
	for i, e := range w.topicConfigEntries(t) {
		out = append(out, TopicConfig{Name: e.name, Value: e.value, Source: e.source.String(), Synonyms: synonymsOf(e, brokers[i])})
	}
	return out, nil
}

// topicOverrides returns the configs topic sets itself, by name, with
// their values as DescribeConfigs prints them (source
// DYNAMIC_TOPIC_CONFIG).
func (w *World) topicOverrides(t *Topic) map[string]string {
	out := map[string]string{}
	for _, e := range w.topicConfigEntries(t) {
		if e.source == kmsg.ConfigSourceDynamicTopicConfig {
			out[e.name] = e.value
		}
	}
	return out
}

// overridesString prints a topic's own configs as name=value pairs,
// sorted ("none" without any).
func (w *World) overridesString(t *Topic) string {
	return configsString(w.topicOverrides(t))
}

// configsString prints configs as name=value pairs, sorted by name
// ("none" without any).
func configsString(configs map[string]string) string {
	if len(configs) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(configs)) {
		parts = append(parts, k+"="+configs[k])
	}
	return strings.Join(parts, ",")
}

// specTopic is the topic spec describes, for its configs.
func specTopic(spec TopicSpec) *Topic {
	return &Topic{Name: spec.Name, Config: spec.Config, MinInsyncReplicas: spec.MinInsyncReplicas,
		UncleanLeaderElectionEnable: spec.UncleanLeaderElectionEnable, Overrides: spec.Overrides}
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
	w.record(EventController, 0, nil, "topic %s: configs altered by %s; its own configs now: %s", topic, by, w.overridesString(t))
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
	spec, code, msg := w.alteredTopicConfigs(name, ops, replace)
	if code != 0 || validateOnly {
		return code, msg
	}
	w.alterTopicConfigs(name, spec, fmt.Sprintf("client %d (%s)", x.Client, x.ClientID))
	return 0, ""
}
