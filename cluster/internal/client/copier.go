package client

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// Consume-transform-produce, as Kafka's exactly-once examples run it
// (TransactionalMessageCopier in Kafka 3.7's tools, without --group-mode:
// its consumer has its input partition assigned, reads at
// isolation.level=read_committed with auto-commit off and
// auto.offset.reset=earliest, and commits its offsets through the producer's
// transactions). A producer with a [CopySource] is such a loop, its consumer
// built in:
//
//   - Once InitProducerId answered, it reads the group's committed offset of
//     its input partition (resetToLastCommittedPositions: OffsetFetch with
//     require_stable, KIP-447, which answers UNSTABLE_OFFSET_COMMIT while a
//     transactional commit of the partition is pending: it asks again after
//     retry.backoff.ms), or starts at the log start offset without one.
//   - Every PollIntervalMs it polls at most MaxRecords records (max.poll.records)
//     and, if it got any, copies each to the same partition of its topic in
//     one transaction, its value prefixed with where it came from
//     ("orders-0@12:"; the copy transformed, so that each output names its
//     input). At its next poll (or at commit-transaction) it sends the
//     consumer's position with sendOffsetsToTransaction (AddOffsetsToTxn to
//     the transaction coordinator, then TxnOffsetCommit to the group's
//     coordinator, as KafkaProducer.sendOffsetsToTransaction queues them)
//     and commits (EndTxn once both are answered, after every record), and
//     polls again as soon as the commit is answered. A transaction stays
//     open one poll interval, as a stream processor's stays open until its
//     commit interval: long enough to be aborted, or left open by a pause.
//   - A transaction that ends aborted (abort-transaction, a record or the
//     offsets that failed) is followed by abortTransaction's reset: the
//     position goes back to the committed offset, read anew, so that what
//     the aborted transaction copied is copied again.
//   - PRODUCER_FENCED (a newer instance with the same transactional.id, or
//     the coordinator's timeout) is fatal: the loop stops, as the copier's
//     main loop rethrows it.
//
// Not modelled: the group mode (subscribe, the consumer's group metadata in
// TxnOffsetCommit, KIP-447's fencing by generation): the copier has one
// partition assigned, and a zombie is fenced by its transactional.id alone,
// as before Kafka 2.5.

// CopySource makes a transactional producer a consume-transform-produce
// loop: what it reads and the group whose offsets its transactions commit.
type CopySource struct {
	// Topic and Partition are the input partition (assigned, not
	// subscribed); the copies go to the same partition of the producer's
	// topic.
	Topic     string
	Partition int32
	// Group is the group.id whose offsets the transactions commit.
	Group string
	// MaxRecords is max.poll.records: at most that many records per
	// transaction (default [DefaultCopyMaxRecords]).
	MaxRecords int
	// PollIntervalMs is how often the loop polls (default
	// [DefaultCopyPollIntervalMs]).
	PollIntervalMs int64
	// AutoCommit is enable.auto.commit=true on the copier's consumer: the
	// mistake exactly-once forbids (Kafka's copier sets it false). The
	// position is committed as the consumer polls, at once and outside
	// the transaction (a plain offset commit), and no offsets go in the
	// transactions: an abort then loses what it copied, as the committed
	// offset is already past it.
	AutoCommit bool
	// ReadUncommitted is isolation.level=read_uncommitted on the copier's
	// consumer (the Java consumer's default, which Kafka's copier
	// overrides): it copies the records of open and aborted transactions
	// of its input too.
	ReadUncommitted bool
	// NoOffsets leaves sendOffsetsToTransaction out: the transactions
	// commit the copies alone, the group's offset never moves, and a
	// copier that starts again copies everything again.
	NoOffsets bool
}

// The copier's defaults.
const (
	DefaultCopyMaxRecords     = 50
	DefaultCopyPollIntervalMs = 1000
)

// copyState is a copier's consumer: its position in the input partition
// (-1: to be read from the group's committed offsets) and when it polls
// next.
type copyState struct {
	in       *Consumer
	position int64
	nextPoll int64
	// inTxn counts the records of the transaction being committed;
	// copied those of the transactions committed.
	inTxn, copied int
}

// CopyCounts returns how many records a copier copied in transactions it
// committed and the position of its consumer (-1 while it reads its
// committed offset); ok is false for a producer that is no copier.
func (p *Producer) CopyCounts() (copied int, position int64, ok bool) {
	if p.copy == nil {
		return 0, -1, false
	}
	return p.copy.copied, p.copy.position, true
}

// IsCopier reports whether the producer is a consume-transform-produce loop.
func (p *Producer) IsCopier() bool { return p.copy != nil }

