package cluster

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/client"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// The world's producers and consumers are machines of their own
// (cluster/internal/client); the world keeps them in the order they were
// added, routes the envelopes addressed to them, ticks them, and hands
// them its actions. What users see of them is here.

// Producer defaults (Kafka's producer configs).
const (
	DefaultRequestTimeoutMs  = client.DefaultRequestTimeoutMs  // request.timeout.ms
	DefaultDeliveryTimeoutMs = client.DefaultDeliveryTimeoutMs // delivery.timeout.ms
	DefaultRetryBackoffMs    = client.DefaultRetryBackoffMs    // retry.backoff.ms
	DefaultRetryBackoffMaxMs = client.DefaultRetryBackoffMaxMs // retry.backoff.max.ms (Kafka 3.7+, KIP-580)
)

// DefaultBatchSize is batch.size.
const DefaultBatchSize = client.DefaultBatchSize

// DefaultMaxRequestSize is the producer's max.request.size (1 MiB): the
// producer refuses, itself, a record whose batch would be larger
// (KafkaProducer.ensureValidRecordSize, RecordTooLargeException).
const DefaultMaxRequestSize = client.DefaultMaxRequestSize

// ProducerConfig describes a producer. With linger.ms 0 (Kafka 3.7's
// default, or [NoLinger]) each record is sent alone, as one batch, to the
// leader the controller names (instant metadata); with LingerMs above 0
// (Kafka 4's default is 5 ms, KIP-1030) the records for one partition wait
// and travel together as one batch.
//
// The zero values of Acks, EnableIdempotence, Partitioner and LingerMs are the
// defaults of the client of the world's rule set ([Config.Rules]): under
// [replica.V3_7] and later those of a current Java client (Kafka 3.7's
// ProducerConfig: acks=all and enable.idempotence=true since 3.0, KIP-679;
// the built-in uniform sticky partitioner since 3.3, KIP-794), under the
// older rule sets those of the clients of their time (acks=1,
// enable.idempotence=false, KIP-480's sticky partitioner).
// [ActCommitTransaction] and [ActAbortTransaction] end the transactions of
// a producer with a TransactionalID.
type ProducerConfig = client.ProducerConfig

// CopySource makes a transactional producer a consume-transform-produce
// loop ([ActAddCopier]): its input partition, the group whose offsets its
// transactions commit, max.poll.records and how often it polls.
type CopySource = client.CopySource

// CopyValue is the value a copier writes for the record at offset of its
// input partition, "topic-partition@offset:value"; ParseCopyValue reads it
// back.
var (
	CopyValue      = client.CopyValue
	ParseCopyValue = client.ParseCopyValue
)

// NoLinger, as [ProducerConfig].LingerMs, is linger.ms=0 set explicitly
// (the zero value is the rule set's default: 5 ms under [replica.V4]).
const NoLinger = client.NoLinger

// Partitioners for records without a key ([ProducerConfig].Partitioner).
const (
	// PartitionerSticky is KIP-480's (Kafka 2.4-3.2): a new partition with
	// each new batch.
	PartitionerSticky = client.PartitionerSticky
	// PartitionerUniformSticky is KIP-794's built-in partitioner (3.3+): a
	// new partition, drawn uniformly, once batch.size bytes went to the
	// current one.
	PartitionerUniformSticky = client.PartitionerUniformSticky
)

// Bool returns a pointer to b, for [ProducerConfig].EnableIdempotence.
func Bool(b bool) *bool { return &b }

// Result is what a producer was told about one record.
type Result = client.Result

// Producer is a producer client in the world ([World.Producers]). Its
// Name, Config, Results (what it was told about each record, in send
// order) and RatePerSec read it; the world drives the rest.
type Producer = client.Producer

// ConsumerConfig describes a consumer. Without Group it is a simple
// consumer of one partition (Topic, Partition): no group, no commits. With
// Group it is a member of that consumer group subscribed to Topics, which
// joins, heartbeats, polls every PollIntervalMs and commits (R9, R10).
// Either kind reads what the leader exposes, the records below the high
// watermark (a consumer reads below the HW).
type ConsumerConfig = client.ConsumerConfig

// Consumed is one record a consumer received.
type Consumed = client.Consumed

// Consumer is a consumer client in the world ([World.Consumers]): a simple
// consumer of one partition, or a member of a consumer group. Its Name and
// Config read either kind; Position and Records a simple consumer's
// reading; IsGroup, Status ("running", "closed", "crashed"), MemberID,
// MemberState and Processed (records processed, and duplicates among
// them) a group member. The world drives the rest.
type Consumer = client.Consumer

