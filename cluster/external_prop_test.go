package cluster_test

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

var (
	extSeed  = flag.Uint64("external.seed", 0, "TestExternalClientsRandomized: run this seed only")
	extRuns  = flag.Int("external.runs", 10, "TestExternalClientsRandomized: how many seeds")
	extSteps = flag.Int("external.steps", 200, "TestExternalClientsRandomized: requests and faults per seed")
)

// TestExternalClientsRandomized drives the world as a crowd of Kafka
// clients would: produces of random sizes, keys and acks to random brokers
// (leaders or not), fetches at random offsets (out of range included),
// ListOffsets, OffsetForLeaderEpoch, topics created, grown and deleted,
// their configs altered (incrementally or replaced, valid or not),
// interleaved with brokers stopped, killed, powered off and started (one
// down at a time, as Kafka's durability needs), links to a client cut and
// healed, and time.
// Invariants: every fetch answer holds CRC-valid batches at increasing
// offsets from the one asked (only the last may be cut short); every
// acks=all record acknowledged is, once every broker runs again, at its
// offset with its bytes; the world records no internal error. Odd seeds
// hand each body over as the wire layer does (Preparer.HandOver: the
// leaders stamp the batches in the bodies and their files keep them), and
// the world is then rebuilt from its timeline, whose bodies are stamped:
// every broker's disk holds the same bytes as the world that ran.
func TestExternalClientsRandomized(t *testing.T) {
	seeds := []uint64{}
	if *extSeed != 0 {
		seeds = append(seeds, *extSeed)
	} else {
		runs := *extRuns
		if testing.Short() {
			runs = 2
		}
		for i := range runs {
			seeds = append(seeds, uint64(1000+i))
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			if err := runExternalClients(seed, *extSteps, t.Logf); err != nil {
				t.Fatalf("seed %d: %v\nreplay: go test ./cluster -run 'TestExternalClientsRandomized' -external.seed=%d -external.steps=%d -v", seed, err, seed, *extSteps)
			}
		})
	}
}

type ackedRecord struct {
	topic     string
	partition int32
	offset    int64
	value     []byte
}

type extDriver struct {
	w      *cluster.World
	rng    *rand.Rand
	logf   func(string, ...any)
	topics map[string]int32 // name -> partitions
	// bounds are the topics created with message.timestamp.before.max.ms
	// and after.max.ms: name -> [before, after]
	bounds map[string][2]int64
	acked  []ackedRecord
	// single are the topics a Metadata request created, with one
	// replica: what acks=all acknowledged there is not read back (a
	// power cut takes the only copy's unflushed tail, as Kafka's would).
	single map[string]bool
	// trimmed are the topics whose retention was lowered (their records
	// below the log start offset are read back no more), unclean those
	// that allowed unclean elections (acknowledged records may go)
	trimmed, unclean map[string]bool
	// asked holds what each pending request was, by id.
	asked map[uint64]func(kmsg.Response) error
	// pp prepares the requests, handing their bodies over; nil sends
	// them unprepared.
	pp *cluster.Preparer
}

