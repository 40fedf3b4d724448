package cluster

import (
	"fmt"
	"strings"
)

// ActionKind names an action from outside the world.
type ActionKind string

// The actions. Each has a method on [World] that applies and records it.
const (
	ActNew         ActionKind = "new"          // the world was created (always action 0)
	ActCreateTopic ActionKind = "create-topic" // Topic
	ActAddProducer ActionKind = "add-producer" // Producer
	ActAddConsumer ActionKind = "add-consumer" // Consumer
	ActProduce     ActionKind = "produce"      // Name, Key, Value, Partition, TimestampMs
	ActPoll        ActionKind = "poll"         // Name
	ActStop        ActionKind = "stop"         // Broker: clean shutdown
	ActKill        ActionKind = "kill"         // Broker: process crash
	ActPowerCut    ActionKind = "power-cut"    // Broker, Torn
	ActStart       ActionKind = "start"        // Broker
	ActWriteback   ActionKind = "writeback"    // Broker: OS writeback
	ActPartition   ActionKind = "partition"    // A, B: cut links between them
	ActHeal        ActionKind = "heal"         // restore every link
	ActRun         ActionKind = "run"          // Ms
	ActDeliver     ActionKind = "deliver"      // N messages (0: until quiet), only A -> B if set
	ActDrop        ActionKind = "drop"         // drop the messages in flight from A to B
	// ActCloseConsumer is a group consumer's clean close(): commit, revoke,
	// LeaveGroup (Name).
	ActCloseConsumer ActionKind = "close-consumer"
	// ActCrashConsumer kills a group consumer's process (Name): no commit,
	// no LeaveGroup.
	ActCrashConsumer ActionKind = "crash-consumer"
	// ActRestartConsumer starts a crashed or closed group consumer again
	// (Name), with the same client.id and group.instance.id.
	ActRestartConsumer ActionKind = "restart-consumer"
	// ActStallConsumer keeps a group consumer's application busy for Ms
	// (Name): no poll(), the heartbeat thread goes on.
	ActStallConsumer ActionKind = "stall-consumer"
	// ActAddPartitions grows topic Name to N partitions.
	ActAddPartitions ActionKind = "add-partitions"
	// ActDeleteTopic deletes topic Name (kafka-topics --delete; see
	// [World.DeleteTopic]).
	ActDeleteTopic ActionKind = "delete-topic"
	// ActSetProducer changes producer Name's rate, acks and keys to those
	// of Producer (Rate or RecordsPerSec, Acks, Keys).
	ActSetProducer ActionKind = "set-producer"
	// ActResetOffsets is kafka-consumer-groups --reset-offsets --execute
	// (Reset), allowed only while the group is Empty.
	ActResetOffsets ActionKind = "reset-offsets"
	// ActDeleteGroup deletes consumer group Name with its committed
	// offsets (kafka-consumer-groups --delete; see
	// [World.CheckDeleteGroup]), allowed only while the group is Empty.
	ActDeleteGroup ActionKind = "delete-group"
	// ActAlterConfigs gives topic Name the configs of Topic (its Config,
	// MinInsyncReplicas, UncleanLeaderElectionEnable and Overrides), as
	// kafka-configs --alter or a client's IncrementalAlterConfigs leave
	// them ([World.AlterTopicConfigs]; externalconfigs.go); Value prints
	// those configs (name=value,... or none), for the timeline.
	ActAlterConfigs ActionKind = "alter-configs"
	// ActCorrupt damages the durable bytes of one file of a broker that is down
	// (Broker, Name: the file's path under its log.dirs, e.g.
	// "notes-0/00000000000000000000.log", Offset): with Flip the byte at Offset has
	// its bits flipped, otherwise N bytes from Offset read back as zeros. Disks
	// and their firmware do this; LogSegment.recover's checks of every batch exist
	// for it.
	ActCorrupt ActionKind = "corrupt"
	// ActWipe removes a path under the log.dirs of a broker that is down
	// (Broker, Name: a partition directory such as "orders-0", or a file such
	// as "replication-offset-checkpoint"), with everything in it, as an
	// operator's rm -rf on the broker's host: what to do with a broker that
	// cannot start because a file is damaged ([BrokerFailed]).
	ActWipe ActionKind = "wipe"
	// ActCommitTransaction is producer Name's commitTransaction: its
	// transaction ends with a COMMIT marker on each partition it wrote to
	// (transaction.go).
	ActCommitTransaction ActionKind = "commit-transaction"
	// ActAbortTransaction is producer Name's abortTransaction: ABORT markers.
	ActAbortTransaction ActionKind = "abort-transaction"
	// ActExternal is one request of a Kafka client outside the world
	// (External), as its bytes came over the wire (external.go).
	ActExternal ActionKind = "external"
)