// Group consumer defaults (Kafka's consumer configs).
const (
	DefaultGroupPollIntervalMs  = client.DefaultGroupPollIntervalMs  // how often a group consumer calls poll() in the simulation
	DefaultAutoCommitIntervalMs = client.DefaultAutoCommitIntervalMs // auto.commit.interval.ms
	DefaultMaxPollRecords       = client.DefaultMaxPollRecords       // max.poll.records
	DefaultAutoOffsetReset      = client.DefaultAutoOffsetReset
)

// Commit modes of a group consumer ([ConsumerConfig].CommitMode).
const (
	// CommitAuto is enable.auto.commit=true: inside poll(), every
	// auto.commit.interval.ms, commit the positions (everything earlier polls
	// returned counts as processed); also before revoking and on close.
	CommitAuto = client.CommitAuto
	// CommitSync is enable.auto.commit=false with commitSync() of the
	// processed offsets once a poll's records are processed, that is at the
	// start of the next poll (after a busy spell, [World.StallConsumer]).
	// The application keeps those offsets even if its partitions were lost
	// meanwhile, so the commit then fails (CommitFailedException).
	CommitSync = client.CommitSync
	// CommitOff never commits.
	CommitOff = client.CommitOff
)

// The group protocols of a group consumer ([ConsumerConfig].GroupProtocol).
const (
	// GroupProtocolClassic is group.protocol=classic (JoinGroup, SyncGroup,
	// a leader that assigns): the default, as in Kafka 4's Java consumer.
	GroupProtocolClassic = client.ProtocolClassic
	// GroupProtocolConsumer is group.protocol=consumer (KIP-848): the
	// coordinator assigns, members move one at a time on their heartbeats.
	GroupProtocolConsumer = client.ProtocolConsumer
)

// Isolation levels of a consumer ([ConsumerConfig].IsolationLevel).
const (
	// ReadUncommitted (the default) reads up to the high watermark, the
	// records of open and aborted transactions too.
	ReadUncommitted = client.ReadUncommitted
	// ReadCommitted reads up to the last stable offset and skips the
	// records of aborted transactions.
	ReadCommitted = client.ReadCommitted
)

// CheckAssignment refuses an assignment the group could not run: a partition that
// does not exist or is given twice, a member left out or unknown.
func CheckAssignment(got group.Assignment, members []group.MemberSubscription, topics []group.TopicMetadata) error {
	return client.CheckAssignment(got, members, topics)
}

// SetProducer changes producer name's rate (records a second, a fraction
// like 1.5 allowed), acks ("0", "1", "all"; "" is the rule set's default)
// and keys (none: the keyless partitioner). Records already sent keep the
// acks they were sent with, retries included; a change of acks first sends
// the records still lingering. An enable.idempotence left to its default
// follows the acks (on with acks=all under [replica.V3_7] and later, as a client
// configured anew would be); one set to true refuses acks other than all.
func (w *World) SetProducer(name string, rate float64, acks string, keys []string) error {
	return w.Do(Action{Kind: ActSetProducer, Name: name, Producer: ProducerConfig{Rate: rate, Acks: acks, Keys: keys}})
}

// Producers returns the producers, in the order they were added. The
// caller must not modify them.
func (w *World) Producers() []*Producer { return w.producers }

// Consumers returns the consumers, in the order they were added. The
// caller must not modify them.
func (w *World) Consumers() []*Consumer { return w.consumers }

// clientSettings are what the world's clients follow of its config.
func (w *World) clientSettings() client.Settings {
	return client.Settings{Rules: w.cfg.Rules, TickMs: w.cfg.TickMs,
		EncodeBatch: w.cfg.Parts.EncodeBatch, CooperativeSticky: w.cfg.Parts.CooperativeSticky,
		ReadCommitted: w.cfg.Parts.ReadCommitted}
}

func (w *World) producer(name string) *Producer {
	for _, p := range w.producers {
		if p.Name() == name {
			return p
		}
	}
	return nil
}

// namedProducer is producer name, or an error saying there is none.
func (w *World) namedProducer(name string) (*Producer, error) {
	if p := w.producer(name); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("%w: no producer %q", ErrInvalidConfig, name)
}

