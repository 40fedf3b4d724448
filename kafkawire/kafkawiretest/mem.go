// Package kafkawiretest is a small in-memory kafkawire.Backend for tests: a set
// of brokers of which one leads every topic, each topic a single partition held
// as the bytes of its log. It answers ApiVersions (through the server),
// Metadata, Produce, Fetch, ListOffsets, InitProducerId and CreateTopics, enough
// for a real client (kgo, kcat) to produce and consume; it is no model of
// Kafka's cluster (that is the simulated world's job).
//
// Produce validates each batch with kafkalog (header, CRC; exactly one v2
// batch per partition, as ProduceRequest.validateRecords wants from v3) and
// appends it byte for byte after stamping its base offset and leader epoch in
// place (kafkalog.SetLastOffset, kafkalog.SetPartitionLeaderEpoch), as Kafka's
// leader does. Fetch returns the log from the batch holding the fetch offset,
// cut at the byte limit, so that the last batch may be incomplete, with at
// least one whole batch (KIP-74), and waits up to MaxWaitMillis for MinBytes.
package kafkawiretest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkawire"
)

// Kafka's error codes (Errors.java) that Mem answers.
const (
	ErrOffsetOutOfRange         int16 = 1
	ErrCorruptMessage           int16 = 2
	ErrUnknownTopicOrPartition  int16 = 3
	ErrNotLeaderOrFollower      int16 = 6
	ErrTopicAlreadyExists       int16 = 36
	ErrInvalidPartitions        int16 = 37
	ErrInvalidRecord            int16 = 87
	ErrInvalidReplicationFactor int16 = 38
	ErrFencedLeaderEpoch        int16 = 74
	ErrUnknownLeaderEpoch       int16 = 76
	ErrUnknownTopicID           int16 = 100
)

// APIVersions is the part of kafkawire.DefaultAPIVersions that Mem answers.
func APIVersions() []kafkawire.APIVersion {
	var out []kafkawire.APIVersion
	for _, a := range kafkawire.DefaultAPIVersions() {
		switch a.Key {
		case 0, 1, 2, 3, 18, 19, 22:
			out = append(out, a)
		}
	}
	return out
}

// Mem is the in-memory backend. The zero value is not usable: see New.
type Mem struct {
	mu       sync.Mutex
	srv      *kafkawire.Server
	brokers  []int32
	leader   int32
	epoch    int32
	states   map[int32]kafkawire.State
	topics   map[string]*topic
	byID     map[[16]byte]*topic
	nextPID  int64
	failWith map[string]int16
	waiters  []*fetchWaiter
	hold     bool
	held     []func()
}

type topic struct {
	name string
	id   [16]byte
	log  []byte
	// starts[i] is the byte position of batch i, bases[i] its base offset.
	starts []int
	bases  []int64
	leo    int64
}

type fetchWaiter struct {
	broker  int32
	req     *kmsg.FetchRequest
	resolve kafkawire.Resolve
	done    bool
}

// New returns a Mem for brokers (the first leads every partition, at leader
// epoch 0).
func New(brokers ...int32) *Mem {
	return &Mem{
		brokers: slices.Clone(brokers), leader: brokers[0],
		states:   map[int32]kafkawire.State{},
		topics:   map[string]*topic{},
		byID:     map[[16]byte]*topic{},
		nextPID:  1000,
		failWith: map[string]int16{},
	}
}

// Serve starts a kafkawire.Server on free loopback ports for brokers 1, 2 and
// 3 backed by a new Mem, with log (may be nil) as its log hook.
func Serve(log func(kafkawire.Event)) (*kafkawire.Server, *Mem, error) {
	m := New(1, 2, 3)
	srv, err := kafkawire.New(kafkawire.Config{
		Listeners:   kafkawire.LoopbackListeners(1, 2, 3),
		Backend:     m,
		APIVersions: APIVersions(),
		Log:         log,
	})
	if err != nil {
		return nil, nil, err
	}
	m.SetServer(srv)
	srv.Start()
	return srv, m, nil
}

// SetServer tells m the server whose addresses it advertises.
func (m *Mem) SetServer(s *kafkawire.Server) {
	m.mu.Lock()
	m.srv = s
	m.mu.Unlock()
}