// checkCopy checks a copier's source: a transactional producer, an input
// partition that exists, an output topic with that partition, a group.
func checkCopy(env Env, cfg ProducerConfig) error {
	c := cfg.Copy
	if c.Topic == "" {
		return nil
	}
	bad := func(why string) error {
		return fmt.Errorf("%w: copier %q: %s", metadata.ErrInvalidConfig, cfg.Name, why)
	}
	switch n, ok := env.PartitionCount(c.Topic); {
	case cfg.TransactionalID == "":
		return bad("consume-transform-produce needs a transactional.id")
	case c.Group == "":
		return bad("a group.id is needed: its offsets are committed in the transactions")
	case !ok || c.Partition < 0 || c.Partition >= n:
		return bad(fmt.Sprintf("no input partition %s-%d", c.Topic, c.Partition))
	case c.MaxRecords < 0 || c.PollIntervalMs < 0:
		return bad("max.poll.records and the poll interval cannot be negative")
	case c.Topic == cfg.Topic:
		return bad(fmt.Sprintf("the output topic %s is its input: it would copy its own copies", c.Topic))
	case len(cfg.Keys) > 0:
		return bad("the copies keep their input's keys: no keys of its own")
	case cfg.Rate > 0 || cfg.RecordsPerSec > 0:
		return bad("it writes only what it copies: no rate")
	}
	if n, ok := env.PartitionCount(cfg.Topic); ok && c.Partition >= n {
		return bad(fmt.Sprintf("its topic %s has no partition %d for the copies of %s-%d", cfg.Topic, c.Partition, c.Topic, c.Partition))
	}
	return nil
}

// newCopyState is the consumer of a copier about to start.
func newCopyState(env Env, s Settings, cfg ProducerConfig) *copyState {
	c := cfg.Copy
	isolation := ReadCommitted
	if c.ReadUncommitted {
		isolation = ReadUncommitted
	}
	in := &Consumer{cfg: ConsumerConfig{Name: cfg.Name, Topic: c.Topic, Partition: c.Partition, IsolationLevel: isolation},
		readCommittedPart: s.ReadCommitted, limit: c.MaxRecords, resetEarliest: true}
	return &copyState{in: in, position: -1, nextPoll: env.Now() + c.PollIntervalMs}
}

// copyDefaults fills in a copier's defaults.
func (c CopySource) withDefaults() CopySource {
	if c.Topic == "" {
		return c
	}
	if c.MaxRecords == 0 {
		c.MaxRecords = DefaultCopyMaxRecords
	}
	if c.PollIntervalMs == 0 {
		c.PollIntervalMs = DefaultCopyPollIntervalMs
	}
	return c
}

// tickCopy runs the copier's loop: read the committed offset when the
// position is unknown, else poll, copy, send the offsets and commit.
func (p *Producer) tickCopy(env Env) {
	c, t := p.copy, p.txn
	if c == nil || t.fatal != "" || t.pid < 0 || t.initNeeded || t.ending || env.Now() < c.nextPoll {
		return
	}
	src := p.cfg.Copy
	if c.position < 0 {
		c.nextPoll = env.Now() + p.cfg.RetryBackoffMs
		p.readCommitted(env)
		return
	}
	c.nextPoll = env.Now() + src.PollIntervalMs
	if c.inTxn > 0 {
		p.EndTransaction(env, true) // with the offsets (commitCopy)
		return
	}
	c.in.position = c.position
	c.in.Poll(env)
	c.position = c.in.position
	got := c.in.records
	c.in.records = nil
	if len(got) == 0 {
		return
	}
	for _, r := range got {
		if err := p.Produce(env, r.Key, CopyValue(src.Topic, src.Partition, r.Offset, r.Value), false, src.Partition, nil); err != nil {
			env.Record(event.Transaction, 0, nil, "%s: %v", p.cfg.Name, err)
			return
		}
	}
	c.inTxn = len(got)
	in := kafkalog.TopicPartition{Topic: src.Topic, Partition: src.Partition}
	env.Record(event.Transaction, 0, &in, "%s: copies offsets %d-%d of %s-%d in a transaction (it commits at its next poll)", p.cfg.Name,
		got[0].Offset, got[len(got)-1].Offset, src.Topic, src.Partition)
	if src.AutoCommit {
		p.autoCommit(env, in, c.position)
	}
}

// autoCommit commits the consumer's position at once, outside the
// transaction (enable.auto.commit=true): a plain offset commit, sent and
// not waited for.
func (p *Producer) autoCommit(env Env, in kafkalog.TopicPartition, offset int64) {
	src := p.cfg.Copy
	b, ok := env.Coordinator(src.Group)
	if !ok {
		return
	}
	env.Record(event.Transaction, 0, &in, "%s: auto-commits %s-%d: %d outside the transaction (enable.auto.commit=true)", p.cfg.Name, in.Topic, in.Partition, offset)
	env.Send(netsim.Envelope{From: p.id, To: b, Kind: netsim.KindTxnRequest, Txn: txn.TxnOffsetCommit{ProducerID: -1, Epoch: -1, Group: src.Group,
		Generation: -1, Offsets: []txn.CommitOffset{{TP: in, Offset: offset}}}})
}

