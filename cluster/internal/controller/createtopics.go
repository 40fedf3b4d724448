package controller

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
)

// CheckCreateTopic checks a topic a CreateTopics request asks for as Kafka
// 3.7's controller does (ReplicationControlManager.createTopic) and
// returns the spec that creates it, its assignment chosen; or Kafka's
// error code and message. The count and replication factor asked, or
// num.partitions and default.replication.factor for -1, or the replica
// assignment given; partition p's replicas start at the (p mod N)th
// unfenced broker (Placement; Kafka's StripedReplicaPlacer starts at a
// random one). Without a segment.bytes of its own, the topic gets
// Config.ClientTopicSegmentBytes when set, as if it had asked for it.
func (c *Controller) CheckCreateTopic(t kmsg.CreateTopicsRequestTopic) (metadata.TopicSpec, int16, string) {
	fail := func(code int16, msg string) (metadata.TopicSpec, int16, string) {
		return metadata.TopicSpec{}, code, msg
	}
	if err := metadata.CheckTopicName(t.Topic); err != nil {
		return fail(kafkaerr.InvalidTopicException, err.Error())
	}
	if c.Topic(t.Topic) != nil {
		return fail(kafkaerr.TopicAlreadyExists, fmt.Sprintf("Topic '%s' already exists.", t.Topic))
	}
	spec := metadata.TopicSpec{Name: t.Topic}
	if len(t.ReplicaAssignment) > 0 {
		if t.NumPartitions != -1 || t.ReplicationFactor != -1 {
			return fail(kafkaerr.InvalidRequest, "Both numPartitions or replicationFactor and replicasAssignments were set. Both cannot be used at the same time.")
		}
		spec.Assignment = make([][]int32, len(t.ReplicaAssignment))
		for _, a := range t.ReplicaAssignment {
			if a.Partition < 0 || int(a.Partition) >= len(t.ReplicaAssignment) || spec.Assignment[a.Partition] != nil {
				return fail(kafkaerr.InvalidReplicaAssignment, "partitions should be a consecutive 0-based integer sequence")
			}
			spec.Assignment[a.Partition] = slices.Clone(a.Replicas)
		}
	} else {
		spec.Partitions, spec.ReplicationFactor = int(t.NumPartitions), int(t.ReplicationFactor)
		if t.NumPartitions == -1 {
			spec.Partitions = metadata.DefaultNumPartitions
		}
		if t.ReplicationFactor == -1 {
			spec.ReplicationFactor = metadata.DefaultReplicationFactor
		}
		if spec.Partitions < 1 {
			return fail(kafkaerr.InvalidPartitions, "Number of partitions was set to an invalid non-positive value.")
		}
		if spec.ReplicationFactor < 1 {
			return fail(kafkaerr.InvalidReplicationFactor, "Replication factor must be larger than 0, or -1 to use the default value.")
		}
		if alive := len(c.Alive()); spec.ReplicationFactor > alive {
			return fail(kafkaerr.InvalidReplicationFactor, fmt.Sprintf("Unable to replicate the partition %d time(s): The target replication factor of %d cannot be reached because only %d broker(s) are registered.",
				spec.ReplicationFactor, spec.ReplicationFactor, alive))
		}
	}
	asg, err := c.Assignment(spec, c.Placement(spec.ReplicationFactor))
	if bound := (*BoundError)(nil); errors.As(err, &bound) {
		return fail(kafkaerr.PolicyViolation, bound.Msg)
	}
	if err != nil {
		return fail(kafkaerr.InvalidReplicaAssignment, err.Error())
	}
	configs := t.Configs
	if n := c.cfg.ClientTopicSegmentBytes; n > 0 && !slices.ContainsFunc(configs, func(tc kmsg.CreateTopicsRequestTopicConfig) bool { return tc.Name == "segment.bytes" }) {
		tc := kmsg.NewCreateTopicsRequestTopicConfig()
		tc.Name, tc.Value = "segment.bytes", kmsg.StringPtr(strconv.FormatInt(n, 10))
		configs = append([]kmsg.CreateTopicsRequestTopicConfig{tc}, configs...)
	}
	if code, msg := c.applyTopicConfigs(&spec, configs); code != 0 {
		return fail(code, msg)
	}
	spec.Assignment = asg
	return spec, 0, ""
}

// applyTopicConfigs sets a CreateTopics request's topic configs on spec,
// validated as Kafka 3.7's controller does (ControllerConfigurationValidator,
// LogConfig.validate): an unknown name is "Unknown topic config name",
// a value that does not parse as its type or is out of its range is
// ConfigDef's "Invalid value V for configuration N: ...", a null value
// is refused (ReplicationControlManager.createTopic); all INVALID_CONFIG.
// A value Kafka takes that the simulated brokers do not model (a
// compression.type other than producer) is INVALID_CONFIG too, saying
// so.
func (c *Controller) applyTopicConfigs(spec *metadata.TopicSpec, configs []kmsg.CreateTopicsRequestTopicConfig) (int16, string) {
	if len(configs) == 0 {
		return 0, ""
	}
	brokers := c.cfg.BrokerSettings.Log
	s := topicconfig.Settings{Log: brokers}
	seen := map[string]bool{}
	for _, tc := range configs {
		if tc.Value == nil {
			return kafkaerr.InvalidConfig, fmt.Sprintf("Null value not supported for topic configs: %s", tc.Name)
		}
		k, ok := topicconfig.Lookup(tc.Name)
		if !ok {
			return kafkaerr.InvalidConfig, fmt.Sprintf("Unknown topic config name: %s", tc.Name)
		}
		if err := k.Set(&s, *tc.Value); err != nil {
			return kafkaerr.InvalidConfig, err.Error()
		}
		if !seen[tc.Name] {
			seen[tc.Name] = true
			spec.Overrides = append(spec.Overrides, tc.Name)
		}
	}
	if seen["min.insync.replicas"] {
		spec.MinInsyncReplicas = s.MinInsyncReplicas
	}
	if seen["unclean.leader.election.enable"] {
		unclean := s.UncleanLeaderElectionEnable
		spec.UncleanLeaderElectionEnable = &unclean
	}
	cfg := s.Log
	if cfg.MaxCompactionLagMs < cfg.MinCompactionLagMs {
		return kafkaerr.InvalidConfig, fmt.Sprintf("conflict topic config setting max.compaction.lag.ms (%d) < min.compaction.lag.ms (%d)", cfg.MaxCompactionLagMs, cfg.MinCompactionLagMs)
	}
	if err := cfg.Validate(); err != nil {
		return kafkaerr.InvalidConfig, err.Error()
	}
	if cfg != brokers {
		spec.Config = &cfg
	}
	return 0, ""
}
