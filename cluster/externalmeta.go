package cluster

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/controller"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Broker defaults the external admin requests use (KafkaConfig, 3.7).
const (
	// DefaultNumPartitions is num.partitions: a CreateTopics that leaves
	// the count to the broker (-1) gets 1.
	DefaultNumPartitions = metadata.DefaultNumPartitions
	// DefaultReplicationFactor is default.replication.factor: 1.
	DefaultReplicationFactor = metadata.DefaultReplicationFactor
	// DefaultFetchMaxBytes is fetch.max.bytes: 55 MiB (57671680).
	DefaultFetchMaxBytes = 55 << 20
)

// aliveBrokers are the brokers the controller counts as alive: registered
// and unfenced (KRaftMetadataCache lists those in Metadata).
func (w *World) aliveBrokers() []int32 {
	var out []int32
	for id := int32(1); int(id) <= len(w.brokers); id++ {
		if w.ctl.Unfenced(id) {
			out = append(out, id)
		}
	}
	return out
}

// extMetadata answers Metadata (v0-12) from the controller's view, as a
// KRaft broker's metadata cache does (KRaftMetadataCache): the alive
// brokers (their Host and Port are left to the wire layer), the cluster
// id, a controller id (Kafka 3.7 names a random alive broker; here the
// lowest, so that replays agree), and per topic its id, whether it is
// internal (__consumer_offsets), and per partition the leader (-1 with
// LEADER_NOT_AVAILABLE while none), leader epoch, replicas, ISR and the
// replicas whose broker is not alive. Topics are asked by name (by id
// from v10); all of them with a null list (an empty one in v0). A topic
// asked by a name that is not legal is INVALID_TOPIC_EXCEPTION, one that
// does not exist UNKNOWN_TOPIC_OR_PARTITION (KafkaApis.getTopicMetadata);
// by an id that does not exist, UNKNOWN_TOPIC_ID. A topic that does not
// exist is created when the request allows it (always before v4, with
// AllowAutoTopicCreation from v4) and the brokers'
// auto.create.topics.enable is on (Config.DisableAutoCreateTopics): see
// autoCreateTopic.
func (w *World) extMetadata(x *ExternalRequest, req *kmsg.MetadataRequest) *kmsg.MetadataResponse {
	resp := kmsg.NewPtrMetadataResponse()
	alive := w.aliveBrokers()
	for _, id := range alive {
		b := kmsg.NewMetadataResponseBroker()
		b.NodeID = id
		resp.Brokers = append(resp.Brokers, b)
	}
	cid := w.ClusterID()
	resp.ClusterID = &cid
	resp.ControllerID = -1
	if len(alive) > 0 {
		resp.ControllerID = alive[0]
	}
	var topics []*Topic
	var missing []kmsg.MetadataRequestTopic
	if req.Topics == nil || req.Version == 0 && len(req.Topics) == 0 {
		for i := range w.ctl.Topics() {
			topics = append(topics, &w.ctl.Topics()[i])
		}
	} else {
		for _, rt := range req.Topics {
			var t *Topic
			if rt.Topic != nil {
				t = w.topic(*rt.Topic)
			} else {
				t = w.topicByID(rt.TopicID)
			}
			if t == nil {
				missing = append(missing, rt)
				continue
			}
			topics = append(topics, t)
		}
	}
	for _, t := range topics {
		mt := kmsg.NewMetadataResponseTopic()
		name := t.Name
		mt.Topic, mt.TopicID, mt.IsInternal = &name, TopicUUID(t.ID), t.Internal
		for _, pi := range w.TopicPartitions(t.Name) {
			mp := kmsg.NewMetadataResponseTopicPartition()
			mp.Partition, mp.Leader, mp.LeaderEpoch = pi.Partition, pi.Leader, pi.LeaderEpoch
			mp.Replicas, mp.ISR, mp.OfflineReplicas = pi.Replicas, pi.ISR, []int32{}
			for _, r := range pi.Replicas {
				if !slices.Contains(alive, r) {
					mp.OfflineReplicas = append(mp.OfflineReplicas, r)
				}
			}
			if pi.Leader < 0 {
				mp.ErrorCode = kafkaerr.LeaderNotAvailable
			}
			mt.Partitions = append(mt.Partitions, mp)
		}
		resp.Topics = append(resp.Topics, mt)
	}
	autoCreate := !w.cfg.DisableAutoCreateTopics && (req.Version < 4 || req.AllowAutoTopicCreation)
	var refused []string // auto-creations the controller refused, and why the first was
	var why string
	for _, rt := range missing {
		mt := kmsg.NewMetadataResponseTopic()
		mt.Topic, mt.TopicID = rt.Topic, rt.TopicID
		switch {
		case rt.Topic == nil:
			mt.ErrorCode = kafkaerr.UnknownTopicID
		case CheckTopicName(*rt.Topic) != nil:
			mt.ErrorCode = kafkaerr.InvalidTopicException
		default:
			mt.ErrorCode = kafkaerr.UnknownTopicOrPartition
			mt.IsInternal = metadata.IsInternal(*rt.Topic)
			if autoCreate {
				if msg := w.autoCreateTopic(x, *rt.Topic); msg != "" {
					if refused = append(refused, *rt.Topic); len(refused) == 1 {
						why = msg
					}
				}
			}
		}
		mt.Partitions = []kmsg.MetadataResponseTopicPartition{}
		resp.Topics = append(resp.Topics, mt)
	}
	if len(refused) > 0 { // one event, however many names the request held
		more := ""
		if len(refused) > 1 {
			more = fmt.Sprintf(" and %d more", len(refused)-1)
		}
		w.record(EventController, 0, nil, "topic %s%s not auto-created for client %q: %s", refused[0], more, x.ClientID, why)
	}
	return resp
}