// Action is one thing done to the world from outside. Replaying the same
// actions on a world with the same [Config] gives the same events.
type Action struct {
	Kind      ActionKind
	Broker    int32
	Topic     TopicSpec
	Producer  ProducerConfig
	Consumer  ConsumerConfig
	Name      string
	Key       string
	Value     string
	Partition int32
	Torn      bool
	A, B      []int32
	Ms        int64
	N         int
	// Null sends a record with a null value (a tombstone) in a produce.
	Null bool
	// TimestampMs, when not nil, is a produce's record timestamp set by the
	// application (ProducerRecord's timestamp: CreateTime, ms since the
	// epoch), as a backfill sets it; nil lets the producer stamp the record
	// when it is produced. A negative one is [ErrInvalidConfig], as
	// ProducerRecord refuses it.
	TimestampMs *int64
	// Reset is a reset-offsets' group, topic and target.
	Reset OffsetReset
	// External is an external client's request.
	External *ExternalRequest
	// Offset is a corrupt's position in the file, Flip whether it flips the
	// byte there (else it zeroes N bytes).
	Offset int64
	Flip   bool
}

// String prints the action as a command line, e.g. "kill 2", "run 500",
// "produce p key=a value=m1".
func (a Action) String() string {
	switch a.Kind {
	case ActCreateTopic:
		return fmt.Sprintf("create-topic %s assignment=%v", a.Topic.Name, a.Topic.Assignment)
	case ActAddProducer:
		s := fmt.Sprintf("add-producer %s topic=%s acks=%s keys=%s", a.Producer.Name, a.Producer.Topic, a.Producer.Acks, strings.Join(a.Producer.Keys, ","))
		if a.Producer.LingerMs > 0 {
			s += fmt.Sprintf(" linger.ms=%d", a.Producer.LingerMs)
		}
		if a.Producer.TransactionalID != "" {
			s += " transactional.id=" + a.Producer.TransactionalID
		}
		return s
	case ActAddConsumer:
		if a.Consumer.isGroup() {
			return consumerString(a.Consumer)
		}
		return fmt.Sprintf("add-consumer %s topic=%s partition=%d", a.Consumer.Name, a.Consumer.Topic, a.Consumer.Partition)
	case ActCloseConsumer, ActCrashConsumer, ActRestartConsumer:
		return fmt.Sprintf("%s %s", a.Kind, a.Name)
	case ActStallConsumer:
		return fmt.Sprintf("stall-consumer %s ms=%d", a.Name, a.Ms)
	case ActAddPartitions:
		return fmt.Sprintf("add-partitions %s count=%d", a.Name, a.N)
	case ActDeleteTopic:
		return "delete-topic " + a.Name
	case ActSetProducer:
		return setProducerString(a)
	case ActDeleteGroup:
		return "delete-group " + a.Name
	case ActAlterConfigs:
		return "alter-configs " + a.Name + " " + a.Value
	case ActResetOffsets:
		to := a.Reset.To
		if to == ResetToOffset {
			to = fmt.Sprintf("offset:%d", a.Reset.Offset)
		}
		return fmt.Sprintf("reset-offsets %s topic=%s to=%s", a.Reset.Group, a.Reset.Topic, to)
	case ActProduce:
		s := fmt.Sprintf("produce %s value=%s", a.Name, a.Value)
		if a.Null {
			s = fmt.Sprintf("produce %s null", a.Name)
		}
		if a.Key != "" {
			s += " key=" + a.Key
		}
		if a.Partition >= 0 {
			s += fmt.Sprintf(" partition=%d", a.Partition)
		}
		if a.TimestampMs != nil {
			s += fmt.Sprintf(" timestamp-ms=%d", *a.TimestampMs)
		}
		return s
	case ActPoll, ActCommitTransaction, ActAbortTransaction:
		return string(a.Kind) + " " + a.Name
	case ActExternal:
		return externalString(a.External)
	case ActStop, ActKill, ActStart, ActWriteback:
		return fmt.Sprintf("%s %d", a.Kind, a.Broker)
	case ActPowerCut:
		if a.Torn {
			return fmt.Sprintf("power-cut %d torn", a.Broker)
		}
		return fmt.Sprintf("power-cut %d", a.Broker)
	case ActCorrupt:
		if a.Flip {
			return fmt.Sprintf("corrupt %d %s %d --flip", a.Broker, a.Name, a.Offset)
		}
		return fmt.Sprintf("corrupt %d %s %d --zero %d", a.Broker, a.Name, a.Offset, a.N)
	case ActWipe:
		return fmt.Sprintf("wipe %d %s", a.Broker, a.Name)
	case ActPartition:
		return fmt.Sprintf("partition %v %v", a.A, a.B)
	case ActRun:
		return fmt.Sprintf("run %d", a.Ms)
	case ActDeliver:
		if a.A != nil || a.B != nil {
			return fmt.Sprintf("deliver %d from=%v to=%v", a.N, a.A, a.B)
		}
		return fmt.Sprintf("deliver %d", a.N)
	case ActDrop:
		return fmt.Sprintf("drop from=%v to=%v", a.A, a.B)
	}
	return string(a.Kind)
}