func runExternalClients(seed uint64, steps int, logf func(string, ...any)) error {
	w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: seed, MinInsyncReplicas: 2, Rules: replica.Modern, CombinedControllers: true})
	if err != nil {
		return err
	}
	if err := w.CreateTopic(cluster.TopicSpec{Name: "t0", Partitions: 3, ReplicationFactor: 3}); err != nil {
		return err
	}
	if err := w.RunFor(1000); err != nil {
		return err
	}
	d := &extDriver{w: w, rng: rand.New(rand.NewPCG(seed, 7)), logf: logf, topics: map[string]int32{"t0": 3}, bounds: map[string][2]int64{}, single: map[string]bool{}, asked: map[uint64]func(kmsg.Response) error{},
		trimmed: map[string]bool{}, unclean: map[string]bool{}}
	if seed%2 == 1 {
		d.pp = &cluster.Preparer{HandOver: true}
	}
	lastFault := int64(-1 << 40)
	for i := range steps {
		var err error
		switch r := d.rng.IntN(100); {
		case r < 35:
			err = d.produce()
		case r < 60:
			err = d.fetch()
		case r < 68:
			err = d.listOffsets()
		case r < 71:
			err = d.createTopic(i)
		case r < 74:
			err = d.metadata(i)
		case r < 76:
			err = d.deleteTopic()
		case r < 86:
			if w.NowMs()-lastFault >= 15_000 {
				lastFault = w.NowMs()
				err = d.fault()
			}
		case r < 90:
			err = d.offsetForLeaderEpoch()
		case r < 92:
			err = d.createPartitions()
		case r < 94:
			err = d.alterConfigs()
		default:
			err = w.RunFor(int64(10 + d.rng.IntN(3000)))
		}
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		if err := d.collect(); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
	}
	// Heal, start everything, let it settle, read back.
	if err := w.Heal(); err != nil {
		return err
	}
	for id := int32(1); id <= 3; id++ {
		if st, _ := w.BrokerState(id); st != cluster.BrokerRunning {
			if err := w.Start(id); err != nil {
				return err
			}
		}
	}
	if err := w.RunFor(30_000); err != nil {
		return err
	}
	if err := d.collect(); err != nil {
		return err
	}
	for _, a := range d.acked {
		if _, ok := d.topics[a.topic]; !ok || d.single[a.topic] || d.unclean[a.topic] {
			continue // deleted since, one replica only, or unclean elections allowed
		}
		if d.trimmed[a.topic] && a.offset < logStartOffset(w, a.topic, a.partition) {
			continue // retention deleted it, as the topic now asks
		}
		if err := d.readBack(a); err != nil {
			return err
		}
	}
	if errs := w.InternalErrors(); len(errs) > 0 {
		return fmt.Errorf("internal error: %v", errs[0].Error)
	}
	if d.pp != nil {
		again, err := w.At(len(w.Actions()) - 1)
		if err != nil {
			return fmt.Errorf("rebuilt from the timeline: %w", err)
		}
		if err := sameDisks(w, again); err != nil {
			return fmt.Errorf("rebuilt from the timeline of handed-over bodies: %w", err)
		}
	}
	logf("seed %d: %d acks=all records acknowledged and read back, t=%d ms", seed, len(d.acked), w.NowMs())
	return nil
}

// send hands req to broker as client 1 and remembers check for its answer.
func (d *extDriver) send(broker int32, req kmsg.Request, check func(kmsg.Response) error) error {
	x := cluster.ExternalRequest{Client: 1, ClientID: "crowd", Broker: broker, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)}
	var id uint64
	var err error
	if d.pp != nil {
		id, err = d.w.ExternalPrepared(x, d.pp.Prepare(&x))
	} else {
		id, err = d.w.External(x)
	}
	if err != nil {
		return err
	}
	d.asked[id] = check
	return nil
}