// autoCreateTopic creates a topic a client's Metadata request asked for, as
// a Kafka 3.7 broker in KRaft mode does (AutoTopicCreationManager): it
// sends a CreateTopics for it to the controller, with num.partitions and
// default.replication.factor (1 and 1, DefaultNumPartitions and
// DefaultReplicationFactor), and answers the request itself
// UNKNOWN_TOPIC_OR_PARTITION, since its metadata does not hold the topic
// yet; the client asks again and finds it. A creation the controller
// refuses (no broker alive to hold the replica, the world's partitions
// all taken) stays missing; autoCreateTopic returns why. __transaction_state
// is not created: transactions are not modelled.
func (w *World) autoCreateTopic(x *ExternalRequest, name string) string {
	if name == "__transaction_state" {
		return ""
	}
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = name, -1, -1
	rt := kmsg.NewCreateTopicsResponseTopic()
	if code, msg := w.createExternalTopic(t, false, &rt, fmt.Sprintf("client %q's Metadata request (auto.create.topics.enable)", x.ClientID)); code != 0 {
		return msg
	}
	return ""
}

// extInitProducerID answers InitProducerId for an idempotent producer (a
// null transactional id): a new producer id, epoch 0, every time, as Kafka
// 3.7's TransactionCoordinator.handleInitProducerId does without a
// transactional id (KIP-360's epoch bump applies to transactional
// producers). Transactions are not modelled: a transactional id is
// UNSUPPORTED_VERSION.
func (w *World) extInitProducerID(x *ExternalRequest, req *kmsg.InitProducerIDRequest) *kmsg.InitProducerIDResponse {
	resp := kmsg.NewPtrInitProducerIDResponse()
	if req.TransactionalID != nil {
		resp.ErrorCode, resp.ProducerID, resp.ProducerEpoch = kafkaerr.UnsupportedVersion, -1, -1
		return resp
	}
	resp.ProducerID, resp.ProducerEpoch = ExternalProducerIDBase+w.ext.nextPID, 0
	w.ext.nextPID++
	w.record(EventProduce, x.Broker, nil, "client %d (%s): InitProducerId gives producer id %d, epoch 0", x.Client, x.ClientID, resp.ProducerID)
	return resp
}

// CheckTopicName is Kafka 3.7's Topic.validate, with its messages: 1 to
// 249 of [a-zA-Z0-9._-] (counted as Java counts a String's length, in
// UTF-16 units), not "." or "..".
func CheckTopicName(name string) error { return controller.CheckTopicName(name) }