// Do applies one action and records it. An invalid action (a broker that
// does not exist, starting a running broker) returns an error wrapping
// [ErrInvalidConfig] and is not recorded. An internal error during the
// action does not fail it: it is recorded ([World.InternalErrors], an
// [EventError] event) and the world goes on.
func (w *World) Do(a Action) error {
	if err := w.validate(a); err != nil {
		return err
	}
	w.actions = append(w.actions, a)
	w.actionBytes += actionSize(&a)
	w.record(EventAction, a.Broker, nil, "%s", a)
	if err := w.apply(a); err != nil {
		return err
	}
	w.flushCheckpoints()
	w.runChecker()
	w.snapshot()
	return nil
}

// validate checks an action before it is recorded.
func (w *World) validate(a Action) error {
	switch a.Kind {
	case ActStop, ActKill, ActPowerCut, ActStart, ActWriteback:
		b, err := w.broker(a.Broker)
		if err != nil {
			return err
		}
		if (a.Kind == ActStop || a.Kind == ActKill) && b.State() != BrokerRunning {
			return fmt.Errorf("%w: %s: broker %d is %s", ErrInvalidConfig, a.Kind, a.Broker, b.State())
		}
		if a.Kind == ActStart && b.State() == BrokerRunning {
			return fmt.Errorf("%w: start: broker %d is running", ErrInvalidConfig, a.Broker)
		}
	case ActCorrupt:
		return w.validateCorrupt(a)
	case ActWipe:
		return w.validateWipe(a)
	case ActProduce:
		p := w.producer(a.Name)
		if p == nil {
			return fmt.Errorf("%w: no producer %q", ErrInvalidConfig, a.Name)
		}
		if t := w.topic(p.cfg.Topic); t != nil && a.Partition >= int32(len(t.Assignment)) {
			return fmt.Errorf("%w: produce: topic %s has no partition %d", ErrInvalidConfig, t.Name, a.Partition)
		}
		if a.TimestampMs != nil && *a.TimestampMs < 0 {
			return fmt.Errorf("%w: produce: ProducerRecord: Invalid timestamp: %d. Timestamp should always be non-negative or null.", ErrInvalidConfig, *a.TimestampMs)
		}
	case ActCommitTransaction, ActAbortTransaction:
		return w.validateEndTransaction(a)
	case ActPoll:
		if c := w.consumer(a.Name); c == nil || c.grp != nil {
			return fmt.Errorf("%w: no simple consumer %q", ErrInvalidConfig, a.Name)
		}
	case ActCloseConsumer, ActCrashConsumer, ActRestartConsumer, ActStallConsumer:
		return w.validateGroupAction(a)
	case ActSetProducer:
		return w.validateSetProducer(a)
	case ActResetOffsets:
		_, err := w.PlanReset(a.Reset)
		return err
	case ActDeleteGroup:
		return w.CheckDeleteGroup(a.Name)
	case ActAlterConfigs:
		return w.validateAlterConfigs(a)
	case ActAddPartitions:
		if t := w.topic(a.Name); t == nil || t.Internal || a.N <= len(t.Assignment) {
			return fmt.Errorf("%w: add-partitions %s count=%d", ErrInvalidConfig, a.Name, a.N)
		}
	case ActDeleteTopic:
		return w.validateDeleteTopic(a)
	case ActRun, ActDeliver:
		if a.Ms < 0 || a.N < 0 {
			return fmt.Errorf("%w: %s with a negative count", ErrInvalidConfig, a.Kind)
		}
	case ActCreateTopic:
		if a.Topic.Name == "" || w.topic(a.Topic.Name) != nil {
			return fmt.Errorf("%w: topic name %q empty or taken", ErrInvalidConfig, a.Topic.Name)
		}
		_, err := w.ctl.Assignment(a.Topic, nil)
		return err
	case ActAddProducer:
		if _, err := parseAcks(a.Producer.Acks); err != nil {
			return err
		}
		if pt := a.Producer.Partitioner; pt != "" && pt != PartitionerSticky && pt != PartitionerUniformSticky || a.Producer.BatchSize < 0 || a.Producer.LingerMs < 0 {
			return fmt.Errorf("%w: producer %q: partitioner %q, batch.size %d, linger.ms %d", ErrInvalidConfig, a.Producer.Name, pt, a.Producer.BatchSize, a.Producer.LingerMs)
		}
		if w.topic(a.Producer.Topic) == nil || a.Producer.Name == "" || w.producer(a.Producer.Name) != nil {
			return fmt.Errorf("%w: producer %q of topic %q", ErrInvalidConfig, a.Producer.Name, a.Producer.Topic)
		}
	case ActAddConsumer:
		if a.Consumer.isGroup() {
			return w.validateGroupConsumer(a.Consumer)
		}
		t := w.topic(a.Consumer.Topic)
		if t == nil || a.Consumer.Partition < 0 || int(a.Consumer.Partition) >= len(t.Assignment) || a.Consumer.Name == "" || w.consumer(a.Consumer.Name) != nil {
			return fmt.Errorf("%w: consumer %q of %s-%d", ErrInvalidConfig, a.Consumer.Name, a.Consumer.Topic, a.Consumer.Partition)
		}
	case ActExternal:
		return w.validateExternal(a.External)
	case ActPartition, ActHeal, ActDrop:
	default:
		return fmt.Errorf("%w: unknown action %q", ErrInvalidConfig, a.Kind)
	}
	return nil
}

