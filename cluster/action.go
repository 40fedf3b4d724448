package cluster

// ActionKind names an action from outside the world.
type ActionKind string

// The actions. Each has a row in the table of actions (actions.go): how
// it is checked, applied and printed; most have a method on [World] that
// does it.
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
	// them ([World.AlterTopicConfigs]; topicconfigs.go); Value prints
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
	// ActCommitTransaction is producer Name's commitTransaction: EndTxn
	// once its records are answered, and the coordinator has a COMMIT
	// marker written on each partition the transaction wrote to
	// (cluster/internal/client's transaction.go).
	ActCommitTransaction ActionKind = "commit-transaction"
	// ActAbortTransaction is producer Name's abortTransaction: EndTxn(abort),
	// ABORT markers.
	ActAbortTransaction ActionKind = "abort-transaction"
	// ActAddCopier adds a consume-transform-produce loop (Producer, with a
	// TransactionalID and its Copy source): a transactional producer that
	// reads its input partition at read_committed, copies each record to the
	// same partition of its topic and commits its group's offsets in the
	// same transaction, as Kafka's TransactionalMessageCopier does
	// (cluster/internal/client's copier.go).
	ActAddCopier ActionKind = "add-copier"
	// ActAbortHanging is an admin client's abort of a hanging transaction
	// (kafka-transactions abort, Kafka 3.7's Admin.abortTransaction): a
	// WriteTxnMarkers with one ABORT marker for partition Partition of
	// topic Name, Marker's producer id, epoch and coordinator epoch, sent
	// to the partition's leader, which appends it as a coordinator's
	// marker (acks=all) and answers the cluster's admin node.
	ActAbortHanging ActionKind = "abort-hanging"
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
	// Marker is an abort-hanging's transaction to abort.
	Marker AbortSpec
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
	w.record(EventAction, a.Broker, nil, "%s", a.String())
	if err := w.apply(a); err != nil {
		return err
	}
	w.flushCheckpoints()
	w.runChecker()
	w.snapshot()
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