// SetState sets what connections to broker meet (Serving by default). It
// wakes the server's waiting connections; for Refusing it also closes the
// broker's connections, as a stopped broker does.
func (m *Mem) SetState(broker int32, st kafkawire.State) {
	m.mu.Lock()
	m.states[broker] = st
	srv := m.srv
	m.mu.Unlock()
	if srv != nil {
		if st == kafkawire.Refusing {
			srv.Disconnect(broker, "broker stopped")
		}
		srv.Wake()
	}
}

// SetLeader moves leadership of every partition to broker and bumps the
// leader epoch.
func (m *Mem) SetLeader(broker int32) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.leader = broker
	m.epoch++
}

// FailProduce makes every later Produce to topic fail with code (0 clears).
func (m *Mem) FailProduce(topic string, code int16) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failWith[topic] = code
}

// Hold, while on, keeps every answer back; Release delivers the held ones in
// the order their requests came and turns holding off. This is how a world
// answers at a later step.
func (m *Mem) Hold() {
	m.mu.Lock()
	m.hold = true
	m.mu.Unlock()
}

// Release delivers the held answers and stops holding.
func (m *Mem) Release() {
	m.mu.Lock()
	held := m.held
	m.held, m.hold = nil, false
	m.mu.Unlock()
	for _, f := range held {
		f()
	}
}

// CreateTopic creates a single-partition topic; false if it exists.
func (m *Mem) CreateTopic(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.create(name)
}

func (m *Mem) create(name string) bool {
	if m.topics[name] != nil {
		return false
	}
	sum := sha256.Sum256([]byte("kafkalive topic " + name))
	t := &topic{name: name, id: [16]byte(sum[:16])}
	m.topics[name] = t
	m.byID[t.id] = t
	return true
}

// Log returns a copy of topic's log bytes, as a broker would hold them in
// its segment file.
func (m *Mem) Log(topic string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.topics[topic]; t != nil {
		return slices.Clone(t.log)
	}
	return nil
}

// State implements kafkawire.Backend.
func (m *Mem) State(broker int32, _ kafkawire.ConnInfo) kafkawire.State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.states[broker]
}

// Submit implements kafkawire.Backend.
func (m *Mem) Submit(broker int32, _ kafkawire.ConnInfo, req kmsg.Request, _ []byte) kafkawire.Pending {
	m.mu.Lock()
	defer m.mu.Unlock()
	var resp kmsg.Response
	switch r := req.(type) {
	case *kmsg.MetadataRequest:
		resp = m.metadata(r)
	case *kmsg.ProduceRequest:
		resp = m.produce(broker, r)
	case *kmsg.FetchRequest:
		return m.fetchOrWait(broker, r)
	case *kmsg.ListOffsetsRequest:
		resp = m.listOffsets(broker, r)
	case *kmsg.InitProducerIDRequest:
		out := r.ResponseKind().(*kmsg.InitProducerIDResponse)
		out.ProducerID, out.ProducerEpoch = m.nextPID, 0
		m.nextPID++
		resp = out
	case *kmsg.CreateTopicsRequest:
		resp = m.createTopics(r)
	default:
		return kafkawire.Ready(kafkawire.CloseConn("kafkawiretest: " + kmsg.NameForKey(req.Key()) + " is not implemented"))
	}
	return m.answer(kafkawire.Respond(resp))
}

// answer is o now, or when released. m.mu is held.
func (m *Mem) answer(o kafkawire.Outcome) kafkawire.Pending {
	if !m.hold {
		return kafkawire.Ready(o)
	}
	p, resolve := kafkawire.NewPending()
	m.held = append(m.held, func() { resolve(o) })
	return p
}

