package client

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// ConsumerConfig describes a consumer. Without Group it is a simple
// consumer of one partition (Topic, Partition): no group, no commits. With
// Group it is a member of that consumer group subscribed to Topics, which
// joins, heartbeats, polls every PollIntervalMs and commits.
// Either kind reads what the leader exposes, the records below the high
// watermark (a consumer reads below the HW).
type ConsumerConfig struct {
	// Name is the consumer's name, also its client.id.
	Name      string
	Topic     string
	Partition int32
	// IsolationLevel is isolation.level: [ReadUncommitted] ("", the
	// default) or [ReadCommitted].
	IsolationLevel string
	// PollIntervalMs makes it poll on its own while the world runs (0: only
	// explicit polls, [Consumer.Poll]; a group consumer defaults to
	// [DefaultGroupPollIntervalMs]).
	PollIntervalMs int64

	// Group is group.id; "" for a simple consumer.
	Group string
	// Topics are the subscribed topics of a group consumer.
	Topics []string
	// GroupProtocol is group.protocol: [ProtocolClassic] (the default, as
	// in Kafka 4's Java consumer) or [ProtocolConsumer] (KIP-848).
	GroupProtocol string
	// Assignors is partition.assignment.strategy by name ("range",
	// "roundrobin", "sticky", "cooperative-sticky"; default Kafka 3.0+'s
	// [range, cooperative-sticky], which is eager range in practice): the
	// classic protocol's.
	Assignors []string
	// RemoteAssignor is group.remote.assignor, the server-side assignor the
	// consumer protocol asks for ("uniform", "range"; "" leaves it to the
	// group, by default the broker's first of group.consumer.assignors).
	RemoteAssignor string
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

// Consumer is a consumer client in the world: a simple consumer of one
// partition, or a member of a consumer group.
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
	thrown map[kafkalog.TopicPartition]int64
	// readCommittedPart is the world's Settings.ReadCommitted (nil: the
	// reference filters).
	readCommittedPart func(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []kafkalog.AbortedTxn) ([]int64, bool)
	// limit, if above 0, is how many records a poll hands out at most
	// (a copier's max.poll.records); resetEarliest resets a position out
	// of range to the log start offset (auto.offset.reset=earliest)
	// instead of the high watermark.
	limit         int
	resetEarliest bool
}

// CheckConsumer checks a new consumer's settings; taken: another consumer
// has its name.
func CheckConsumer(env Env, cfg ConsumerConfig, taken bool) error {
	if err := checkIsolation(cfg); err != nil {
		return err
	}
	if cfg.Group != "" {
		return checkGroupConsumer(env, cfg, taken)
	}
	if n, ok := env.PartitionCount(cfg.Topic); !ok || cfg.Partition < 0 || cfg.Partition >= n || cfg.Name == "" || taken {
		return fmt.Errorf("%w: consumer %q of %s-%d", metadata.ErrInvalidConfig, cfg.Name, cfg.Topic, cfg.Partition)
	}
	return nil
}

// NewConsumer returns a consumer of cfg, which [CheckConsumer] accepted:
// a simple consumer, or a group member that joins its group at its first
// poll (the group's coordinator needs __consumer_offsets: it is created now
// if it does not exist).
func NewConsumer(env Env, s Settings, cfg ConsumerConfig) (*Consumer, error) {
	if cfg.Group != "" {
		return newGroupConsumer(env, s, cfg)
	}
	return &Consumer{cfg: cfg, nextPoll: env.Now() + cfg.PollIntervalMs, readCommittedPart: s.ReadCommitted}, nil
}

// Name returns the consumer's name.
func (c *Consumer) Name() string { return c.cfg.Name }

// Config returns the consumer's configuration, its defaults filled in.
func (c *Consumer) Config() ConsumerConfig { return c.cfg }

// Position returns the next offset a simple consumer will read.
func (c *Consumer) Position() int64 { return c.position }

// Records returns what a simple consumer received, in order. The caller
// must not modify it.
func (c *Consumer) Records() []Consumed { return c.records }

// Resets returns how many times a simple consumer's position was out of
// range and reset to the high watermark (records skipped).
func (c *Consumer) Resets() int { return c.resets }

// IsGroup reports whether the consumer is a group member.
func (c *Consumer) IsGroup() bool { return c.grp != nil }

// Tick runs a group consumer's heartbeat thread and its polls, or a
// simple consumer's polls every PollIntervalMs.
func (c *Consumer) Tick(env Env) {
	if c.grp != nil {
		c.tickGroup(env)
		return
	}
	if c.cfg.PollIntervalMs > 0 && env.Now() >= c.nextPoll {
		c.nextPoll = env.Now() + c.cfg.PollIntervalMs
		c.Poll(env)
	}
}