// extCreateTopics creates topics through the controller
// (ReplicationControlManager.createTopic in Kafka 3.7): the count and
// replication factor asked, or num.partitions and
// default.replication.factor for -1, or the replica assignment given;
// partition p's replicas start at broker (p mod N)+1 as for the world's
// own topics (Kafka's StripedReplicaPlacer starts at a random broker).
// Topic configs are LogConfig's (applyTopicConfigs): the log's
// (retention.ms, segment.bytes, cleanup.policy...), min.insync.replicas,
// which the topic's partitions' acks=all check and HW then follow, and
// unclean.leader.election.enable, which the controller's elections of
// them follow.
func (w *World) extCreateTopics(req *kmsg.CreateTopicsRequest) *kmsg.CreateTopicsResponse {
	resp := kmsg.NewPtrCreateTopicsResponse()
	for _, t := range req.Topics {
		rt := kmsg.NewCreateTopicsResponseTopic()
		rt.Topic, rt.NumPartitions, rt.ReplicationFactor = t.Topic, -1, -1
		code, msg := w.createExternalTopic(t, req.ValidateOnly, &rt, "an external client")
		if code != 0 {
			rt.ErrorCode, rt.ErrorMessage = code, &msg
			rt.NumPartitions, rt.ReplicationFactor, rt.Configs = -1, -1, nil
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

func (w *World) createExternalTopic(t kmsg.CreateTopicsRequestTopic, validateOnly bool, rt *kmsg.CreateTopicsResponseTopic, by string) (int16, string) {
	spec, code, msg := w.ctl.CheckCreateTopic(t)
	if code != 0 {
		return code, msg
	}
	asg := spec.Assignment
	rt.NumPartitions, rt.ReplicationFactor = int32(len(asg)), int16(len(asg[0]))
	// the topic's effective configs (v5+), sorted by name, as
	// ReplicationControlManager.createTopic returns them
	for _, e := range w.topicConfigEntries(spec.Own()) {
		c := kmsg.NewCreateTopicsResponseTopicConfig()
		v := e.value
		c.Name, c.Value, c.Source = e.name, &v, int8(e.source)
		rt.Configs = append(rt.Configs, c)
	}
	if validateOnly {
		return 0, ""
	}
	if err := w.createTopic(spec); err != nil {
		return kafkaerr.InvalidRequest, err.Error()
	}
	rt.TopicID = TopicUUID(w.topic(t.Topic).ID)
	w.record(EventController, 0, nil, "topic %s created by %s: %d partitions, replicas %v", t.Topic, by, len(asg), asg)
	return 0, ""
}

// ErrTopicExists is the error of a topic creation whose name is taken
// (Kafka's TOPIC_ALREADY_EXISTS).
var ErrTopicExists = errors.New("cluster: TOPIC_ALREADY_EXISTS")

// topicError is a refused topic creation: Kafka's message, and its
// code for errors.Is.
type topicError struct {
	code int16
	msg  string
}

func (e *topicError) Error() string { return e.msg }

func (e *topicError) Is(target error) bool {
	if e.code == kafkaerr.TopicAlreadyExists {
		return target == ErrTopicExists
	}
	return target == ErrInvalidConfig
}

// NewTopicSpec checks a topic to create as Kafka 3.7's controller checks
// a client's CreateTopics (kafka-topics --create sends one): a legal name
// not taken, a partition count and replication factor of at least 1 (-1
// leaves them to num.partitions and default.replication.factor, both 1),
// no more replicas than brokers alive, and topic configs Kafka knows with
// values in range. It returns the TopicSpec an [ActCreateTopic] action
// creates, its assignment chosen; its error's text is Kafka's message,
// and errors.Is tells [ErrTopicExists] from [ErrInvalidConfig].
func (w *World) NewTopicSpec(name string, partitions, replicationFactor int, configs [][2]string) (TopicSpec, error) {
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = name, -1, -1
	if partitions != -1 { // a negative count is as refused as 0
		t.NumPartitions = int32(max(min(partitions, math.MaxInt32), 0))
	}
	if replicationFactor != -1 {
		t.ReplicationFactor = int16(max(min(replicationFactor, math.MaxInt16), 0))
	}
	for _, c := range configs {
		tc := kmsg.NewCreateTopicsRequestTopicConfig()
		tc.Name, tc.Value = c[0], kmsg.StringPtr(c[1])
		t.Configs = append(t.Configs, tc)
	}
	spec, code, msg := w.ctl.CheckCreateTopic(t)
	if code != 0 {
		return TopicSpec{}, &topicError{code, msg}
	}
	return spec, nil
}

// extDeleteTopics deletes topics (by name, or by id from v6) through the
// controller, as [World.DeleteTopic] does. A topic a producer or a simple
// consumer of the world uses, and __consumer_offsets, are refused with
// POLICY_VIOLATION (those clients are not written to lose their topic).
func (w *World) extDeleteTopics(req *kmsg.DeleteTopicsRequest) *kmsg.DeleteTopicsResponse {
	resp := kmsg.NewPtrDeleteTopicsResponse()
	type ask struct {
		name *string
		id   [16]byte
	}
	var asks []ask
	for _, n := range req.TopicNames {
		asks = append(asks, ask{name: &n})
	}
	for _, t := range req.Topics {
		asks = append(asks, ask{name: t.Topic, id: t.TopicID})
	}
	for _, a := range asks {
		rt := kmsg.NewDeleteTopicsResponseTopic()
		rt.Topic, rt.TopicID = a.name, a.id
		var t *Topic
		if a.name != nil {
			t = w.topic(*a.name)
		} else {
			t = w.topicByID(a.id)
		}
		switch {
		case t == nil && a.name == nil:
			rt.ErrorCode = kafkaerr.UnknownTopicID
		case t == nil:
			rt.ErrorCode = kafkaerr.UnknownTopicOrPartition
		case t.Internal || w.topicInUse(t.Name):
			rt.ErrorCode = kafkaerr.PolicyViolation
			msg := fmt.Sprintf("topic %s is used by the simulated world's own clients (or is internal) and cannot be deleted", t.Name)
			rt.ErrorMessage = &msg
		default:
			name := t.Name
			rt.Topic, rt.TopicID = &name, TopicUUID(t.ID)
			w.deleteTopic(name, "DeleteTopics from an external client")
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

// topicInUse reports whether a producer or a simple consumer of the world
// reads or writes topic (a group member may lose its topic: see
// [World.DeleteTopic]).
func (w *World) topicInUse(topic string) bool {
	for _, p := range w.producers {
		if p.Config().Topic == topic {
			return true
		}
	}
	for _, c := range w.consumers {
		if cfg := c.Config(); cfg.Group == "" && cfg.Topic == topic {
			return true
		}
	}
	return false
}

// extDescribeConfigs answers DescribeConfigs for topics (resource type 2)
// and brokers (4) with the configs the world models: a topic's log
// configs (source DYNAMIC_TOPIC_CONFIG when the topic sets them, else
// DEFAULT_CONFIG or, for the world's own log settings, STATIC_BROKER_CONFIG)
// and the broker's replication settings. Enough for kcat and the Java
// tools (kafka-configs --describe).
func (w *World) extDescribeConfigs(x *ExternalRequest, req *kmsg.DescribeConfigsRequest) *kmsg.DescribeConfigsResponse {
	resp := kmsg.NewPtrDescribeConfigsResponse()
	for _, r := range req.Resources {
		rr := kmsg.NewDescribeConfigsResponseResource()
		rr.ResourceType, rr.ResourceName = r.ResourceType, r.ResourceName
		var entries, brokers []configEntry // brokers: a topic's configs as the brokers set them
		switch r.ResourceType {
		case kmsg.ConfigResourceTypeTopic:
			// Kafka 3.7's ConfigHelper.describeConfigs: the name is
			// checked (Topic.validate), an unknown topic answered
			// without a message
			if err := CheckTopicName(r.ResourceName); err != nil {
				rr.ErrorCode = kafkaerr.InvalidTopicException
				msg := err.Error()
				rr.ErrorMessage = &msg
				break
			}
			t := w.topic(r.ResourceName)
			if t == nil {
				rr.ErrorCode = kafkaerr.UnknownTopicOrPartition
				break
			}
			entries, brokers = w.topicConfigEntries(t.Own()), w.brokersConfigEntries(t)
		case kmsg.ConfigResourceTypeBroker:
			if id, err := strconv.Atoi(r.ResourceName); r.ResourceName != "" && (err != nil || int32(id) != x.Broker) {
				rr.ErrorCode = kafkaerr.InvalidRequest
				msg := "Unexpected broker id, expected " + strconv.Itoa(int(x.Broker)) + " or empty string, but received " + r.ResourceName
				rr.ErrorMessage = &msg
				break
			}
			entries = w.brokerConfigEntries(x.Broker)
		default:
			rr.ErrorCode = kafkaerr.InvalidRequest
			msg := fmt.Sprintf("Unsupported resource type %d", r.ResourceType)
			rr.ErrorMessage = &msg
		}
		for i, e := range entries {
			if r.ConfigNames != nil && !slices.Contains(r.ConfigNames, e.name) {
				continue
			}
			c := kmsg.NewDescribeConfigsResponseResourceConfig()
			v := e.value
			c.Name, c.Value, c.IsDefault, c.Source, c.ConfigType, c.ReadOnly = e.name, &v, e.source == kmsg.ConfigSourceDefaultConfig, e.source, e.typ, r.ResourceType == kmsg.ConfigResourceTypeBroker
			if req.IncludeSynonyms && r.ResourceType == kmsg.ConfigResourceTypeTopic {
				for _, syn := range synonymsOf(e, brokers[i]) {
					cs := kmsg.NewDescribeConfigsResponseResourceConfigConfigSynonym()
					src, _ := kmsg.ParseConfigSource(syn.Source)
					cs.Name, cs.Value, cs.Source = syn.Name, kmsg.StringPtr(syn.Value), src
					c.ConfigSynonyms = append(c.ConfigSynonyms, cs)
				}
			}
			rr.Configs = append(rr.Configs, c)
		}
		resp.Resources = append(resp.Resources, rr)
	}
	return resp
}

// brokerEntry is one of a broker's configs.
func brokerEntry(name, value string, source kmsg.ConfigSource, typ kmsg.ConfigType) configEntry {
	return configEntry{name: name, value: value, source: source, typ: typ}
}

// configEntry is one config as DescribeConfigs reports it: a broker's, or
// a topic's (topic then holds it as the table gives it).
type configEntry struct {
	name, value string
	source      kmsg.ConfigSource
	typ         kmsg.ConfigType
	topic       topicconfig.Entry
}

// topicConfigEntries are a topic's configs as DescribeConfigs reports
// them (topicconfig.Entries).
func (w *World) topicConfigEntries(own topicconfig.Own) []configEntry {
	es := topicconfig.Entries(w.brokerSettings(), own)
	out := make([]configEntry, len(es))
	for i, e := range es {
		out[i] = configEntry{name: e.Key.Name, value: e.Value, source: e.Source, typ: e.Key.Type, topic: e}
	}
	return out
}

func (w *World) brokerConfigEntries(id int32) []configEntry {
	static := kmsg.ConfigSourceStaticBrokerConfig
	autoCreateSource := kmsg.ConfigSourceDefaultConfig
	if w.cfg.DisableAutoCreateTopics {
		autoCreateSource = static
	}
	fetchMaxSource := kmsg.ConfigSourceDefaultConfig
	if w.cfg.FetchMaxBytes != DefaultFetchMaxBytes {
		fetchMaxSource = static
	}
	l := w.cfg.Log
	return []configEntry{
		brokerEntry("auto.create.topics.enable", strconv.FormatBool(!w.cfg.DisableAutoCreateTopics), autoCreateSource, kmsg.ConfigTypeBoolean),
		brokerEntry("broker.id", strconv.Itoa(int(id)), static, kmsg.ConfigTypeInt),
		brokerEntry("default.replication.factor", strconv.Itoa(DefaultReplicationFactor), kmsg.ConfigSourceDefaultConfig, kmsg.ConfigTypeInt),
		brokerEntry("fetch.max.bytes", strconv.FormatInt(w.cfg.FetchMaxBytes, 10), fetchMaxSource, kmsg.ConfigTypeInt),
		brokerEntry("log.cleanup.policy", l.CleanupPolicy, static, kmsg.ConfigTypeList),
		brokerEntry("log.dirs", LogDir, static, kmsg.ConfigTypeString),
		brokerEntry("log.retention.bytes", strconv.FormatInt(l.RetentionBytes, 10), static, kmsg.ConfigTypeLong),
		brokerEntry("log.retention.ms", strconv.FormatInt(l.RetentionMs, 10), static, kmsg.ConfigTypeLong),
		brokerEntry("log.segment.bytes", strconv.FormatInt(l.SegmentBytes, 10), static, kmsg.ConfigTypeInt),
		brokerEntry("min.insync.replicas", strconv.Itoa(w.cfg.MinInsyncReplicas), static, kmsg.ConfigTypeInt),
		brokerEntry("num.partitions", strconv.Itoa(DefaultNumPartitions), kmsg.ConfigSourceDefaultConfig, kmsg.ConfigTypeInt),
		brokerEntry("offsets.topic.num.partitions", strconv.Itoa(w.cfg.OffsetsTopicNumPartitions), static, kmsg.ConfigTypeInt),
		brokerEntry("process.roles", strings.Join([]string{"broker", "controller"}[:1+btoi(w.cfg.CombinedControllers)], ","), static, kmsg.ConfigTypeList),
		brokerEntry("replica.lag.time.max.ms", strconv.FormatInt(w.cfg.ReplicaLagTimeMaxMs, 10), static, kmsg.ConfigTypeLong),
		brokerEntry("unclean.leader.election.enable", strconv.FormatBool(w.cfg.UncleanLeaderElectionEnable), static, kmsg.ConfigTypeBoolean),
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