func (w *World) apply(a Action) error {
	switch a.Kind {
	case ActCreateTopic:
		return w.createTopic(a.Topic)
	case ActAddProducer:
		return w.addProducer(a.Producer)
	case ActSetProducer:
		return w.setProducer(a)
	case ActResetOffsets:
		return w.resetOffsets(a.Reset)
	case ActDeleteGroup:
		return deleteGroupErr(w.coordinatorOf(a.Name).DeleteGroup(w.env(), a.Name, "delete-group"))
	case ActAddConsumer:
		return w.addConsumer(a.Consumer)
	case ActProduce:
		return w.produceStamped(w.producer(a.Name), a.Key, a.Value, a.Null, a.Partition, a.TimestampMs)
	case ActCloseConsumer:
		w.closeConsumer(w.consumer(a.Name))
	case ActCrashConsumer:
		w.crashConsumer(w.consumer(a.Name))
	case ActRestartConsumer:
		c := w.consumer(a.Name)
		w.record(EventGroup, 0, nil, "%s restarts", a.Name)
		return w.startGroupClient(c)
	case ActStallConsumer:
		c := w.consumer(a.Name)
		c.grp.stalledUntil = w.now + a.Ms
		w.record(EventGroup, 0, nil, "%s is busy processing for %d ms (no poll)", a.Name, a.Ms)
	case ActAddPartitions:
		return w.addPartitions(a.Name, a.N)
	case ActAlterConfigs:
		w.alterTopicConfigs(a.Name, a.Topic, "alter-configs")
	case ActDeleteTopic:
		w.deleteTopic(a.Name, "delete-topic")
	case ActCommitTransaction, ActAbortTransaction:
		w.endTransaction(w.producer(a.Name), a.Kind == ActCommitTransaction)
	case ActPoll:
		w.poll(w.consumer(a.Name))
	case ActStop:
		return w.brokers[a.Broker-1].Stop(w.env())
	case ActKill:
		return w.brokers[a.Broker-1].Kill(w.env())
	case ActPowerCut:
		return w.brokers[a.Broker-1].PowerCut(w.env(), a.Torn)
	case ActStart:
		w.peeks.forget(a.Broker)
		return w.brokers[a.Broker-1].Start(w.env())
	case ActWriteback:
		w.brokers[a.Broker-1].Writeback(w.env())
	case ActCorrupt:
		return w.corrupt(a)
	case ActWipe:
		return w.wipe(a)
	case ActPartition:
		w.net.Partition(a.A, a.B)
	case ActHeal:
		w.net.Heal()
	case ActRun:
		return w.runFor(a.Ms)
	case ActDeliver:
		return w.deliver(a.N, a.A, a.B)
	case ActDrop:
		w.net.Drop(a.A, a.B)
	case ActExternal:
		return w.external(a.External)
	}
	return nil
}

