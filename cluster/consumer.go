package cluster

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/replica"
)

// ConsumerConfig describes a consumer. Without Group it is a simple
// consumer of one partition (Topic, Partition): no group, no commits. With
// Group it is a member of that consumer group subscribed to Topics, which
// joins, heartbeats, polls every PollIntervalMs and commits (R9, R10).
// Either kind reads what the leader exposes, the records below the high
// watermark (a consumer reads below the HW).
type ConsumerConfig struct {
	// Name is the consumer's name, also its client.id.
	Name      string
	Topic     string
	Partition int32
	// PollIntervalMs makes it poll on its own while the world runs (0: only
	// explicit [World.Poll]; a group consumer defaults to
	// [DefaultGroupPollIntervalMs]).
	PollIntervalMs int64

	// Group is group.id; "" for a simple consumer.
	Group string
	// Topics are the subscribed topics of a group consumer.
	Topics []string
	// Assignors is partition.assignment.strategy by name ("range",
	// "roundrobin", "sticky", "cooperative-sticky"; default Kafka 3.0+'s
	// [range, cooperative-sticky], which is eager range in practice).
	Assignors []string
	// GroupInstanceID is group.instance.id: a static member (KIP-345).
	GroupInstanceID string
	// CommitMode is [CommitAuto] (default), [CommitSync] or [CommitOff].
	CommitMode string
	// AutoCommitIntervalMs is auto.commit.interval.ms (default 5000).
	AutoCommitIntervalMs int64
	// AutoOffsetReset is auto.offset.reset: "latest" (default), "earliest"
	// or "none".
	AutoOffsetReset string
	// MaxPollRecords is max.poll.records (default 500).
	MaxPollRecords int
	// SessionTimeoutMs, HeartbeatIntervalMs and MaxPollIntervalMs are the
	// consumer's session.timeout.ms (45000), heartbeat.interval.ms (3000)
	// and max.poll.interval.ms (300000); 0 means the default.
	SessionTimeoutMs, HeartbeatIntervalMs, MaxPollIntervalMs int32
}

// Consumed is one record a consumer received.
type Consumed struct {
	Offset      int64
	Key, Value  string
	LeaderEpoch int32
	// FromBroker is the leader it was read from.
	FromBroker int32
}

// Consumer is a consumer client in the world.
type Consumer struct {
	cfg      ConsumerConfig
	position int64
	records  []Consumed
	nextPoll int64
	resets   int
	// grp is set for a group consumer.
	grp *groupClient
	// thrown is, per partition, the position at which the consumer's
	// poll last threw on damaged bytes (reported once per position).
	thrown map[partitionKey]int64
}

// Name returns the consumer's name.
func (c *Consumer) Name() string { return c.cfg.Name }

// Position returns the next offset it will read.
func (c *Consumer) Position() int64 { return c.position }

// Records returns what it received, in order. The caller must not modify it.
func (c *Consumer) Records() []Consumed { return c.records }

func (w *World) addConsumer(cfg ConsumerConfig) error {
	if cfg.isGroup() {
		return w.addGroupConsumer(cfg)
	}
	t := w.topic(cfg.Topic)
	if t == nil || cfg.Partition < 0 || int(cfg.Partition) >= len(t.Assignment) || cfg.Name == "" || w.consumer(cfg.Name) != nil {
		return fmt.Errorf("%w: consumer %q of %s-%d", ErrInvalidConfig, cfg.Name, cfg.Topic, cfg.Partition)
	}
	w.consumers = append(w.consumers, &Consumer{cfg: cfg, nextPoll: w.now + cfg.PollIntervalMs})
	return nil
}

func (w *World) consumer(name string) *Consumer {
	for _, c := range w.consumers {
		if c.cfg.Name == name {
			return c
		}
	}
	return nil
}

