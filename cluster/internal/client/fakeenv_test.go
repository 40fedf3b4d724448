package client

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// fakeEnv is the world around the clients in these tests: a clock, topics
// with their leaders and leaders' logs as the test sets them, a group
// coordinator per group, cut links, and a record of what the clients sent
// and noted. The messages the clients send wait in sent until the test
// answers them (or drops them).
type fakeEnv struct {
	now      int64
	rnd      *rand.Rand
	topics   []metadata.Topic
	configs  map[string]kafkalog.Config
	leaders  map[kafkalog.TopicPartition]int32
	logs     map[kafkalog.TopicPartition]*fakeLog
	coords   map[string]int32
	cuts     map[[2]int32]bool
	progress Progress
	sent     []netsim.Envelope
	// tv is the finalized transaction.version the producers read.
	tv int16
	// joins are the consumers' latest JoinGroup requests, by client.
	joins map[string]group.JoinGroup
	// committed are the answers to OffsetFetch(require_stable), by group
	// and partition ("g in-0"), as the test sets them (none: no offset).
	committed map[string]committedAnswer
	out       strings.Builder
}

func newFakeEnv(seed uint64) *fakeEnv {
	return &fakeEnv{rnd: rand.New(rand.NewPCG(seed, seed)), configs: map[string]kafkalog.Config{},
		leaders: map[kafkalog.TopicPartition]int32{}, logs: map[kafkalog.TopicPartition]*fakeLog{},
		coords: map[string]int32{}, cuts: map[[2]int32]bool{}, joins: map[string]group.JoinGroup{}, committed: map[string]committedAnswer{}}
}

// committedAnswer is the group coordinator's answer to an
// OffsetFetch(require_stable) of one partition.
type committedAnswer struct {
	offset int64
	code   int16
}

// CommittedOffset answers as the test set it, and says it was asked.
func (f *fakeEnv) CommittedOffset(g string, tp kafkalog.TopicPartition) (int64, bool, int16) {
	key := fmt.Sprintf("%s %s-%d", g, tp.Topic, tp.Partition)
	a, ok := f.committed[key]
	fmt.Fprintf(&f.out, "OffsetFetch(require_stable) %s\n", key)
	if !ok {
		return -1, false, 0
	}
	return a.offset, a.code == 0, a.code
}

func (f *fakeEnv) Now() int64               { return f.now }
func (f *fakeEnv) Rand() *rand.Rand         { return f.rnd }
func (f *fakeEnv) Topics() []metadata.Topic { return f.topics }
func (f *fakeEnv) MarkLast(impl string)     { fmt.Fprintf(&f.out, "  (decided by the %s part)\n", impl) }

func (f *fakeEnv) PartitionCount(topic string) (int32, bool) {
	for _, t := range f.topics {
		if t.Name == topic {
			return int32(len(t.Assignment)), true
		}
	}
	return 0, false
}

func (f *fakeEnv) LogConfig(topic string) kafkalog.Config {
	if c, ok := f.configs[topic]; ok {
		return c
	}
	return kafkalog.DefaultConfig()
}

func (f *fakeEnv) PartitionLeader(topic string, partition int32) int32 {
	if l, ok := f.leaders[kafkalog.TopicPartition{Topic: topic, Partition: partition}]; ok {
		return l
	}
	return replica.NoLeader
}

func (f *fakeEnv) LeaderLog(tp kafkalog.TopicPartition) LeaderLog {
	l := f.logs[tp]
	leader := f.PartitionLeader(tp.Topic, tp.Partition)
	if l == nil || leader == replica.NoLeader || f.Cut(leader, netsim.ConsumerNode) {
		return nil
	}
	l.broker = leader
	return l
}

func (f *fakeEnv) Cut(a, b int32) bool { return f.cuts[[2]int32{min(a, b), max(a, b)}] }

func (f *fakeEnv) Coordinator(g string) (int32, bool) {
	b, ok := f.coords[g]
	return b, ok
}

// TxnCoordinator names the coordinator the test set for a transactional
// id (the coordinator command sets both kinds).
func (f *fakeEnv) TxnCoordinator(id string) (int32, bool) {
	b, ok := f.coords[id]
	return b, ok
}

func (f *fakeEnv) TransactionVersion() int16 { return f.tv }