// Poll is a simple consumer's poll: it reads the records in [position,
// HW) from the partition's leader. A position beyond the leader's log end
// is out of range: the consumer resets to the leader's HW
// (auto.offset.reset=latest) and says so.
func (c *Consumer) Poll(env Env) {
	tp := kafkalog.TopicPartition{Topic: c.cfg.Topic, Partition: c.cfg.Partition}
	l := env.LeaderLog(tp)
	if l == nil {
		return
	}
	leader := l.Broker()
	hw := c.fetchLimit(l)
	if c.position > l.LogEndOffset() || c.position < l.LogStartOffset() {
		if c.resetEarliest {
			env.Record(event.Consume, leader, &tp, "%s: OFFSET_OUT_OF_RANGE at %d (log [%d, %d)), reset to the log start offset %d", c.cfg.Name, c.position, l.LogStartOffset(), l.LogEndOffset(), l.LogStartOffset())
			c.position = l.LogStartOffset()
			c.resets++
			return
		}
		env.Record(event.Consume, leader, &tp, "%s: OFFSET_OUT_OF_RANGE at %d (log [%d, %d)), reset to HW %d", c.cfg.Name, c.position, l.LogStartOffset(), l.LogEndOffset(), hw)
		c.position = hw
		c.resets++
		return
	}
	limit, thrown := c.meetDamage(env, l, tp, c.position, hw)
	if thrown {
		return
	}
	hw = min(hw, limit)
	fetched, byPart, _ := l.Fetch(c.position, int(max(hw-c.position, 1))) // every record below the HW: at most one per offset
	aborted := c.newAbortFilter(l, c.position, hw, fetched)
	if byPart && len(fetched) > 0 && fetched[0].Offset < hw {
		c.noteFetch(env, l, tp, c.position, fetched[0].Offset)
	}
	handed := 0
	for _, e := range fetched {
		if e.Offset >= hw || c.limit > 0 && handed == c.limit {
			break
		}
		if aborted.passes(&e) {
			c.position = e.Offset + 1 // a marker or an aborted record: not handed out, passed
			continue
		}
		handed++
		c.records = append(c.records, Consumed{Offset: e.Offset, Key: string(e.Key), Value: string(e.Value), LeaderEpoch: e.LeaderEpoch, FromBroker: leader})
		v := string(e.Value)
		if e.Value == nil {
			v = "∅"
		}
		env.Record(event.Consume, leader, &tp, "%s read offset %d: %s", c.cfg.Name, e.Offset, Label{string(e.Key), v})
		if aborted.byPart() {
			env.MarkLast(event.PartReadCommitted)
		}
		c.position = e.Offset + 1
	}
}

// meetDamage is what the consumer's fetch at pos of the leader's log l
// meets of damaged bytes below the high watermark hw (bytes that did not
// decode when the leader opened its log). The leader sends them as they
// are and the consumer checks them (check.crcs=true): a fetch that begins
// at them throws the KafkaException of Kafka 3.7's consumer from poll,
// every time (recorded once per position): the application cannot move
// past them, and thrown is true; a fetch before them hands out the records
// below limit, where they begin. A header whose length runs past its
// segment reads as the segment's end: the records after it are read,
// those it hides are not (no limit).
func (c *Consumer) meetDamage(env Env, l LeaderLog, tp kafkalog.TopicPartition, pos, hw int64) (limit int64, thrown bool) {
	limit = hw
	d := l.DamageFrom(pos)
	if d == nil || d.First >= hw || d.EndsSegment {
		return limit, false
	}
	if pos < d.First {
		return d.First, false
	}
	if last, ok := c.thrown[tp]; !ok || last != pos {
		if c.thrown == nil {
			c.thrown = map[kafkalog.TopicPartition]int64{}
		}
		c.thrown[tp] = pos
		env.Record(event.Consume, 0, &tp, "%s: poll threw KafkaException: %s", c.cfg.Name, d.ConsumerError(tp, pos))
	}
	return limit, true
}

// hidden reports whether damaged bytes of the leader's log l hold offsets
// from pos on below hw: a fetch that gets nothing there is not at the end
// of the log, and the consumer stays where it is.
func hidden(l LeaderLog, pos, hw int64) bool {
	d := l.DamageFrom(pos)
	return d != nil && d.First < hw
}

// noteFetch records, for a fetch at pos whose first record (below the HW)
// is first, found by the learner's lookup part, the offsets it skipped or
// got again: those of the leader's log from pos (an offset the cleaner
// removed is no record to miss).
func (c *Consumer) noteFetch(env Env, l LeaderLog, tp kafkalog.TopicPartition, pos, first int64) {
	want := pos
	if next, ok := l.NextOffset(pos); ok {
		want = next
	}
	switch {
	case first > want:
		env.Record(event.Consume, 0, &tp, "%s asked for offset %d and got a batch from %d: offsets %d-%d skipped", c.cfg.Name, pos, first, want, first-1)
	case first < want:
		env.Record(event.Consume, 0, &tp, "%s asked for offset %d and got a batch from %d: offsets %d-%d again", c.cfg.Name, pos, first, first, want-1)
	default:
		return
	}
	env.MarkLast(event.PartLookup)
}
