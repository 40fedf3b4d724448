package cluster

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// PreparedExternal is the work on an external request that depends on its
// bytes alone: its body decoded and, for a Produce, each partition's record
// batch checked (CRC, lengths) and its records decoded. [PrepareExternal]
// does it on the caller's goroutine, before the world's lock is taken (the
// wire layer prepares each request on its connection's goroutine), and
// [World.ExternalPrepared] uses it. The world's answer is the same with or
// without it: the world does whatever was not prepared, and a replay of the
// timeline prepares nothing.
type PreparedExternal struct {
	body    []byte // the ExternalRequest.Body prepared
	req     kmsg.Request
	err     error
	batches [][]*clientBatch // a Produce's, by topic and partition
}

// clientBatch is a client's record batch, checked and decoded from the
// world's own copy of its bytes (raw): the decoded keys and values point
// into raw, or into the decoder's fresh decompression buffer.
type clientBatch struct {
	header   kafkalog.BatchHeader
	n        int
	checkErr error
	raw      []byte
	batch    kafkalog.RecordBatch
	// decodeErr is the decoder's error; decoded is false when the batch
	// was not decoded (it failed its check).
	decodeErr error
	decoded   bool
	// records are the batch's records as a Produce hands them to the
	// leader, and entries the same as the leader's mirror keeps them,
	// their offsets relative to the batch (replicaLog.appendClient
	// stamps the base offset and the epoch): both are built here, off the
	// world's lock. Set when the batch decoded.
	records []replica.Record
	entries []replica.Entry
}

// PrepareExternal prepares x for [World.ExternalPrepared]. x.Body must not
// change afterwards.
func PrepareExternal(x *ExternalRequest) *PreparedExternal {
	p := &PreparedExternal{body: x.Body}
	p.req, p.err = decodeExternalBody(x)
	if pr, ok := p.req.(*kmsg.ProduceRequest); ok {
		p.batches = make([][]*clientBatch, len(pr.Topics))
		for ti := range pr.Topics {
			p.batches[ti] = make([]*clientBatch, len(pr.Topics[ti].Partitions))
			for pi := range pr.Topics[ti].Partitions {
				p.batches[ti][pi] = newClientBatch(pr.Topics[ti].Partitions[pi].Records)
			}
		}
	}
	return p
}

// newClientBatch checks records, one batch as a Produce carries it, and
// decodes a copy of it when it passes.
func newClientBatch(records []byte) *clientBatch {
	cb := &clientBatch{}
	cb.header, cb.n, cb.checkErr = kafkalog.CheckBatch(records)
	if cb.checkErr != nil || len(records) == 0 {
		return cb
	}
	cb.raw = append([]byte(nil), records...)
	var dec kafkalog.Decoder
	_, cb.decodeErr = dec.Decode(cb.raw, &cb.batch)
	cb.decoded = true
	if cb.decodeErr != nil {
		return cb
	}
	b := &cb.batch
	cb.records = make([]replica.Record, len(b.Records))
	cb.entries = make([]replica.Entry, len(b.Records))
	var producers []replica.ProducerSequence
	if b.ProducerID != kafkalog.NoProducerID && b.BaseSequence >= 0 {
		producers = make([]replica.ProducerSequence, len(b.Records)) // one allocation for the batch
	}
	for i := range b.Records {
		r := &b.Records[i]
		cb.records[i] = replica.Record{Key: r.Key, Value: r.Value}
		if producers != nil {
			producers[i] = replica.ProducerSequence{ID: b.ProducerID, Epoch: b.ProducerEpoch, Sequence: b.Sequence(r)}
			cb.records[i].Producer = &producers[i]
		}
		cb.entries[i] = replica.Entry{Offset: int64(i), Key: r.Key, Value: r.Value, Producer: cb.records[i].Producer}
	}
	return cb
}

// ExternalPrepared is [World.External] with the work p did (p from
// [PrepareExternal] of the same request; nil is none).
func (w *World) ExternalPrepared(req ExternalRequest, p *PreparedExternal) (uint64, error) {
	if p != nil && (len(p.body) != len(req.Body) || len(p.body) > 0 && &p.body[0] != &req.Body[0]) {
		p = nil // prepared from other bytes
	}
	w.ext.prepared = p
	defer func() { w.ext.prepared = nil }()
	return w.External(req)
}

// preparedFor is the preparation of x's body, nil if none.
func (w *World) preparedFor(x *ExternalRequest) *PreparedExternal {
	p := w.ext.prepared
	if p == nil || len(p.body) != len(x.Body) || len(p.body) > 0 && &p.body[0] != &x.Body[0] {
		return nil
	}
	return p
}

// decodeExternal parses an external request's body, or takes what
// PrepareExternal parsed. A prepared request is the world's to use once:
// a Produce's handlers read it, they do not change it.
func (w *World) decodeExternal(x *ExternalRequest) (kmsg.Request, error) {
	if p := w.preparedFor(x); p != nil {
		return p.req, p.err
	}
	return decodeExternalBody(x)
}

// clientBatch is partition pi of topic ti of the Produce x carries (req,
// its decoding), prepared or checked and decoded now.
func (w *World) clientBatch(x *ExternalRequest, req *kmsg.ProduceRequest, ti, pi int) *clientBatch {
	if p := w.preparedFor(x); p != nil && ti < len(p.batches) && pi < len(p.batches[ti]) {
		return p.batches[ti][pi]
	}
	return newClientBatch(req.Topics[ti].Partitions[pi].Records)
}