func (m *Mem) metadata(r *kmsg.MetadataRequest) *kmsg.MetadataResponse {
	resp := r.ResponseKind().(*kmsg.MetadataResponse)
	for _, b := range m.brokers {
		host, port, ok := "", int32(0), false
		if m.srv != nil {
			host, port, ok = m.srv.Advertised(b)
		}
		if !ok {
			continue
		}
		mb := kmsg.NewMetadataResponseBroker()
		mb.NodeID, mb.Host, mb.Port = b, host, port
		resp.Brokers = append(resp.Brokers, mb)
	}
	cluster := "kafkalive-mem"
	resp.ClusterID = &cluster
	resp.ControllerID = m.brokers[0]
	var names []string
	// A null list (v1+) asks for every topic; so does an empty one in v0.
	if r.Topics == nil || (r.Version == 0 && len(r.Topics) == 0) {
		for n := range m.topics {
			names = append(names, n)
		}
		slices.Sort(names)
	} else {
		for _, t := range r.Topics {
			switch {
			case t.Topic != nil:
				names = append(names, *t.Topic)
			case m.byID[t.TopicID] != nil:
				names = append(names, m.byID[t.TopicID].name)
			default:
				mt := kmsg.NewMetadataResponseTopic()
				mt.TopicID, mt.ErrorCode = t.TopicID, ErrUnknownTopicID
				resp.Topics = append(resp.Topics, mt)
			}
		}
	}
	for _, n := range names {
		mt := kmsg.NewMetadataResponseTopic()
		mt.Topic = kmsg.StringPtr(n)
		t := m.topics[n]
		if t == nil && (r.AllowAutoTopicCreation || r.Version < 4) {
			m.create(n)
			t = m.topics[n]
		}
		if t == nil {
			mt.ErrorCode = ErrUnknownTopicOrPartition
			resp.Topics = append(resp.Topics, mt)
			continue
		}
		mt.TopicID = t.id
		p := kmsg.NewMetadataResponseTopicPartition()
		p.Partition, p.Leader, p.LeaderEpoch = 0, m.leader, m.epoch
		p.Replicas, p.ISR = slices.Clone(m.brokers), slices.Clone(m.brokers)
		mt.Partitions = []kmsg.MetadataResponseTopicPartition{p}
		resp.Topics = append(resp.Topics, mt)
	}
	return resp
}

func (m *Mem) produce(broker int32, r *kmsg.ProduceRequest) *kmsg.ProduceResponse {
	resp := r.ResponseKind().(*kmsg.ProduceResponse)
	for _, rt := range r.Topics {
		ot := kmsg.NewProduceResponseTopic()
		ot.Topic = rt.Topic
		for _, rp := range rt.Partitions {
			op := kmsg.NewProduceResponseTopicPartition()
			op.Partition = rp.Partition
			op.BaseOffset, op.LogAppendTime, op.LogStartOffset = -1, -1, -1
			t := m.topics[rt.Topic]
			switch {
			case t == nil || rp.Partition != 0:
				op.ErrorCode = ErrUnknownTopicOrPartition
			case broker != m.leader:
				op.ErrorCode = ErrNotLeaderOrFollower
			case m.failWith[rt.Topic] != 0:
				op.ErrorCode = m.failWith[rt.Topic]
			default:
				base, code, msg := m.appendBatch(t, rp.Records)
				op.ErrorCode = code
				if code == 0 {
					op.BaseOffset, op.LogStartOffset = base, 0
				} else {
					op.ErrorMessage = &msg
				}
			}
			ot.Partitions = append(ot.Partitions, op)
		}
		resp.Topics = append(resp.Topics, ot)
	}
	m.wakeFetches()
	return resp
}

// appendBatch validates records, exactly one v2 batch (Kafka 3.7
// ProduceRequest.validateRecords, then LogValidator's CRC check), and appends
// it at the log end offset stamped with the leader epoch. It returns the base
// offset, or the error code and message.
func (m *Mem) appendBatch(t *topic, records []byte) (int64, int16, string) {
	h, n, err := kafkalog.CheckBatch(records)
	switch {
	case errors.Is(err, kafkalog.ErrUnknownMagic):
		return 0, ErrInvalidRecord, "produce requests v3+ take only record batches v2: " + err.Error()
	case err != nil:
		return 0, ErrCorruptMessage, err.Error()
	case n != len(records):
		return 0, ErrInvalidRecord, fmt.Sprintf("produce requests v3+ take exactly one record batch; %d bytes follow the first", len(records)-n)
	}
	b := slices.Clone(records)
	base := t.leo
	if err := kafkalog.SetLastOffset(b, base+int64(h.LastOffsetDelta)); err != nil {
		return 0, ErrCorruptMessage, err.Error()
	}
	if err := kafkalog.SetPartitionLeaderEpoch(b, m.epoch); err != nil {
		return 0, ErrCorruptMessage, err.Error()
	}
	t.starts = append(t.starts, len(t.log))
	t.bases = append(t.bases, base)
	t.log = append(t.log, b...)
	t.leo = base + int64(h.LastOffsetDelta) + 1
	return base, 0, ""
}