// deliver delivers n messages in flight (0: until quiet). With from or to
// set it delivers the oldest messages between those nodes first (the
// network may reorder messages of different links).
func (w *World) deliver(n int, from, to []int32) error {
	if from == nil && to == nil {
		if n == 0 {
			w.quiet()
			return nil
		}
		for i := 0; i < n && w.net.Len() > 0; i++ {
			w.deliverNext()
		}
		return nil
	}
	for i := 0; n == 0 || i < n; i++ {
		if !w.net.MoveFirst(from, to) {
			return nil
		}
		w.deliverNext()
	}
	return nil
}

// CreateTopic creates a topic and its partitions (leader: the first live
// replica; ISR: the live replicas; leader epoch 0).
func (w *World) CreateTopic(spec TopicSpec) error {
	return w.Do(Action{Kind: ActCreateTopic, Topic: spec})
}

// AddProducer adds a producer.
func (w *World) AddProducer(cfg ProducerConfig) error {
	return w.Do(Action{Kind: ActAddProducer, Producer: cfg})
}

// AddConsumer adds a simple consumer.
func (w *World) AddConsumer(cfg ConsumerConfig) error {
	return w.Do(Action{Kind: ActAddConsumer, Consumer: cfg})
}

// Produce has producer name send one record now (partition -1: the
// partitioner chooses). The request is in flight until messages are
// delivered ([World.Deliver], [World.RunFor]).
func (w *World) Produce(name, key, value string, partition int32) error {
	return w.Do(Action{Kind: ActProduce, Name: name, Key: key, Value: value, Partition: partition})
}