func (w *World) consumer(name string) *Consumer {
	for _, c := range w.consumers {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

func (w *World) addProducer(cfg ProducerConfig) error {
	if w.producer(cfg.Name) != nil || cfg.Name == "" {
		return fmt.Errorf("%w: producer name %q empty or taken", ErrInvalidConfig, cfg.Name)
	}
	p, err := client.NewProducer(w.env(), w.clientSettings(), cfg, netsim.ProducerBase+int32(len(w.producers)))
	if err != nil {
		return err
	}
	w.producers = append(w.producers, p)
	return nil
}

func (w *World) addConsumer(cfg ConsumerConfig) error {
	if err := client.CheckConsumer(w.env(), cfg, w.consumer(cfg.Name) != nil); err != nil {
		return err
	}
	c, err := client.NewConsumer(w.env(), w.clientSettings(), cfg)
	if err != nil {
		return err
	}
	w.consumers = append(w.consumers, c)
	return nil
}

// refreshGroupMetadata tells every group member the partition counts (a
// metadata refresh; instant in the simulation).
func (w *World) refreshGroupMetadata() {
	for _, c := range w.consumers {
		c.RefreshMetadata(w.env())
	}
}

// deliverToConsumer hands a coordinator's answer to the consumer it is for.
func (w *World) deliverToConsumer(e *netsim.Envelope) {
	if c := w.consumer(e.Client); c != nil {
		c.Step(w.env(), e)
	}
}

// groupRequestDropped hands a group request to a broker (or a simulated
// producer's transactional request), or a
// coordinator's answer, that the network could not deliver to the
// consumer whose it is.
func (w *World) groupRequestDropped(e *netsim.Envelope, reason string) {
	broker := e.To
	switch e.Kind {
	case netsim.KindTxnRequest:
		// A simulated transactional producer's request to a broker that
		// does not run: the connection is refused, the producer retries.
		if i := int(e.From - netsim.ProducerBase); e.From >= netsim.ProducerBase && i < len(w.producers) && reason != "link cut" {
			w.producers[i].TxnRequestDropped(w.env(), e, reason)
		}
		return
	case netsim.KindReplica:
		// A simulated producer's produce request to a broker that does not
		// run: the connection is refused, the batch goes again.
		if i := int(e.From - netsim.ProducerBase); e.From >= netsim.ProducerBase && e.From < netsim.CoordinatorBase && i < len(w.producers) && reason != "link cut" && e.Msg.Type == replica.MsgProduce {
			w.producers[i].RequestDropped(w.env(), e)
		}
		return
	case netsim.KindGroupRequest:
	case netsim.KindGroupResponse:
		broker = e.From
	default:
		return
	}
	if broker < 1 || int(broker) > len(w.brokers) {
		return
	}
	if c := w.consumer(e.Client); c != nil {
		c.Dropped(w.env(), e, broker, reason)
	}
}

// consumerString prints a group consumer's add-consumer action.
func consumerString(c ConsumerConfig) string {
	s := fmt.Sprintf("add-consumer %s group=%s topics=%s assignors=%s", c.Name, c.Group, strings.Join(c.Topics, ","), strings.Join(c.Assignors, ","))
	if c.GroupProtocol == client.ProtocolConsumer {
		s = fmt.Sprintf("add-consumer %s group=%s topics=%s protocol=consumer", c.Name, c.Group, strings.Join(c.Topics, ","))
		if c.RemoteAssignor != "" {
			s += " remote-assignor=" + c.RemoteAssignor
		}
	}
	if c.GroupInstanceID != "" {
		s += " instance=" + c.GroupInstanceID
	}
	if c.CommitMode != "" {
		s += " commit=" + c.CommitMode
	}
	return s + isolationString(c)
}

// isolationString prints a consumer's isolation level when it is not the
// default.
func isolationString(c ConsumerConfig) string {
	if c.IsolationLevel == "" || c.IsolationLevel == client.ReadUncommitted {
		return ""
	}
	return " isolation=" + c.IsolationLevel
}

// setProducerString prints e.g. "set-producer clicks rate=1.5 acks=1
// keys=a,b" (keys=none without keys).
func setProducerString(a Action) string {
	rate := float64(a.Producer.RecordsPerSec)
	if a.Producer.Rate > 0 {
		rate = a.Producer.Rate
	}
	keys := strings.Join(a.Producer.Keys, ",")
	if keys == "" {
		keys = "none"
	}
	return fmt.Sprintf("set-producer %s rate=%s acks=%s keys=%s", a.Name, strconv.FormatFloat(rate, 'f', -1, 64), a.Producer.Acks, keys)
}

// setChange is what set-producer a changes.
func setChange(a Action) client.SetChange {
	return client.SetChange{Rate: a.Producer.Rate, RecordsPerSec: a.Producer.RecordsPerSec, Acks: a.Producer.Acks, Keys: a.Producer.Keys}
}

// consumersLeader returns the running leader replica of tp as the
// consumers reach it, with its broker, or nils: none when the partition
// has no leader, the consumers' link to it is cut, or the broker does not
// run or does not lead it.
func (w *World) consumersLeader(tp partitionKey) (*broker.Broker, *broker.Partition) {
	leader := w.PartitionLeader(tp.Topic, tp.Partition)
	if leader == replica.NoLeader || w.net.Cut(leader, netsim.ConsumerNode) {
		return nil, nil
	}
	b := w.brokers[leader-1]
	s := b.Partition(tp)
	if b.State() != BrokerRunning || s == nil || s.Node.Progress().Role != replica.RoleLeader {
		return nil, nil
	}
	return b, s
}