// fetchOrWait answers now when the response holds MinBytes or an error, or
// MaxWaitMillis is 0; otherwise when a produce brings bytes or the wait ends.
func (m *Mem) fetchOrWait(broker int32, r *kmsg.FetchRequest) kafkawire.Pending {
	resp, n, failed := m.fetch(broker, r)
	if failed || n >= int(r.MinBytes) || r.MaxWaitMillis <= 0 {
		return m.answer(kafkawire.Respond(resp))
	}
	p, resolve := kafkawire.NewPending()
	w := &fetchWaiter{broker: broker, req: r, resolve: resolve}
	m.waiters = append(m.waiters, w)
	time.AfterFunc(time.Duration(r.MaxWaitMillis)*time.Millisecond, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.finish(w, true)
	})
	return p
}

// finish answers w if it has its bytes, or anyway; m.mu is held.
func (m *Mem) finish(w *fetchWaiter, anyway bool) {
	if w.done {
		return
	}
	resp, n, failed := m.fetch(w.broker, w.req)
	if !anyway && !failed && n < int(w.req.MinBytes) {
		return
	}
	w.done = true
	w.resolve(kafkawire.Respond(resp))
	m.waiters = slices.DeleteFunc(m.waiters, func(x *fetchWaiter) bool { return x == w })
}

func (m *Mem) wakeFetches() {
	for _, w := range slices.Clone(m.waiters) {
		m.finish(w, false)
	}
}

// fetch builds the response to r and returns it, its record bytes and whether
// a partition failed.
func (m *Mem) fetch(broker int32, r *kmsg.FetchRequest) (*kmsg.FetchResponse, int, bool) {
	resp := r.ResponseKind().(*kmsg.FetchResponse)
	resp.SetVersion(r.Version)
	budget := int(r.MaxBytes)
	if r.Version < 3 {
		budget = int(^uint32(0) >> 1)
	}
	total, failed := 0, false
	for _, rt := range r.Topics {
		ot := kmsg.NewFetchResponseTopic()
		ot.Topic, ot.TopicID = rt.Topic, rt.TopicID
		var t *topic
		if r.Version >= 13 {
			t = m.byID[rt.TopicID]
		} else {
			t = m.topics[rt.Topic]
		}
		for _, rp := range rt.Partitions {
			op := kmsg.NewFetchResponseTopicPartition()
			op.Partition = rp.Partition
			switch {
			case t == nil && r.Version >= 13:
				op.ErrorCode = ErrUnknownTopicID
			case t == nil || rp.Partition != 0:
				op.ErrorCode = ErrUnknownTopicOrPartition
			case r.Version >= 9 && m.epochError(rp.CurrentLeaderEpoch) != 0:
				// The epoch is checked before leadership
				// (Partition.getLocalLog).
				op.ErrorCode = m.epochError(rp.CurrentLeaderEpoch)
			case broker != m.leader:
				op.ErrorCode = ErrNotLeaderOrFollower
			case rp.FetchOffset < 0 || rp.FetchOffset > t.leo:
				op.ErrorCode = ErrOffsetOutOfRange
			}
			if op.ErrorCode != 0 {
				op.HighWatermark, op.LastStableOffset, op.LogStartOffset = -1, -1, -1
				failed = true
				ot.Partitions = append(ot.Partitions, op)
				continue
			}
			op.HighWatermark, op.LastStableOffset, op.LogStartOffset = t.leo, t.leo, 0
			limit := min(int(rp.PartitionMaxBytes), budget)
			op.RecordBatches = t.read(rp.FetchOffset, limit, total == 0)
			total += len(op.RecordBatches)
			budget -= len(op.RecordBatches)
			ot.Partitions = append(ot.Partitions, op)
		}
		resp.Topics = append(resp.Topics, ot)
	}
	return resp, total, failed
}