// CloseConsumer closes group consumer name cleanly.
func (w *World) CloseConsumer(name string) error {
	return w.Do(Action{Kind: ActCloseConsumer, Name: name})
}

// CrashConsumer kills group consumer name's process.
func (w *World) CrashConsumer(name string) error {
	return w.Do(Action{Kind: ActCrashConsumer, Name: name})
}

// RestartConsumer starts group consumer name again after a crash or close.
func (w *World) RestartConsumer(name string) error {
	return w.Do(Action{Kind: ActRestartConsumer, Name: name})
}

// StallConsumer keeps group consumer name from polling for ms.
func (w *World) StallConsumer(name string, ms int64) error {
	return w.Do(Action{Kind: ActStallConsumer, Name: name, Ms: ms})
}

// AddPartitions grows topic to count partitions.
func (w *World) AddPartitions(topic string, count int) error {
	return w.Do(Action{Kind: ActAddPartitions, Name: topic, N: count})
}

// Poll has consumer name read what the leader exposes.
func (w *World) Poll(name string) error { return w.Do(Action{Kind: ActPoll, Name: name}) }

// Stop shuts broker id down cleanly.
func (w *World) Stop(id int32) error { return w.Do(Action{Kind: ActStop, Broker: id}) }

// Kill crashes broker id's process; its page cache survives.
func (w *World) Kill(id int32) error { return w.Do(Action{Kind: ActKill, Broker: id}) }

// PowerCut cuts broker id's power: only synced data survives; with torn,
// each file also keeps a random prefix of its unsynced tail.
func (w *World) PowerCut(id int32, torn bool) error {
	return w.Do(Action{Kind: ActPowerCut, Broker: id, Torn: torn})
}

// Start starts broker id (log recovery, registration).
func (w *World) Start(id int32) error { return w.Do(Action{Kind: ActStart, Broker: id}) }

// Writeback has the OS write broker id's dirty pages to disk.
func (w *World) Writeback(id int32) error { return w.Do(Action{Kind: ActWriteback, Broker: id}) }

// Corrupt damages the durable bytes of file name (its path under broker id's
// log.dirs) while the broker is down: with flip the byte at offset has its bits
// flipped, otherwise n bytes from offset read back as zeros.
func (w *World) Corrupt(id int32, name string, offset int64, n int, flip bool) error {
	return w.Do(Action{Kind: ActCorrupt, Broker: id, Name: name, Offset: offset, N: n, Flip: flip})
}

// Partition cuts every link between the nodes in a and those in b (brokers
// 1..N, [ControllerID], producers 101.., consumers 100).
func (w *World) Partition(a, b []int32) error {
	return w.Do(Action{Kind: ActPartition, A: a, B: b})
}

// Heal restores every network link.
func (w *World) Heal() error { return w.Do(Action{Kind: ActHeal}) }

// RunFor moves the clock ms milliseconds forward, tick by tick.
func (w *World) RunFor(ms int64) error { return w.Do(Action{Kind: ActRun, Ms: ms}) }

// Deliver delivers the n oldest messages in flight (n = 0: until quiet),
// without moving the clock.
func (w *World) Deliver(n int) error { return w.Do(Action{Kind: ActDeliver, N: n}) }

// DeliverBetween delivers the n oldest messages from a node in from to a
// node in to (nil: any), ahead of the others (n = 0: all of them).
func (w *World) DeliverBetween(n int, from, to []int32) error {
	return w.Do(Action{Kind: ActDeliver, N: n, A: from, B: to})
}

// Drop drops the messages in flight from a node in from to a node in to
// (nil: any).
func (w *World) Drop(from, to []int32) error { return w.Do(Action{Kind: ActDrop, A: from, B: to}) }
