package cluster

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/client"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
)

// actionRow is what the world does with one kind of action: check it
// before it is recorded (nil: nothing to check), apply it, and print it
// as a command line for the timeline (nil: its kind alone).
type actionRow struct {
	check  func(w *World, a Action) error
	apply  func(w *World, a Action) error
	format func(a Action) string
}

// actionTable has a row for every kind of action; adding an action is one
// row (and its constant).
var actionTable map[ActionKind]actionRow

func init() {
	actionTable = map[ActionKind]actionRow{
		ActCreateTopic: {
			check: func(w *World, a Action) error {
				if a.Topic.Name == "" || w.ctl.Topic(a.Topic.Name) != nil {
					return fmt.Errorf("%w: topic name %q empty or taken", ErrInvalidConfig, a.Topic.Name)
				}
				_, err := w.ctl.Assignment(a.Topic, nil)
				return err
			},
			apply: func(w *World, a Action) error { return w.createTopic(a.Topic) },
			format: func(a Action) string {
				return fmt.Sprintf("create-topic %s assignment=%v", a.Topic.Name, a.Topic.Assignment)
			},
		},
		ActAddProducer: {
			check: func(w *World, a Action) error {
				if a.Producer.Copy.Topic != "" {
					return fmt.Errorf("%w: add-producer %s: a producer that copies is added by add-copier", ErrInvalidConfig, a.Producer.Name)
				}
				return client.CheckProducer(w.env(), a.Producer, w.producer(a.Producer.Name) != nil)
			},
			apply: func(w *World, a Action) error { return w.addProducer(a.Producer) },
			format: func(a Action) string {
				s := fmt.Sprintf("add-producer %s topic=%s acks=%s keys=%s", a.Producer.Name, a.Producer.Topic, a.Producer.Acks, strings.Join(a.Producer.Keys, ","))
				if a.Producer.LingerMs != 0 {
					s += fmt.Sprintf(" linger.ms=%d", max(0, a.Producer.LingerMs))
				}
				if a.Producer.TransactionalID != "" {
					s += " transactional.id=" + a.Producer.TransactionalID
				}
				return s
			},
		},
		ActAddCopier: {
			check: func(w *World, a Action) error {
				if a.Producer.Copy.Topic == "" {
					return fmt.Errorf("%w: add-copier %s: no input topic", ErrInvalidConfig, a.Producer.Name)
				}
				return client.CheckProducer(w.env(), a.Producer, w.producer(a.Producer.Name) != nil)
			},
			apply:  func(w *World, a Action) error { return w.addProducer(a.Producer) },
			format: copierLine,
		},
		ActAddConsumer: {
			check: func(w *World, a Action) error {
				return client.CheckConsumer(w.env(), a.Consumer, w.consumer(a.Consumer.Name) != nil)
			},
			apply: func(w *World, a Action) error { return w.addConsumer(a.Consumer) },
			format: func(a Action) string {
				if a.Consumer.Group != "" {
					return consumerString(a.Consumer)
				}
				return fmt.Sprintf("add-consumer %s topic=%s partition=%d", a.Consumer.Name, a.Consumer.Topic, a.Consumer.Partition) + isolationString(a.Consumer)
			},
		},
		ActProduce: {
			check: func(w *World, a Action) error {
				p, err := w.namedProducer(a.Name)
				if err != nil {
					return err
				}
				return p.CheckProduce(w.env(), a.Partition, a.TimestampMs)
			},
			apply: func(w *World, a Action) error {
				return w.producer(a.Name).Produce(w.env(), a.Key, a.Value, a.Null, a.Partition, a.TimestampMs)
			},
			format: func(a Action) string {
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
			},
		},
		ActPoll: {
			check: func(w *World, a Action) error {
				if c := w.consumer(a.Name); c == nil || c.IsGroup() {
					return fmt.Errorf("%w: no simple consumer %q", ErrInvalidConfig, a.Name)
				}
				return nil
			},
			apply:  func(w *World, a Action) error { w.consumer(a.Name).Poll(w.env()); return nil },
			format: nameLine,
		},
		ActStop: {
			check:  brokerCheck(true),
			apply:  func(w *World, a Action) error { return w.brokers[a.Broker-1].Stop(w.env()) },
			format: brokerLine,
		},
		ActKill: {
			check:  brokerCheck(true),
			apply:  func(w *World, a Action) error { return w.brokers[a.Broker-1].Kill(w.env()) },
			format: brokerLine,
		},
		ActPowerCut: {
			check: brokerCheck(false),
			apply: func(w *World, a Action) error { return w.brokers[a.Broker-1].PowerCut(w.env(), a.Torn) },
			format: func(a Action) string {
				if a.Torn {
					return fmt.Sprintf("power-cut %d torn", a.Broker)
				}
				return fmt.Sprintf("power-cut %d", a.Broker)
			},
		},
		ActStart: {
			check: func(w *World, a Action) error {
				b, err := w.broker(a.Broker)
				if err == nil && b.State() == BrokerRunning {
					err = fmt.Errorf("%w: start: broker %d is running", ErrInvalidConfig, a.Broker)
				}
				return err
			},
			apply: func(w *World, a Action) error {
				w.peeks.forget(a.Broker)
				return w.brokers[a.Broker-1].Start(w.env())
			},
			format: brokerLine,
		},
		ActWriteback: {
			check:  brokerCheck(false),
			apply:  func(w *World, a Action) error { w.brokers[a.Broker-1].Writeback(w.env()); return nil },
			format: brokerLine,
		},
		ActPartition: {
			apply:  func(w *World, a Action) error { w.net.Partition(a.A, a.B); return nil },
			format: func(a Action) string { return fmt.Sprintf("partition %v %v", a.A, a.B) },
		},
		ActHeal: {
			apply: func(w *World, a Action) error { w.net.Heal(); return nil },
		},
		ActRun: {
			check:  countCheck,
			apply:  func(w *World, a Action) error { return w.runFor(a.Ms) },
			format: func(a Action) string { return fmt.Sprintf("run %d", a.Ms) },
		},
		ActDeliver: {
			check: countCheck,
			apply: func(w *World, a Action) error { return w.deliver(a.N, a.A, a.B) },
			format: func(a Action) string {
				if a.A != nil || a.B != nil {
					return fmt.Sprintf("deliver %d from=%v to=%v", a.N, a.A, a.B)
				}
				return fmt.Sprintf("deliver %d", a.N)
			},
		},
		ActDrop: {
			apply:  func(w *World, a Action) error { w.net.Drop(a.A, a.B); return nil },
			format: func(a Action) string { return fmt.Sprintf("drop from=%v to=%v", a.A, a.B) },
		},
		ActCloseConsumer: {
			check:  groupActionCheck,
			apply:  func(w *World, a Action) error { w.consumer(a.Name).Close(w.env()); return nil },
			format: kindNameLine,
		},
		ActCrashConsumer: {
			check:  groupActionCheck,
			apply:  func(w *World, a Action) error { w.consumer(a.Name).Crash(w.env()); return nil },
			format: kindNameLine,
		},
		ActRestartConsumer: {
			check:  groupActionCheck,
			apply:  func(w *World, a Action) error { return w.consumer(a.Name).Restart(w.env(), w.clientSettings()) },
			format: kindNameLine,
		},
		ActStallConsumer: {
			check:  groupActionCheck,
			apply:  func(w *World, a Action) error { w.consumer(a.Name).Stall(w.env(), a.Ms); return nil },
			format: func(a Action) string { return fmt.Sprintf("stall-consumer %s ms=%d", a.Name, a.Ms) },
		},
		ActAddPartitions: {
			check: func(w *World, a Action) error {
				if t := w.ctl.Topic(a.Name); t == nil || t.Internal || a.N <= len(t.Assignment) {
					return fmt.Errorf("%w: add-partitions %s count=%d", ErrInvalidConfig, a.Name, a.N)
				}
				return nil
			},
			apply:  func(w *World, a Action) error { return w.addPartitions(a.Name, a.N) },
			format: func(a Action) string { return fmt.Sprintf("add-partitions %s count=%d", a.Name, a.N) },
		},
		ActDeleteTopic: {
			check:  func(w *World, a Action) error { return w.validateDeleteTopic(a) },
			apply:  func(w *World, a Action) error { w.deleteTopic(a.Name, "delete-topic"); return nil },
			format: func(a Action) string { return "delete-topic " + a.Name },
		},
		ActSetProducer: {
			check: func(w *World, a Action) error {
				p, err := w.namedProducer(a.Name)
				if err != nil {
					return err
				}
				return p.CheckSet(setChange(a))
			},
			apply:  func(w *World, a Action) error { return w.producer(a.Name).Set(w.env(), setChange(a)) },
			format: setProducerString,
		},
		ActResetOffsets: {
			check: func(w *World, a Action) error {
				_, err := w.PlanReset(a.Reset)
				return err
			},
			apply: func(w *World, a Action) error { return w.resetOffsets(a.Reset) },
			format: func(a Action) string {
				to := a.Reset.To
				if to == ResetToOffset {
					to = fmt.Sprintf("offset:%d", a.Reset.Offset)
				}
				return fmt.Sprintf("reset-offsets %s topic=%s to=%s", a.Reset.Group, a.Reset.Topic, to)
			},
		},
		ActDeleteGroup: {
			check: func(w *World, a Action) error { return w.CheckDeleteGroup(a.Name) },
			apply: func(w *World, a Action) error {
				return deleteGroupErr(w.coordinatorOf(a.Name).DeleteGroup(w.env(), a.Name, "delete-group"))
			},
			format: func(a Action) string { return "delete-group " + a.Name },
		},
		ActAlterConfigs: {
			check:  func(w *World, a Action) error { return w.validateAlterConfigs(a) },
			apply:  func(w *World, a Action) error { w.alterTopicConfigs(a.Name, a.Topic, "alter-configs"); return nil },
			format: func(a Action) string { return "alter-configs " + a.Name + " " + a.Value },
		},
		ActCorrupt: {
			check: func(w *World, a Action) error {
				b, err := w.broker(a.Broker)
				if err != nil {
					return err
				}
				return b.CheckCorrupt(a.Name, a.Offset, a.N, a.Flip)
			},
			apply: func(w *World, a Action) error {
				return w.brokers[a.Broker-1].Corrupt(w.env(), a.Name, a.Offset, a.N, a.Flip)
			},
			format: func(a Action) string {
				if a.Flip {
					return fmt.Sprintf("corrupt %d %s %d --flip", a.Broker, a.Name, a.Offset)
				}
				return fmt.Sprintf("corrupt %d %s %d --zero %d", a.Broker, a.Name, a.Offset, a.N)
			},
		},
		ActWipe: {
			check: func(w *World, a Action) error {
				b, err := w.broker(a.Broker)
				if err != nil {
					return err
				}
				return b.CheckWipe(a.Name)
			},
			apply:  func(w *World, a Action) error { return w.brokers[a.Broker-1].Wipe(w.env(), a.Name) },
			format: func(a Action) string { return fmt.Sprintf("wipe %d %s", a.Broker, a.Name) },
		},
		ActCommitTransaction: {
			check:  endTransactionCheck,
			apply:  func(w *World, a Action) error { w.producer(a.Name).EndTransaction(w.env(), true); return nil },
			format: nameLine,
		},
		ActAbortTransaction: {
			check:  endTransactionCheck,
			apply:  func(w *World, a Action) error { w.producer(a.Name).EndTransaction(w.env(), false); return nil },
			format: nameLine,
		},
		ActAbortHanging: {
			check: func(w *World, a Action) error {
				k := partitionKey{Topic: a.Name, Partition: a.Partition}
				if t := w.ctl.Topic(a.Name); t == nil || a.Partition < 0 || int(a.Partition) >= len(t.Assignment) {
					return fmt.Errorf("%w: %s", ErrUnknownTopicOrPartition, k)
				}
				if l := w.ctl.Leader(k); l < 1 || int(l) > len(w.brokers) || w.brokers[l-1].State() != BrokerRunning {
					return fmt.Errorf("%w: %s has no running leader", ErrNotLeaderOrFollower, k)
				}
				return nil
			},
			apply: func(w *World, a Action) error {
				k := partitionKey{Topic: a.Name, Partition: a.Partition}
				w.brokers[w.ctl.Leader(k)-1].AbortHanging(w.env(), k, txn.Marker{ProducerID: a.Marker.ProducerID, Epoch: a.Marker.ProducerEpoch,
					CoordinatorEpoch: a.Marker.CoordinatorEpoch})
				return nil
			},
			format: func(a Action) string {
				return fmt.Sprintf("abort-hanging %s-%d producer-id=%d producer-epoch=%d coordinator-epoch=%d", a.Name, a.Partition,
					a.Marker.ProducerID, a.Marker.ProducerEpoch, a.Marker.CoordinatorEpoch)
			},
		},
		ActExternal: {
			check:  func(w *World, a Action) error { return w.validateExternal(a.External) },
			apply:  func(w *World, a Action) error { return w.external(a.External) },
			format: func(a Action) string { return externalString(a.External) },
		},
	}
}

