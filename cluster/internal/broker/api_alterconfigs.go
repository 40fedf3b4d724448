package broker

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
)

// A topic's configs altered while the cluster runs: IncrementalAlterConfigs
// (v0-1) and the legacy AlterConfigs (v0-2), as Kafka 3.7 alters them
// (ConfigAdminManager.preprocess on the broker, then the controller's
// ConfigurationControlManager and ControllerConfigurationValidator:
// APIEnv.CheckAlterConfigs). The brokers apply the new configs at once
// (UnifiedLog.updateConfig, Broker.UpdateTopicConfig): retention,
// compaction, roll, append and timestamp settings from their next check,
// min.insync.replicas from the next acks=all produce and high watermark
// check. As in Kafka 3.7, enabling unclean.leader.election.enable elects
// no leader by itself: the controller's next election of the partition
// does.
//
// Where it differs from Kafka 3.7, on purpose: the brokers' own configs
// (and their loggers) are static, refused with POLICY_VIOLATION, saying
// why; an unknown operation id is INVALID_REQUEST (Kafka's controller
// meets a null OpType).

// incrementalAlterConfigs answers IncrementalAlterConfigs (v0-1) as Kafka
// 3.7 does: a resource named twice is INVALID_REQUEST ("Each resource must
// appear at most once."); each topic resource is altered, or refused with
// Kafka's code and message, whole (one bad key changes none of the
// resource's); ValidateOnly checks and changes nothing. The brokers' own
// configs (and their loggers) are static in the simulated cluster:
// altering them is POLICY_VIOLATION, saying so, as an AlterConfigPolicy
// refuses.
func (b *Broker) incrementalAlterConfigs(env APIEnv, x *Request, req *kmsg.IncrementalAlterConfigsRequest) *kmsg.IncrementalAlterConfigsResponse {
	rs := make([]configResource, len(req.Resources))
	for i, r := range req.Resources {
		rs[i] = configResource{typ: r.ResourceType, name: r.ResourceName}
		for _, c := range r.Configs {
			rs[i].ops = append(rs[i].ops, topicconfig.Op{Name: c.Name, Op: topicconfig.OpType(c.Op), Value: c.Value})
		}
	}
	resp := kmsg.NewPtrIncrementalAlterConfigsResponse()
	for i, res := range alterConfigResources(env, x, rs, false, req.ValidateOnly) {
		rr := kmsg.NewIncrementalAlterConfigsResponseResource()
		rr.ResourceType, rr.ResourceName, rr.ErrorCode, rr.ErrorMessage = rs[i].typ, rs[i].name, res.code, res.msg
		resp.Resources = append(resp.Resources, rr)
	}
	return resp
}

// alterConfigs answers the legacy AlterConfigs (v0-2), which replaces a
// resource's configs with those it names (a topic config it leaves out
// goes back to the broker's value), checked as IncrementalAlterConfigs'
// are (ConfigurationControlManager.legacyAlterConfigResource).
func (b *Broker) alterConfigs(env APIEnv, x *Request, req *kmsg.AlterConfigsRequest) *kmsg.AlterConfigsResponse {
	rs := make([]configResource, len(req.Resources))
	for i, r := range req.Resources {
		rs[i] = configResource{typ: r.ResourceType, name: r.ResourceName}
		for _, c := range r.Configs {
			rs[i].ops = append(rs[i].ops, topicconfig.Op{Name: c.Name, Op: topicconfig.OpSet, Value: c.Value})
		}
	}
	resp := kmsg.NewPtrAlterConfigsResponse()
	for i, res := range alterConfigResources(env, x, rs, true, req.ValidateOnly) {
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
		ops  []topicconfig.Op
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
func alterConfigResources(env APIEnv, x *Request, rs []configResource, replace, validateOnly bool) []configResult {
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
			code, msg = alterConfigsResource(env, x, r, replace, validateOnly)
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
func alterConfigsResource(env APIEnv, x *Request, r configResource, replace, validateOnly bool) (int16, string) {
	switch r.typ {
	case kmsg.ConfigResourceTypeTopic:
	case kmsg.ConfigResourceTypeBroker, kmsg.ConfigResourceTypeBrokerLogger:
		return kafkaerr.PolicyViolation, "the simulated brokers' own configs are static: alter a topic's configs instead (kafka-configs --entity-type topics)"
	default:
		return kafkaerr.InvalidRequest, fmt.Sprintf("Unknown resource type %d", int8(r.typ))
	}
	spec, code, msg := env.CheckAlterConfigs(r.name, r.ops, replace)
	if code != 0 || validateOnly {
		return code, msg
	}
	env.AlterConfigs(r.name, spec, fmt.Sprintf("client %d (%s)", x.Client, x.ClientID))
	return 0, ""
}

// UpdateTopicConfig applies topic's configs, just altered, to b's running
// replicas of it, as Kafka 3.7's UnifiedLog.updateConfig does (the log's
// settings from their next use; min.insync.replicas from the next acks=all
// produce and high watermark check, which may answer waiting produces).
func (b *Broker) UpdateTopicConfig(env Env, topic string) {
	if b.state != BrokerRunning {
		return
	}
	settings := env.Settings(topic)
	for _, k := range b.order {
		s := b.replicas[k]
		if k.Topic != topic || s == nil {
			continue
		}
		s.changing()
		err := s.Log.Kafka().SetConfig(settings.Log)
		b.noteCompacted(s)
		if err != nil {
			env.InternalError(b.id, err)
			continue
		}
		if err := b.wake(s, env.Now()).SetMinInsyncReplicas(settings.MinInsyncReplicas); err != nil {
			env.InternalError(b.id, err)
			continue
		}
		if err := b.processReady(env, s); err != nil {
			env.InternalError(b.id, err)
		}
	}
}