func (f *fakeEnv) EnsureTxnStateTopic() error {
	if _, ok := f.PartitionCount(metadata.TxnStateTopic); !ok {
		f.topics = append(f.topics, metadata.Topic{Name: metadata.TxnStateTopic, Assignment: [][]int32{{1}}, Internal: true})
		slices.SortFunc(f.topics, func(a, b metadata.Topic) int { return strings.Compare(a.Name, b.Name) })
		fmt.Fprintf(&f.out, "created %s\n", metadata.TxnStateTopic)
	}
	return nil
}

func (f *fakeEnv) EnsureOffsetsTopic() error {
	if _, ok := f.PartitionCount(metadata.OffsetsTopic); !ok {
		f.topics = append(f.topics, metadata.Topic{Name: metadata.OffsetsTopic, Assignment: [][]int32{{1}}, Internal: true})
		slices.SortFunc(f.topics, func(a, b metadata.Topic) int { return strings.Compare(a.Name, b.Name) })
		fmt.Fprintf(&f.out, "created %s\n", metadata.OffsetsTopic)
	}
	return nil
}

func (f *fakeEnv) MarkProcessed(g string, tp kafkalog.TopicPartition, offset int64) bool {
	return f.progress.Mark(g, tp, offset)
}

func (f *fakeEnv) Record(kind event.Kind, broker int32, tp *kafkalog.TopicPartition, format string, args ...any) {
	fmt.Fprintf(&f.out, "%s", kind)
	if broker != 0 {
		fmt.Fprintf(&f.out, " b%d", broker)
	}
	if tp != nil {
		fmt.Fprintf(&f.out, " %s-%d", tp.Topic, tp.Partition)
	}
	fmt.Fprintf(&f.out, ": %s\n", fmt.Sprintf(format, args...))
}

func (f *fakeEnv) Send(e netsim.Envelope) {
	f.sent = append(f.sent, e)
	if j, ok := e.GroupReq.(group.JoinGroup); ok {
		f.joins[e.Client] = j
	}
	fmt.Fprintf(&f.out, "send %s\n", envelopeText(&e))
}

// envelopeText shows what a client sent: a produce request with its
// records, or a group request.
func envelopeText(e *netsim.Envelope) string {
	switch e.Kind {
	case netsim.KindReplica:
		return fmt.Sprintf("%d->b%d produce %s-%d corr=%d acks=%s: %s", e.From, e.To, e.TP.Topic, e.TP.Partition, e.Msg.CorrelationID,
			AcksLabel(e.Msg.Acks), recordsText(e.Msg.Records))
	case netsim.KindGroupRequest:
		return fmt.Sprintf("%s#%d->b%d %s", e.Client, e.ClientInc, e.To, groupRequestText(e.GroupReq))
	case netsim.KindTxnRequest:
		return fmt.Sprintf("%d->b%d %s", e.From, e.To, txnRequestText(e.Txn))
	}
	return e.String()
}

// txnRequestText shows a transactional request.
func txnRequestText(m netsim.TxnMessage) string {
	switch m := m.(type) {
	case txn.InitProducerID:
		return fmt.Sprintf("InitProducerId corr=%d %s producer=%d epoch=%d", m.Corr, m.TransactionalID, m.ProducerID, m.Epoch)
	case txn.AddPartitions:
		tps := make([]string, len(m.Partitions))
		for i, tp := range m.Partitions {
			tps[i] = fmt.Sprintf("%s-%d", tp.Topic, tp.Partition)
		}
		return fmt.Sprintf("AddPartitionsToTxn corr=%d %s producer=%d epoch=%d %s", m.Corr, m.TransactionalID, m.ProducerID, m.Epoch, strings.Join(tps, ","))
	case txn.EndTxn:
		return fmt.Sprintf("EndTxn corr=%d %s producer=%d epoch=%d commit=%t", m.Corr, m.TransactionalID, m.ProducerID, m.Epoch, m.Commit)
	case txn.AddOffsets:
		return fmt.Sprintf("AddOffsetsToTxn corr=%d %s producer=%d epoch=%d group=%s", m.Corr, m.TransactionalID, m.ProducerID, m.Epoch, m.Group)
	case txn.TxnOffsetCommit:
		offsets := make([]string, len(m.Offsets))
		for i, o := range m.Offsets {
			offsets[i] = fmt.Sprintf("%s-%d:%d", o.TP.Topic, o.TP.Partition, o.Offset)
		}
		return fmt.Sprintf("TxnOffsetCommit corr=%d %s producer=%d epoch=%d group=%s generation=%d %s", m.Corr, m.TransactionalID, m.ProducerID, m.Epoch, m.Group,
			m.Generation, strings.Join(offsets, ","))
	}
	return m.TxnName()
}