// brokerCheck checks that an action names a broker, and, with running,
// that it runs (a stop or a kill of a broker that is down is refused).
func brokerCheck(running bool) func(w *World, a Action) error {
	return func(w *World, a Action) error {
		b, err := w.broker(a.Broker)
		if err == nil && running && b.State() != BrokerRunning {
			err = fmt.Errorf("%w: %s: broker %d is %s", ErrInvalidConfig, a.Kind, a.Broker, b.State())
		}
		return err
	}
}

// countCheck refuses a run or a delivery with a negative count.
func countCheck(w *World, a Action) error {
	if a.Ms < 0 || a.N < 0 {
		return fmt.Errorf("%w: %s with a negative count", ErrInvalidConfig, a.Kind)
	}
	return nil
}

// copierLine prints an add-copier action: "add-copier cp from=orders-0
// topic=audit group=g transactional.id=cp-tx".
func copierLine(a Action) string {
	p, c := a.Producer, a.Producer.Copy
	s := fmt.Sprintf("add-copier %s from=%s-%d topic=%s group=%s transactional.id=%s", p.Name, c.Topic, c.Partition, p.Topic, c.Group, p.TransactionalID)
	if c.MaxRecords != 0 {
		s += fmt.Sprintf(" max.poll.records=%d", c.MaxRecords)
	}
	if c.PollIntervalMs != 0 {
		s += fmt.Sprintf(" poll.ms=%d", c.PollIntervalMs)
	}
	if p.LingerMs != 0 {
		s += fmt.Sprintf(" linger.ms=%d", max(0, p.LingerMs))
	}
	return s
}

