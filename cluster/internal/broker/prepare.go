package broker

import (
	"math"
	"runtime"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Prepared is the work on a client's request that depends on its bytes
// alone: its body decoded and, for a Produce, each partition's record batch
// checked (CRC, lengths) and its records decoded. [Prepare] does it on the
// caller's goroutine, before the world's lock is taken (the wire layer
// prepares each request on its connection's goroutine), and
// [Requests.SetPrepared] hands it to the brokers with the request. The
// answer is the same with or without it: the brokers do whatever was not
// prepared, and a replay of the timeline prepares nothing.
type Prepared struct {
	body    []byte // the Request.Body prepared
	req     kmsg.Request
	err     error
	batches [][]*clientBatch // a Produce's, by topic and partition
}

// clientBatch is a client's record batch, checked and decoded from the
// world's own bytes of it (raw: a copy, or the body's own bytes when the
// body was handed over, Preparer.HandOver), which go to the leader's log as
// they are. Decoding it is LogValidator's work (Kafka 3.7 reads every record of
// a batch before it appends it); what the world needs of the records is
// kept here, not the records: the mirror decodes them again only when
// someone reads them.
type clientBatch struct {
	header   kafkalog.BatchHeader
	n        int
	checkErr error
	raw      []byte
	// handedOver says raw is the body's own bytes (Preparer.HandOver).
	handedOver bool
	// decodeErr is the decoder's error; decoded is false when the batch
	// was not decoded (it failed its check).
	decodeErr error
	decoded   bool
	// records is how many records the batch decoded to, outOfOrder the
	// index of the first whose offset delta is not its index (-1 if
	// none), nullKey whether any has a null key (a compacted topic
	// refuses it), and producer the producer fields of the first (nil
	// without idempotence). Set when the batch decoded.
	records    int
	outOfOrder int
	nullKey    bool
	producer   *replica.ProducerSequence
	// maxTimestamp is the largest of the records' timestamps
	// (NoTimestamp for none), what Kafka 3.7's LogValidator writes into
	// the batch of a CreateTime topic whatever its header said.
	maxTimestamp int64
}

// Prepare prepares x for [Requests.SetPrepared]. x.Body must not change
// afterwards. A caller that prepares many requests on one goroutine
// uses a [Preparer], which keeps its decoding buffers between them.
func Prepare(x *Request) *Prepared {
	var pp Preparer
	return pp.Prepare(x)
}

// Preparer prepares requests ([Prepare]) with buffers it
// reuses from one request to the next: a client batch's decompressed
// records and the one record it reads at a time (kafkalog's Decoder.Scan).
// Its zero value is ready; one
// Preparer must not be used by two goroutines at once.
type Preparer struct {
	// HandOver says that each body it prepares is handed to the world with
	// its preparation, for good: the world keeps a Produce's batches where
	// they lie in the body, the leader stamping offsets and its epoch in
	// them in place as Kafka 3.7's LogValidator does in its request buffer
	// (the body on the timeline then holds them so stamped, which a replay
	// reads as it read them: a client's base offset and leader epoch count
	// for nothing), and its segment files keep those bytes rather than a
	// copy (kafkalog's NoCopy appends). The caller must then neither change
	// nor reuse x.Body, nor prepare it twice. Without HandOver the world
	// copies each batch.
	HandOver bool

	dec kafkalog.Decoder
}

// Prepare is [Prepare] with pp's buffers.
func (pp *Preparer) Prepare(x *Request) *Prepared {
	p := &Prepared{body: x.Body}
	p.req, p.err = decodeBody(x)
	if pr, ok := p.req.(*kmsg.ProduceRequest); ok {
		p.batches = pp.clientBatches(pr)
	}
	return p
}

// clientBatches checks and reads every batch of a Produce request, one of
// at most two requests so checked at once (decompressing).
func (pp *Preparer) clientBatches(pr *kmsg.ProduceRequest) [][]*clientBatch {
	decompressing <- struct{}{}
	defer func() {
		pp.dec.Trim(keptDecompressed)
		<-decompressing
	}()
	out := make([][]*clientBatch, len(pr.Topics))
	for ti := range pr.Topics {
		out[ti] = make([]*clientBatch, len(pr.Topics[ti].Partitions))
		for pi := range pr.Topics[ti].Partitions {
			out[ti][pi] = pp.clientBatch(pr.Topics[ti].Partitions[pi].Records)
		}
	}
	return out
}

// decompressing bounds the Produce requests whose batches are checked at
// once, in all of the process's Preparers: each may decompress a batch
// into up to kafkalog.DefaultMaxDecompressedBytes (a 60 KB gzip batch of
// zeros is 60 MiB), so that clients on many connections cannot make the
// process hold more than twice that. Two checks at once keep up with any
// client (about 30 ns a record each).
var decompressing = make(chan struct{}, min(runtime.GOMAXPROCS(0), 2))

// keptDecompressed is the decompression memory a Preparer keeps for its
// next request: a larger batch's is let go (kafkalog.Decoder.Trim).
const keptDecompressed = 4 << 20

// clientBatch checks records, one batch as a Produce carries it, and when
// it passes reads every record of the world's bytes of it (a copy, or the
// body's own with HandOver) as Kafka 3.7's LogValidator does, keeping what
// the world needs of them (clientBatch), in pp's buffers, which the next
// batch reuses.
func (pp *Preparer) clientBatch(records []byte) *clientBatch {
	cb := &clientBatch{}
	cb.header, cb.n, cb.checkErr = kafkalog.CheckBatch(records)
	if cb.checkErr != nil || len(records) == 0 {
		return cb
	}
	cb.raw, cb.handedOver = records, pp.HandOver
	if !pp.HandOver {
		cb.raw = append([]byte(nil), records...)
	}
	cb.outOfOrder = -1
	var first kafkalog.Record
	maxDelta := int64(math.MinInt64)
	h, _, err := pp.dec.Scan(cb.raw, func(i int, r *kafkalog.Record) {
		if i == 0 {
			first = *r
		}
		maxDelta = max(maxDelta, r.TimestampDelta)
		if r.OffsetDelta != int32(i) && cb.outOfOrder < 0 {
			cb.outOfOrder = i
		}
		if r.Key == nil {
			cb.nullKey = true
		}
		cb.records++
	})
	cb.decoded, cb.decodeErr = true, err
	if err != nil {
		cb.records, cb.outOfOrder, cb.nullKey = 0, 0, false // not read: the batch is refused
		return cb
	}
	cb.maxTimestamp = kafkalog.NoTimestamp
	if cb.records > 0 {
		cb.producer = replicalog.ProducerOf(&kafkalog.RecordBatch{BatchHeader: h}, &first)
		// a record's timestamp is the batch's base timestamp plus its
		// delta, or with LogAppendTime the batch's max timestamp
		// (DefaultRecordBatch's iterator)
		ts := h.BaseTimestamp + maxDelta
		if h.Attributes.TimestampType() == kafkalog.LogAppendTime {
			ts = h.MaxTimestamp
		}
		cb.maxTimestamp = max(cb.maxTimestamp, ts)
	}
	return cb
}

// replayPreparer is a [Preparer] the brokers keep for the requests they
// prepare themselves. A clone starts without it (Requests.Clone): its
// buffers are scratch space.
type replayPreparer struct {
	pp *Preparer
}

// get returns the Preparer, made at first use.
func (r *replayPreparer) get() *Preparer {
	if r.pp == nil {
		r.pp = &Preparer{}
	}
	return r.pp
}

// HasScratch reports whether rq holds the buffers of a Preparer of its
// own (made when it first serves a request unprepared), which its clones
// and the world's snapshots leave behind.
func (rq *Requests) HasScratch() bool { return rq.replay.pp != nil }

// SetPrepared hands the brokers p, the preparation of the next request
// they serve (nil: none); the world clears it once that request is
// served. A preparation made from other bytes than the request's is not
// used.
func (rq *Requests) SetPrepared(p *Prepared) { rq.prepared = p }

// preparedFor is the preparation of x's body, nil if none.
func (rq *Requests) preparedFor(x *Request) *Prepared {
	p := rq.prepared
	if p == nil || !p.of(x) {
		return nil
	}
	return p
}

// of reports whether p was prepared from x's body (the same bytes, not a
// copy).
func (p *Prepared) of(x *Request) bool {
	return len(p.body) == len(x.Body) && (len(p.body) == 0 || &p.body[0] == &x.Body[0])
}

// clientBatch is partition pi of topic ti of the Produce x carries (req,
// its decoding), prepared or checked and decoded now.
func (rq *Requests) clientBatch(x *Request, req *kmsg.ProduceRequest, ti, pi int) *clientBatch {
	if p := rq.preparedFor(x); p != nil && ti < len(p.batches) && pi < len(p.batches[ti]) {
		return p.batches[ti][pi]
	}
	return rq.replay.get().clientBatch(req.Topics[ti].Partitions[pi].Records)
}
