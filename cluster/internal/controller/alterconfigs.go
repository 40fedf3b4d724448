package controller

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
)

// CheckAlterConfigs checks altering topic's configs by ops (incremental;
// with replace, ops are SETs that become the topic's only configs, as the
// legacy AlterConfigs replaces them) as Kafka 3.7's broker and controller
// check them (ConfigAdminManager.preprocess, then
// ConfigurationControlManager and ControllerConfigurationValidator), and
// returns the topic's configs after ops, as a TopicSpec's Config,
// MinInsyncReplicas, UncleanLeaderElectionEnable and Overrides; or Kafka's
// error code and message. In Kafka's order: the request's own form (a key
// named twice, a null value, an unknown operation: INVALID_REQUEST), the
// topic name, APPEND and SUBTRACT on a list only, every config of the
// result parsed and checked (INVALID_CONFIG), then the topic's existence.
//
// Where it differs from Kafka 3.7, on purpose: __consumer_offsets' configs
// are not altered (the coordinators read committed offsets from its log),
// refused with POLICY_VIOLATION, saying why; a cleanup.policy emptied by
// SUBTRACT is refused (Kafka takes an empty list: neither deletion nor
// compaction).
func (c *Controller) CheckAlterConfigs(topic string, ops []topicconfig.Op, replace bool) (metadata.TopicSpec, int16, string) {
	fail := func(code int16, msg string) (metadata.TopicSpec, int16, string) {
		return metadata.TopicSpec{}, code, msg
	}
	seen := map[string]bool{}
	var nulls []string
	for _, op := range ops {
		if seen[op.Name] {
			return fail(kafkaerr.InvalidRequest, "Error due to duplicate config keys")
		}
		seen[op.Name] = true
		if op.Op < topicconfig.OpSet || op.Op > topicconfig.OpSubtract || replace && op.Op != topicconfig.OpSet {
			return fail(kafkaerr.InvalidRequest, fmt.Sprintf("Unknown operations type %d", int8(op.Op)))
		}
		if op.Op != topicconfig.OpDelete && op.Value == nil {
			nulls = append(nulls, op.Name)
		}
	}
	if len(nulls) > 0 {
		return fail(kafkaerr.InvalidRequest, "Null value not supported for : "+strings.Join(nulls, ", "))
	}
	if topic == "" {
		return fail(kafkaerr.InvalidRequest, "Default topic resources are not allowed.")
	}
	if err := metadata.CheckTopicName(topic); err != nil {
		return fail(kafkaerr.InvalidTopicException, err.Error())
	}
	t := c.Topic(topic)
	configs := map[string]string{}
	if t != nil && !replace {
		configs = topicconfig.Overrides(c.cfg.BrokerSettings, t.Own())
	}
	for _, op := range ops {
		if code, msg := alterConfig(configs, op); code != 0 {
			return fail(code, msg)
		}
	}
	spec := metadata.TopicSpec{Name: topic}
	var list []kmsg.CreateTopicsRequestTopicConfig
	for _, name := range slices.Sorted(maps.Keys(configs)) {
		tc := kmsg.NewCreateTopicsRequestTopicConfig()
		tc.Name, tc.Value = name, kmsg.StringPtr(configs[name])
		list = append(list, tc)
	}
	if code, msg := c.applyTopicConfigs(&spec, list); code != 0 {
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

// alterConfig applies op to configs, a topic's own configs by name: SET,
// DELETE, or APPEND to and SUBTRACT from a LIST config (the
// throttled-replica lists are not modelled), from Kafka's default when
// the topic sets none.
func alterConfig(configs map[string]string, op topicconfig.Op) (int16, string) {
	switch op.Op {
	case topicconfig.OpSet:
		configs[op.Name] = *op.Value
	case topicconfig.OpDelete:
		delete(configs, op.Name)
	case topicconfig.OpAppend, topicconfig.OpSubtract:
		k, ok := topicconfig.Lookup(op.Name)
		if !ok || !k.IsList() {
			return kafkaerr.InvalidConfig, fmt.Sprintf("Can't %s to key %s because its type is not LIST.", op.Op, op.Name)
		}
		cur, set := configs[op.Name]
		if !set {
			def := topicconfig.KafkaDefaults()
			cur = k.Get(&def)
		}
		parts := slices.DeleteFunc(strings.Split(cur, ","), func(s string) bool { return s == "" })
		for _, v := range strings.Split(*op.Value, ",") {
			if op.Op == topicconfig.OpAppend && !slices.Contains(parts, v) {
				parts = append(parts, v)
			} else if op.Op == topicconfig.OpSubtract {
				if i := slices.Index(parts, v); i >= 0 {
					parts = slices.Delete(parts, i, i+1)
				}
			}
		}
		configs[op.Name] = strings.Join(parts, ",")
	}
	return 0, ""
}

// OwnConfigs prints the configs own sets itself (topicconfig.Overrides) as
// name=value pairs, sorted by name ("none" without any).
func (c *Controller) OwnConfigs(own topicconfig.Own) string {
	configs := topicconfig.Overrides(c.cfg.BrokerSettings, own)
	if len(configs) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(configs)) {
		parts = append(parts, k+"="+configs[k])
	}
	return strings.Join(parts, ",")
}