func brokerLine(a Action) string   { return fmt.Sprintf("%s %d", a.Kind, a.Broker) }
func nameLine(a Action) string     { return string(a.Kind) + " " + a.Name }
func kindNameLine(a Action) string { return fmt.Sprintf("%s %s", a.Kind, a.Name) }

// String prints the action as a command line, e.g. "kill 2", "run 500",
// "produce p key=a value=m1".
func (a Action) String() string {
	if row, ok := actionTable[a.Kind]; ok && row.format != nil {
		return row.format(a)
	}
	return string(a.Kind)
}

// validate checks an action before it is recorded.
func (w *World) validate(a Action) error {
	row, ok := actionTable[a.Kind]
	if !ok {
		return fmt.Errorf("%w: unknown action %q", ErrInvalidConfig, a.Kind)
	}
	if row.check == nil {
		return nil
	}
	return row.check(w, a)
}

// apply does an action's work.
func (w *World) apply(a Action) error { return actionTable[a.Kind].apply(w, a) }

// groupActionCheck checks a close, crash, restart or stall of a group
// consumer.
func groupActionCheck(w *World, a Action) error {
	return client.CheckGroupAction(w.consumer(a.Name), a.Name, string(a.Kind), a.Kind == ActRestartConsumer, a.Ms)
}

// endTransactionCheck checks a commit or abort of a producer's
// transaction.
func endTransactionCheck(w *World, a Action) error {
	p, err := w.namedProducer(a.Name)
	if err != nil {
		return err
	}
	return p.CheckEndTransaction(string(a.Kind))
}