func (d *extDriver) collect() error {
	for _, a := range d.w.ExternalAnswers() {
		check := d.asked[a.ID]
		delete(d.asked, a.ID)
		if check != nil {
			if err := check(a.Response); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *extDriver) pick() (string, int32) {
	names := make([]string, 0, len(d.topics))
	for n := range d.topics {
		names = append(names, n)
	}
	slices.Sort(names)
	n := names[d.rng.IntN(len(names))]
	return n, int32(d.rng.IntN(int(d.topics[n])))
}

func (d *extDriver) broker(topic string, p int32) int32 {
	if d.rng.IntN(4) == 0 {
		return int32(1 + d.rng.IntN(3))
	}
	if l := d.w.PartitionLeader(topic, p); l > 0 {
		return l
	}
	return int32(1 + d.rng.IntN(3))
}

func (d *extDriver) produce() error {
	topic, p := d.pick()
	acks := []int16{-1, -1, 1, 0}[d.rng.IntN(4)]
	var b kafkalog.RecordBatch
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
	if d.rng.IntN(3) == 0 {
		b.Attributes = b.Attributes.WithCompression([]kafkalog.Compression{kafkalog.CompressionGzip, kafkalog.CompressionSnappy, kafkalog.CompressionLZ4, kafkalog.CompressionZstd}[d.rng.IntN(4)])
	}
	n := 1 + d.rng.IntN(5)
	var values [][]byte
	backfill := d.rng.IntN(3) == 0
	for i := range n {
		v := make([]byte, d.rng.IntN(2000))
		for j := range v {
			v[j] = byte(d.rng.UintN(256))
		}
		values = append(values, v)
		ts := d.w.ClockMs()
		if backfill { // the application's own timestamps, within a day either way, in any order
			ts += int64(d.rng.IntN(2*day)) - day
		}
		b.AppendRecord(int64(i), ts, fmt.Appendf(nil, "k%d", d.rng.IntN(10)), v)
	}
	outOfOrder := d.rng.IntN(6) == 0
	if outOfOrder { // a faulty client's offset deltas: written anew when compressed, else refused
		for i := range b.Records {
			b.Records[i].OffsetDelta = int32(d.rng.IntN(n))
		}
	}
	raw := b.AppendTo(nil)
	if d.rng.IntN(4) == 0 {
		// a header whose maxTimestamp is not its records' largest: the
		// leader writes the largest
		if err := kafkalog.SetMaxTimestamp(raw, kafkalog.CreateTime, d.w.ClockMs()+int64(d.rng.IntN(60*day))-30*day); err != nil {
			return err
		}
	}
	// a header that lies about the records, its CRC made good: the leader
	// refuses it (LogValidator.validateBatch)
	lie := ""
	if d.rng.IntN(8) == 0 {
		switch d.rng.IntN(4) {
		case 0:
			if v := int32(d.rng.IntN(n+4)) - 2; v != int32(n-1) {
				binary.BigEndian.PutUint32(raw[23:], uint32(v))
				lie = fmt.Sprintf("lastOffsetDelta %d", v)
			}
		case 1:
			if v := int32(d.rng.IntN(n+4)) - 1; v != int32(n) {
				binary.BigEndian.PutUint32(raw[57:], uint32(v))
				lie = fmt.Sprintf("recordsCount %d", v)
			}
		case 2:
			raw[22] |= 0x20
			lie = "the control bit"
		case 3:
			binary.BigEndian.PutUint64(raw[43:], uint64(50_000+d.rng.IntN(1000)))
			lie = "a producer id and sequence -1"
		}
		binary.BigEndian.PutUint32(raw[17:], kafkalog.CRC32C(raw[21:]))
	}
	req := produceReq(acks, raw)
	req.Topics[0].Topic, req.Topics[0].Partitions[0].Partition = topic, p
	sentAt := d.w.ClockMs()
	return d.send(d.broker(topic, p), req, func(r kmsg.Response) error {
		rp := r.(*kmsg.ProduceResponse).Topics[0].Partitions[0]
		if lie != "" {
			if rp.ErrorCode == 0 {
				return fmt.Errorf("produce to %s-%d: a batch of %d records whose header says %s was taken", topic, p, n, lie)
			}
			return nil
		}
		bounds, own := d.bounds[topic]
		if !own { // the brokers' log.message.timestamp.*.max.ms (after: one hour under Kafka 4's rules)
			bounds = [2]int64{d.w.Config().Log.MessageTimestampBeforeMaxMs, d.w.Config().Log.MessageTimestampAfterMaxMs}
		}
		if err := checkTimestampBounds(b, rp, bounds, sentAt, d.w.ClockMs()); err != nil {
			return fmt.Errorf("produce to %s-%d: %w", topic, p, err)
		}
		inOrder := true
		for i := range b.Records {
			inOrder = inOrder && b.Records[i].OffsetDelta == int32(i)
		}
		if !inOrder && b.Attributes.Compression() == kafkalog.CompressionNone && rp.ErrorCode == 0 {
			return fmt.Errorf("an uncompressed batch with offset deltas out of order was taken")
		}
		if acks == -1 && rp.ErrorCode == 0 {
			for i, v := range values {
				d.acked = append(d.acked, ackedRecord{topic, p, rp.BaseOffset + int64(i), v})
			}
		}
		return nil
	})
}

func (d *extDriver) fetch() error {
	topic, p := d.pick()
	offset := int64(d.rng.IntN(40)) - 2
	req := fetchReq(offset, -1)
	req.Topics[0].Topic, req.Topics[0].Partitions[0].Partition = topic, p
	req.MaxWaitMillis, req.MinBytes = int32(d.rng.IntN(600)), int32(d.rng.IntN(3000))
	req.MaxBytes = int32(100 + d.rng.IntN(20000))
	req.Topics[0].Partitions[0].PartitionMaxBytes = int32(100 + d.rng.IntN(20000))
	return d.send(d.broker(topic, p), req, func(r kmsg.Response) error {
		fp := r.(*kmsg.FetchResponse).Topics[0].Partitions[0]
		return checkFetched(fp.RecordBatches, offset, fp.HighWatermark)
	})
}

// checkTimestampBounds: a batch sent at sentAt and answered by answeredAt,
// to a topic whose records may lie bounds[0] before and bounds[1] after
// the leader's clock (none if both are math.MaxInt64), is refused INVALID_TIMESTAMP with an
// error record for each record out of bounds at some moment between the
// two, and only for such records; one taken has every record within the
// bounds at such a moment.
func checkTimestampBounds(b kafkalog.RecordBatch, rp kmsg.ProduceResponseTopicPartition, bounds [2]int64, sentAt, answeredAt int64) error {
	if bounds == ([2]int64{math.MaxInt64, math.MaxInt64}) {
		if rp.ErrorCode == 32 || len(rp.ErrorRecords) > 0 {
			return fmt.Errorf("a topic with no timestamp bounds answered %d with %d error records", rp.ErrorCode, len(rp.ErrorRecords))
		}
		return nil
	}
	ts := func(i int) int64 { return b.Timestamp(&b.Records[i]) }
	switch rp.ErrorCode {
	case 0:
		for i := range b.Records {
			if t := ts(i); t < sentAt-bounds[0] || t > answeredAt+bounds[1] {
				return fmt.Errorf("took record %d at %d, outside [%d - %d, %d + %d]", i, t, sentAt, bounds[0], answeredAt, bounds[1])
			}
		}
	case 32:
		if len(rp.ErrorRecords) == 0 || rp.ErrorMessage == nil || *rp.ErrorMessage != "One or more records have been rejected due to invalid timestamp" {
			return fmt.Errorf("INVALID_TIMESTAMP with message %v and %d error records", rp.ErrorMessage, len(rp.ErrorRecords))
		}
		for _, e := range rp.ErrorRecords {
			i := int(e.RelativeOffset)
			if i < 0 || i >= len(b.Records) {
				return fmt.Errorf("error record for record %d of %d", i, len(b.Records))
			}
			if t := ts(i); t >= answeredAt-bounds[0] && t <= sentAt+bounds[1] {
				return fmt.Errorf("refused record %d at %d, within [%d - %d, %d + %d]: %v", i, t, answeredAt, bounds[0], sentAt, bounds[1], e.ErrorMessage)
			}
		}
	}
	return nil
}

// day is a day in milliseconds.
const day = 24 * 60 * 60 * 1000

// checkFetched: whole batches pass their CRC, offsets increase from the
// batch holding from, the last batch may be cut, nothing at or past hw;
// every whole batch is CreateTime with its records' largest timestamp as
// its maxTimestamp, as Kafka 3.7's LogValidator writes it whatever the
// client's header said (every topic here is CreateTime, no client sends
// LogAppendTime).
func checkFetched(data []byte, from, hw int64) error {
	next := int64(-1)
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	for pos := 0; pos < len(data); {
		h, n, err := kafkalog.CheckBatch(data[pos:])
		if err != nil {
			if size, _, perr := kafkalog.PeekBatch(data[pos:]); perr != nil || int64(len(data)-pos) < size {
				return nil // the last batch, cut short
			}
			return fmt.Errorf("fetch from %d: batch at byte %d: %w", from, pos, err)
		}
		if h.LastOffset() < from || h.BaseOffset <= next || h.LastOffset() >= hw {
			return fmt.Errorf("fetch from %d (hw %d): batch [%d, %d] after %d", from, hw, h.BaseOffset, h.LastOffset(), next)
		}
		if _, err := dec.Decode(data[pos:pos+n], &b); err != nil {
			return fmt.Errorf("fetch from %d: batch at offset %d: %w", from, h.BaseOffset, err)
		}
		largest := int64(kafkalog.NoTimestamp)
		for i := range b.Records {
			largest = max(largest, b.Timestamp(&b.Records[i]))
		}
		if !b.Attributes.IsControl() && (b.Attributes.TimestampType() != kafkalog.CreateTime || b.MaxTimestamp != largest) {
			return fmt.Errorf("fetch from %d: batch at offset %d is %v with maxTimestamp %d, its records' largest timestamp %d", from, h.BaseOffset, b.Attributes.TimestampType(), b.MaxTimestamp, largest)
		}
		next = h.LastOffset()
		pos += n
	}
	return nil
}

func (d *extDriver) listOffsets() error {
	topic, p := d.pick()
	req := kmsg.NewPtrListOffsetsRequest()
	req.SetVersion(7)
	rt := kmsg.NewListOffsetsRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewListOffsetsRequestTopicPartition()
	rp.Partition, rp.Timestamp = p, []int64{-1, -2, 0, d.w.ClockMs() - 5000}[d.rng.IntN(4)]
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	return d.send(d.broker(topic, p), req, func(r kmsg.Response) error {
		lp := r.(*kmsg.ListOffsetsResponse).Topics[0].Partitions[0]
		if lp.ErrorCode == 0 && lp.Offset < -1 {
			return fmt.Errorf("ListOffsets %d of %s-%d: offset %d", rp.Timestamp, topic, p, lp.Offset)
		}
		return nil
	})
}

// offsetForLeaderEpoch asks a broker where an epoch ends, at any version,
// with a current leader epoch that may be the partition's, stale, future
// or none. The answer is one of Kafka's for it, and a found epoch is at
// most the one asked, with an end offset; none is -1 with -1.
func (d *extDriver) offsetForLeaderEpoch() error {
	topic, p := d.pick()
	var epoch int32
	for _, pi := range d.w.TopicPartitions(topic) {
		if pi.Partition == p {
			epoch = pi.LeaderEpoch
		}
	}
	asked := int32(d.rng.IntN(int(epoch)+3)) - 1
	req := epochReq(int16(d.rng.IntN(5)), topic, p, []int32{-1, epoch, epoch - 1, epoch + 1}[d.rng.IntN(4)], asked)
	return d.send(d.broker(topic, p), req, func(r kmsg.Response) error {
		ep := r.(*kmsg.OffsetForLeaderEpochResponse).Topics[0].Partitions[0]
		switch {
		case !slices.Contains([]int16{0, 3, 6, 74, 75}, ep.ErrorCode):
			return fmt.Errorf("OffsetForLeaderEpoch %s-%d: error %d", topic, p, ep.ErrorCode)
		case ep.ErrorCode != 0 && (ep.LeaderEpoch != -1 || ep.EndOffset != -1):
			return fmt.Errorf("OffsetForLeaderEpoch %s-%d: error %d with epoch %d, end offset %d", topic, p, ep.ErrorCode, ep.LeaderEpoch, ep.EndOffset)
		case ep.ErrorCode == 0 && (ep.LeaderEpoch > asked || (ep.EndOffset < 0) != (ep.LeaderEpoch < 0) && req.Version >= 1):
			return fmt.Errorf("OffsetForLeaderEpoch %s-%d for epoch %d (v%d): epoch %d, end offset %d", topic, p, asked, req.Version, ep.LeaderEpoch, ep.EndOffset)
		}
		return nil
	})
}

// createPartitions grows a topic by up to three partitions, placed by the
// controller or by the request (valid or not), validate-only or not, now
// and then past the partition bound. When it says it grew, the topic has
// the partitions asked; when it refuses, the topic has what it had.
func (d *extDriver) createPartitions() error {
	topic, _ := d.pick()
	have := d.topics[topic]
	count := have + int32(d.rng.IntN(4))
	if d.rng.IntN(20) == 0 {
		count = cluster.MaxPartitions + 1
	}
	var manual [][]int32
	if d.rng.IntN(3) == 0 {
		for range count - have {
			manual = append(manual, [][]int32{{1, 2, 3}, {3, 1, 2}, {2}, {1, 1, 2}, {4, 1, 2}, {}}[d.rng.IntN(6)])
		}
	}
	validateOnly := d.rng.IntN(4) == 0
	req := partitionsReq(validateOnly, growTo(topic, count, manual...))
	return d.send(int32(1+d.rng.IntN(3)), req, func(r kmsg.Response) error {
		res := partitionResults(r.(*kmsg.CreatePartitionsResponse))
		if len(res) != 1 || res[0].Topic != topic {
			return fmt.Errorf("CreatePartitions %s to %d: %v", topic, count, res)
		}
		got := int32(len(d.w.TopicPartitions(topic)))
		switch code := res[0].Code; {
		case code == 0 && !validateOnly:
			if got != count {
				return fmt.Errorf("CreatePartitions %s to %d: done, and it has %d", topic, count, got)
			}
			d.topics[topic] = count
		case code == 0 || slices.Contains([]int16{37, 38, 39, 44}, code):
			if got != have {
				return fmt.Errorf("CreatePartitions %s to %d (validate only %v): %v, and it has %d, not %d", topic, count, validateOnly, res[0], got, have)
			}
		default:
			return fmt.Errorf("CreatePartitions %s to %d: %v", topic, count, res[0])
		}
		return nil
	})
}

func (d *extDriver) createTopic(i int) error {
	name := fmt.Sprintf("t%d", i)
	parts := int32(1 + d.rng.IntN(4))
	_, existed := d.topics[name] // t0, made before the first step
	huge := d.rng.IntN(20) == 0  // past the world's bound: POLICY_VIOLATION, nothing made
	if huge {
		parts = int32(cluster.MaxPartitions + d.rng.IntN(1<<30))
	}
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = name, parts, 3
	var bounds *[2]int64
	if d.rng.IntN(2) == 0 { // records may lie at most this long before or after the leader's clock
		bounds = &[2]int64{int64(d.rng.IntN(2 * day)), int64(d.rng.IntN(2 * day))}
		for i, c := range []string{"message.timestamp.before.max.ms", "message.timestamp.after.max.ms"} {
			tc := kmsg.NewCreateTopicsRequestTopicConfig()
			tc.Name, tc.Value = c, kmsg.StringPtr(fmt.Sprint(bounds[i]))
			rt.Configs = append(rt.Configs, tc)
		}
	}
	req.Topics = append(req.Topics, rt)
	return d.send(int32(1+d.rng.IntN(3)), req, func(r kmsg.Response) error {
		code := r.(*kmsg.CreateTopicsResponse).Topics[0].ErrorCode
		// POLICY_VIOLATION, or INVALID_REPLICATION_FACTOR first while a broker is down
		if huge && !existed && (code != 44 && code != 38 || len(d.w.TopicPartitions(name)) > 0) {
			return fmt.Errorf("CreateTopics of %d partitions: error %d, %d partitions made; want POLICY_VIOLATION and none", parts, code, len(d.w.TopicPartitions(name)))
		}
		if code == 0 {
			d.topics[name] = parts
			if bounds != nil {
				d.bounds[name] = *bounds
			}
		}
		return nil
	})
}

// metadata asks for known topics, a new name and a name that is not legal,
// at a version from 1 to 12, allowing auto-creation or not: the known ones
// come with their partitions, the illegal one is INVALID_TOPIC_EXCEPTION,
// the new one UNKNOWN_TOPIC_OR_PARTITION; it exists afterwards, with one
// partition on one replica, if and only if the request allowed its
// creation (v1-3 always do).
func (d *extDriver) metadata(i int) error {
	req := kmsg.NewPtrMetadataRequest()
	req.SetVersion(int16(1 + d.rng.IntN(12)))
	req.AllowAutoTopicCreation = d.rng.IntN(2) == 0
	known, _ := d.pick()
	fresh, illegal := fmt.Sprintf("m%d", i), []string{"no spaces", "..", "ünïcode", strings.Repeat("x", 250)}[d.rng.IntN(4)]
	for _, name := range []string{known, fresh, illegal} {
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(name)
		req.Topics = append(req.Topics, rt)
	}
	allowed := req.Version < 4 || req.AllowAutoTopicCreation
	return d.send(int32(1+d.rng.IntN(3)), req, func(r kmsg.Response) error {
		resp := r.(*kmsg.MetadataResponse)
		codes := map[string]int16{}
		for _, mt := range resp.Topics {
			codes[*mt.Topic] = mt.ErrorCode
			if *mt.Topic == known && mt.ErrorCode == 0 && len(mt.Partitions) != int(d.topics[known]) {
				return fmt.Errorf("Metadata v%d: topic %s has %d partitions, created with %d", req.Version, known, len(mt.Partitions), d.topics[known])
			}
		}
		if codes[fresh] != 3 || codes[illegal] != 17 {
			return fmt.Errorf("Metadata v%d: new topic %s answered %d (want UNKNOWN_TOPIC_OR_PARTITION), illegal %q %d (want INVALID_TOPIC_EXCEPTION)", req.Version, fresh, codes[fresh], illegal, codes[illegal])
		}
		if len(d.w.TopicPartitions(illegal)) > 0 {
			return fmt.Errorf("Metadata v%d created the illegal topic %q", req.Version, illegal)
		}
		parts := d.w.TopicPartitions(fresh)
		switch {
		case !allowed && len(parts) > 0:
			return fmt.Errorf("Metadata v%d without AllowAutoTopicCreation created %s", req.Version, fresh)
		case allowed && len(parts) == 0: // a broker at least is alive: one fault at a time
			return fmt.Errorf("Metadata v%d (AllowAutoTopicCreation %v) did not create %s", req.Version, req.AllowAutoTopicCreation, fresh)
		case allowed:
			if len(parts) != cluster.DefaultNumPartitions || len(parts[0].Replicas) != cluster.DefaultReplicationFactor {
				return fmt.Errorf("auto-created %s has %d partitions of %d replicas, want num.partitions and default.replication.factor", fresh, len(parts), len(parts[0].Replicas))
			}
			d.topics[fresh], d.single[fresh] = int32(len(parts)), true
		}
		return nil
	})
}

func (d *extDriver) deleteTopic() error {
	topic, _ := d.pick()
	if topic == "t0" {
		return nil
	}
	req := kmsg.NewPtrDeleteTopicsRequest()
	req.TopicNames = []string{topic}
	return d.send(int32(1+d.rng.IntN(3)), req, func(r kmsg.Response) error {
		if r.(*kmsg.DeleteTopicsResponse).Topics[0].ErrorCode == 0 {
			delete(d.topics, topic)
			delete(d.bounds, topic)
			delete(d.single, topic)
			delete(d.trimmed, topic)
			delete(d.unclean, topic)
		}
		return nil
	})
}

// fault stops, kills or powers off a broker when all run, or starts the
// one that is down; or cuts or heals the client's links.
func (d *extDriver) fault() error {
	w := d.w
	for id := int32(1); id <= 3; id++ {
		if st, _ := w.BrokerState(id); st != cluster.BrokerRunning {
			d.logf("t=%d start %d", w.NowMs(), id)
			return w.Start(id)
		}
	}
	id := int32(1 + d.rng.IntN(3))
	switch d.rng.IntN(5) {
	case 0:
		return w.Stop(id)
	case 1:
		return w.Kill(id)
	case 2:
		return w.PowerCut(id, d.rng.IntN(2) == 0)
	case 3:
		return w.Partition([]int32{id}, []int32{cluster.ExternalNode(1)})
	}
	return w.Heal()
}

// readBack fetches an acknowledged record from its leader.
func (d *extDriver) readBack(a ackedRecord) error {
	leader := d.w.PartitionLeader(a.topic, a.partition)
	req := fetchReq(a.offset, -1)
	req.Topics[0].Topic, req.Topics[0].Partitions[0].Partition = a.topic, a.partition
	var found []byte
	var ok bool
	err := d.send(leader, req, func(r kmsg.Response) error {
		fp := r.(*kmsg.FetchResponse).Topics[0].Partitions[0]
		if fp.ErrorCode != 0 {
			return fmt.Errorf("acknowledged %s-%d@%d: fetch from leader %d: error %d", a.topic, a.partition, a.offset, leader, fp.ErrorCode)
		}
		var dec kafkalog.Decoder
		var b kafkalog.RecordBatch
		for pos := 0; pos < len(fp.RecordBatches); {
			n, err := dec.Decode(fp.RecordBatches[pos:], &b)
			if err != nil {
				break
			}
			pos += n
			for i := range b.Records {
				if b.Offset(&b.Records[i]) == a.offset {
					found, ok = bytes.Clone(b.Records[i].Value), true
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := d.collect(); err != nil {
		return err
	}
	if !ok || !bytes.Equal(found, a.value) {
		return fmt.Errorf("acknowledged acks=all record %s-%d@%d (%d bytes) lost: found %v", a.topic, a.partition, a.offset, len(a.value), ok)
	}
	return nil
}