// read returns the log from the batch holding offset, at most limit bytes
// (so the last batch may be cut), but the whole first batch when minOne
// (KIP-74; Kafka's LogSegment.read with minOneMessage).
func (t *topic) read(offset int64, limit int, minOne bool) []byte {
	i, _ := slices.BinarySearch(t.bases, offset+1)
	i-- // the last batch whose base is <= offset
	if i < 0 || offset >= t.leo {
		return nil
	}
	start := t.starts[i]
	end := len(t.log)
	first := end
	if i+1 < len(t.starts) {
		first = t.starts[i+1]
	}
	if minOne {
		limit = max(limit, first-start)
	}
	if limit < 0 {
		limit = 0
	}
	return slices.Clone(t.log[start:min(end, start+limit)])
}

// epochError is what Kafka's Partition.checkCurrentLeaderEpoch answers to a
// client's current leader epoch: FENCED_LEADER_EPOCH below the leader's,
// UNKNOWN_LEADER_EPOCH above it, nothing for -1 (not given) or equal.
func (m *Mem) epochError(epoch int32) int16 {
	switch {
	case epoch == -1 || epoch == m.epoch:
		return 0
	case epoch < m.epoch:
		return ErrFencedLeaderEpoch
	}
	return ErrUnknownLeaderEpoch
}

func (m *Mem) listOffsets(broker int32, r *kmsg.ListOffsetsRequest) *kmsg.ListOffsetsResponse {
	resp := r.ResponseKind().(*kmsg.ListOffsetsResponse)
	for _, rt := range r.Topics {
		ot := kmsg.NewListOffsetsResponseTopic()
		ot.Topic = rt.Topic
		t := m.topics[rt.Topic]
		for _, rp := range rt.Partitions {
			op := kmsg.NewListOffsetsResponseTopicPartition()
			op.Partition = rp.Partition
			op.Timestamp, op.Offset, op.LeaderEpoch = -1, -1, -1
			switch {
			case t == nil || rp.Partition != 0:
				op.ErrorCode = ErrUnknownTopicOrPartition
			case r.Version >= 4 && m.epochError(rp.CurrentLeaderEpoch) != 0:
				op.ErrorCode = m.epochError(rp.CurrentLeaderEpoch)
			case broker != m.leader:
				op.ErrorCode = ErrNotLeaderOrFollower
			case rp.Timestamp == -2: // EARLIEST_TIMESTAMP
				op.Offset, op.LeaderEpoch = 0, m.epoch
			case rp.Timestamp == -1: // LATEST_TIMESTAMP
				op.Offset, op.LeaderEpoch = t.leo, m.epoch
			default:
				op.Offset, op.Timestamp, op.LeaderEpoch = t.offsetForTime(rp.Timestamp), rp.Timestamp, m.epoch
			}
			ot.Partitions = append(ot.Partitions, op)
		}
		resp.Topics = append(resp.Topics, ot)
	}
	return resp
}

// offsetForTime is the base offset of the first batch whose maxTimestamp is
// at least ts (-1 when none).
func (t *topic) offsetForTime(ts int64) int64 {
	for i, s := range t.starts {
		h, err := kafkalog.ReadBatchHeader(t.log[s:])
		if err == nil && h.MaxTimestamp >= ts {
			return t.bases[i]
		}
	}
	return -1
}

func (m *Mem) createTopics(r *kmsg.CreateTopicsRequest) *kmsg.CreateTopicsResponse {
	resp := r.ResponseKind().(*kmsg.CreateTopicsResponse)
	for _, rt := range r.Topics {
		ot := kmsg.NewCreateTopicsResponseTopic()
		ot.Topic = rt.Topic
		switch {
		case rt.NumPartitions != 1 && rt.NumPartitions != -1:
			ot.ErrorCode = ErrInvalidPartitions
		case rt.ReplicationFactor != -1 && int(rt.ReplicationFactor) > len(m.brokers):
			ot.ErrorCode = ErrInvalidReplicationFactor
		case m.topics[rt.Topic] != nil:
			ot.ErrorCode = ErrTopicAlreadyExists
		case r.ValidateOnly:
		default:
			m.create(rt.Topic)
			ot.TopicID = m.topics[rt.Topic].id
		}
		ot.NumPartitions, ot.ReplicationFactor = 1, int16(len(m.brokers))
		resp.Topics = append(resp.Topics, ot)
	}
	return resp
}