// commitCopy attaches to a copier's commit the offsets of what its
// transaction copied (sendOffsetsToTransaction with the consumer's
// position), reporting whether it did.
func (p *Producer) commitCopy(env Env) bool {
	c, src := p.copy, p.cfg.Copy
	if c == nil || c.inTxn == 0 || src.AutoCommit || src.NoOffsets {
		return false
	}
	in := kafkalog.TopicPartition{Topic: src.Topic, Partition: src.Partition}
	env.Record(event.Transaction, 0, &in, "%s: sendOffsetsToTransaction(%s-%d: %d, group %s)", p.cfg.Name, src.Topic, src.Partition, c.position, src.Group)
	p.txn.offsets = &txnOffsets{group: src.Group, tp: in, offset: c.position}
	return true
}

// checkCopierProduce refuses a record given to a copier: it writes only
// what it copies.
func (p *Producer) checkCopierProduce() error {
	if p.copy == nil {
		return nil
	}
	return fmt.Errorf("%w: produce: %s is a copier: it writes only the records it copies", metadata.ErrInvalidConfig, p.cfg.Name)
}

// readCommitted sets the copier's position from its group's committed
// offset (resetToLastCommittedPositions), or leaves it unknown for
// another try when the coordinator cannot say yet.
func (p *Producer) readCommitted(env Env) {
	c, src := p.copy, p.cfg.Copy
	in := kafkalog.TopicPartition{Topic: src.Topic, Partition: src.Partition}
	b, ok := env.Coordinator(src.Group)
	if !ok || env.Cut(p.id, b) {
		if err := env.EnsureOffsetsTopic(); err != nil {
			env.Record(event.Transaction, 0, &in, "%s: FindCoordinator (group %s) fails: %v", p.cfg.Name, src.Group, err)
		}
		return
	}
	offset, found, code := env.CommittedOffset(src.Group, in)
	switch {
	case code != 0:
		env.Record(event.Transaction, 0, &in, "%s: OffsetFetch(require_stable) of group %s at b%d: %s, asked again", p.cfg.Name, src.Group, b, kafkaerr.Name(code))
		return
	case !found:
		l := env.LeaderLog(in)
		if l == nil {
			return
		}
		offset = l.LogStartOffset()
		env.Record(event.Transaction, 0, &in, "%s: group %s has no committed offset of %s-%d: starts at the log start offset %d (auto.offset.reset=earliest)", p.cfg.Name, src.Group, in.Topic, in.Partition, offset)
	default:
		env.Record(event.Transaction, 0, &in, "%s: group %s's committed offset of %s-%d is %d: reads from there", p.cfg.Name, src.Group, in.Topic, in.Partition, offset)
	}
	c.position = offset
	c.nextPoll = env.Now()
}

// copyEnded follows the end of a copier's transaction at nowMs: the
// records it copied count once committed, and it polls again at once (the
// copier's loop goes on with its next poll); an abort sends the position
// back to the committed offset.
func (p *Producer) copyEnded(committed bool, nowMs int64) {
	c := p.copy
	if c == nil {
		return
	}
	if committed {
		c.copied += c.inTxn
		c.nextPoll = nowMs
	} else {
		c.position = -1
	}
	c.inTxn = 0
}

// CopyValue is the value a copier writes for the record at offset of
// topic-partition with value v: "topic-partition@offset:v".
func CopyValue(topic string, partition int32, offset int64, v string) string {
	return fmt.Sprintf("%s-%d@%d:%s", topic, partition, offset, v)
}

// ParseCopyValue reads where a copy came from, false for a value no copier
// wrote.
func ParseCopyValue(v string) (tp kafkalog.TopicPartition, offset int64, rest string, ok bool) {
	at := strings.IndexByte(v, '@')
	colon := strings.IndexByte(v, ':')
	if at < 0 || colon < at {
		return tp, 0, "", false
	}
	dash := strings.LastIndexByte(v[:at], '-')
	if dash < 0 {
		return tp, 0, "", false
	}
	part, err1 := strconv.ParseInt(v[dash+1:at], 10, 32)
	off, err2 := strconv.ParseInt(v[at+1:colon], 10, 64)
	if err1 != nil || err2 != nil {
		return tp, 0, "", false
	}
	return kafkalog.TopicPartition{Topic: v[:dash], Partition: int32(part)}, off, v[colon+1:], true
}