func recordsText(records []replica.Record) string {
	if b := records[0].Batch; b != nil {
		var dec kafkalog.Decoder
		var rb kafkalog.RecordBatch
		if _, err := dec.Decode(b, &rb); err == nil && rb.Attributes.IsControl() {
			k, _ := kafkalog.ParseControlRecordKey(rb.Records[0].Key)
			return fmt.Sprintf("marker %s (producer %d epoch %d)", k.Type, rb.ProducerID, rb.ProducerEpoch)
		}
	}
	parts := make([]string, len(records))
	for i, r := range records {
		s := RecordLabel(string(r.Key), string(r.Value))
		if r.Value == nil {
			s = RecordLabel(string(r.Key), "null")
		}
		if p := r.Producer; p != nil {
			s += fmt.Sprintf(" seq=%d epoch=%d", p.Sequence, p.Epoch)
		}
		parts[i] = s
	}
	s := strings.Join(parts, ", ")
	if records[0].Batch != nil {
		s += " (encoded)"
	}
	return s
}

func groupRequestText(r group.Request) string {
	switch r := r.(type) {
	case group.JoinGroup:
		names := make([]string, len(r.Protocols))
		for i, p := range r.Protocols {
			names[i] = p.Name
		}
		return fmt.Sprintf("JoinGroup member=%q protocols=%s", r.MemberID, strings.Join(names, ","))
	case group.SyncGroup:
		s := fmt.Sprintf("SyncGroup member=%s generation=%d", r.MemberID, r.GenerationID)
		for _, a := range r.Assignments {
			s += fmt.Sprintf(" %s:%v", a.MemberID, group.SortedPartitions(a.Partitions))
		}
		return s
	case group.Heartbeat:
		return fmt.Sprintf("Heartbeat member=%s generation=%d", r.MemberID, r.GenerationID)
	case group.OffsetCommit:
		return fmt.Sprintf("OffsetCommit member=%s generation=%d %s", r.MemberID, r.GenerationID, formatOffsets(r.Offsets))
	case group.OffsetFetch:
		return fmt.Sprintf("OffsetFetch %v", r.Partitions)
	case group.LeaveGroup:
		return fmt.Sprintf("LeaveGroup member=%s", r.MemberID)
	case group.ConsumerGroupHeartbeat:
		return group.DescribeRequest(r)
	}
	return fmt.Sprintf("%T", r)
}

// fakeLog is a leader's log as the consumers read it: its records and high
// watermark as the test sets them.
type fakeLog struct {
	broker  int32
	start   int64
	entries []replica.Entry
	hw      int64
	// aborted are the aborted transactions every fetch is told of.
	aborted []kafkalog.AbortedTxn
}

func (l *fakeLog) Broker() int32                       { return l.broker }
func (l *fakeLog) HighWatermark() int64                { return l.hw }
func (l *fakeLog) LogStartOffset() int64               { return l.start }
func (l *fakeLog) DamageFrom(int64) *replicalog.Damage { return nil }

// LastStableOffset: the test's logs hold no open transaction.
func (l *fakeLog) LastStableOffset() int64                      { return l.hw }
func (l *fakeLog) AbortedTxns(_, _ int64) []kafkalog.AbortedTxn { return slices.Clone(l.aborted) }

func (l *fakeLog) LogEndOffset() int64 {
	if n := len(l.entries); n > 0 {
		return l.entries[n-1].Offset + 1
	}
	return l.start
}

func (l *fakeLog) index(pos int64) int {
	i, _ := slices.BinarySearchFunc(l.entries, pos, func(e replica.Entry, pos int64) int { return int(e.Offset - pos) })
	return i
}

func (l *fakeLog) Fetch(pos int64, limit int) ([]replica.Entry, bool, bool) {
	i := l.index(pos)
	return slices.Clone(l.entries[i:min(len(l.entries), i+limit)]), false, false
}

func (l *fakeLog) NextOffset(pos int64) (int64, bool) {
	if i := l.index(pos); i < len(l.entries) {
		return l.entries[i].Offset, true
	}
	return 0, false
}

func (l *fakeLog) Count(first, last int64) int {
	n := 0
	for _, e := range l.entries[l.index(first):] {
		if e.Offset > last {
			break
		}
		n++
	}
	return n
}