// poll reads the records in [position, HW) from the partition's leader. A
// position beyond the leader's log end is out of range: the consumer resets
// to the leader's HW (auto.offset.reset=latest) and says so.
func (w *World) poll(c *Consumer) {
	tp := partitionKey{Topic: c.cfg.Topic, Partition: c.cfg.Partition}
	leader := w.PartitionLeader(tp.Topic, tp.Partition)
	if leader == replica.NoLeader || w.net.Cut(leader, netsim.ConsumerNode) {
		return
	}
	b := w.brokers[leader-1]
	s := b.Partition(tp)
	if b.State() != BrokerRunning || s == nil || s.Node.Status().Role != replica.RoleLeader {
		return
	}
	hw := s.Node.Status().HighWatermark
	if c.position > s.Log.LogEndOffset() || c.position < s.Log.LogStartOffset() {
		w.record(EventConsume, leader, &tp, "%s: OFFSET_OUT_OF_RANGE at %d (log [%d, %d)), reset to HW %d", c.cfg.Name, c.position, s.Log.LogStartOffset(), s.Log.LogEndOffset(), hw)
		c.position = hw
		c.resets++
		return
	}
	limit, thrown := w.meetDamage(c, s, c.position, hw)
	if thrown {
		return
	}
	hw = min(hw, limit)
	fetched, byPart, _ := w.fetchEntries(s, c.position, int(max(hw-c.position, 1))) // every record below the HW: at most one per offset
	if byPart && len(fetched) > 0 && fetched[0].Offset < hw {
		w.noteFetch(c.cfg.Name, tp, c.position, fetched[0].Offset)
	}
	for _, e := range fetched {
		if e.Offset >= hw {
			break
		}
		if _, ok := controlEntry(&e); ok {
			c.position = e.Offset + 1 // a marker: not handed out, passed
			continue
		}
		c.records = append(c.records, Consumed{Offset: e.Offset, Key: string(e.Key), Value: string(e.Value), LeaderEpoch: e.LeaderEpoch, FromBroker: leader})
		v := string(e.Value)
		if e.Value == nil {
			v = "∅"
		}
		w.record(EventConsume, leader, &tp, "%s read offset %d: %s", c.cfg.Name, e.Offset, recordLabel(string(e.Key), v))
		c.position = e.Offset + 1
	}
}

// meetDamage is what consumer c's fetch at pos of the leader's log s meets
// of damaged bytes below the high watermark hw (bytes that did not decode
// when the leader opened its log: replicaLog.damaged). The leader sends
// them as they are and the consumer checks them (check.crcs=true): a fetch
// that begins at them throws the KafkaException of Kafka 3.7's consumer
// from poll, every time (recorded once per position): the application
// cannot move past them, and thrown is true; a fetch before them hands out
// the records below limit, where they begin. A header whose length runs
// past its segment reads as the segment's end: the records after it are
// read, those it hides are not (no limit).
func (w *World) meetDamage(c *Consumer, s *broker.Partition, pos, hw int64) (limit int64, thrown bool) {
	limit = hw
	d := s.Log.DamageFrom(pos)
	if d == nil || d.First >= hw || d.EndsSegment {
		return limit, false
	}
	if pos < d.First {
		return d.First, false
	}
	if last, ok := c.thrown[s.TP]; !ok || last != pos {
		if c.thrown == nil {
			c.thrown = map[partitionKey]int64{}
		}
		c.thrown[s.TP] = pos
		w.record(EventConsume, 0, &s.TP, "%s: poll threw KafkaException: %s", c.cfg.Name, d.ConsumerError(s.TP, pos))
	}
	return limit, true
}

// hidden reports whether damaged bytes of the leader's log s hold offsets
// from pos on below hw: a fetch that gets nothing there is not at the end of
// the log, and the consumer stays where it is.
func hidden(s *broker.Partition, pos, hw int64) bool {
	d := s.Log.DamageFrom(pos)
	return d != nil && d.First < hw
}

func (w *World) tickConsumer(c *Consumer) {
	if c.grp != nil {
		w.tickGroupConsumer(c)
		return
	}
	if c.cfg.PollIntervalMs > 0 && w.now >= c.nextPoll {
		c.nextPoll = w.now + c.cfg.PollIntervalMs
		w.poll(c)
	}
}
