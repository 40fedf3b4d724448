package broker

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// A client's Produce whose batches are refused (larger than
// max.message.bytes, failing their CRC, for a partition that does not
// exist...) costs nothing once answered: the world keeps its requests to
// replay them (the timeline), and a refused batch is kept as its verdict
// instead of its bytes ([Requests.Compact]), so that twenty refused
// 60 MB requests leave nothing behind but their answers. Kafka's broker
// releases a request's buffer once it is handled (RequestChannel's
// Request.releaseBuffer); its queued.max.request.bytes bounds the requests
// read and not yet handled, which the wire layer bounds here.

// verdict is how a partition of a Produce was answered at once, or that a
// replica will answer (code waitsForReplica): its error code and message,
// the records its batch held, the event it was refused with ("" if none),
// and the records the answer names as the cause (ErrorRecords). topic
// and part say which partition it is (indexes in the request).
type verdict struct {
	topic, part int
	code        int16
	msg         string
	records     int
	note        string
	errs        []kmsg.ProduceResponseTopicPartitionErrorRecord
}

// refusal is the verdict kept for partition pi of topic ti of x, which
// was refused when x was first served.
func (x *Request) refusal(ti, pi int) (verdict, bool) {
	i, ok := slices.BinarySearchFunc(x.refused, [2]int{ti, pi}, func(v verdict, at [2]int) int {
		if v.topic != at[0] {
			return v.topic - at[0]
		}
		return v.part - at[1]
	})
	if !ok {
		return verdict{}, false
	}
	return x.refused[i], true
}

// refusals are the partitions of the request being served refused with
// their batches (in request order), with the request and its decoding.
type refusals struct {
	x   *Request
	req *kmsg.ProduceRequest
	vs  []verdict
}

// add notes that v's partition of x (decoded as req) was refused.
func (r *refusals) add(x *Request, req *kmsg.ProduceRequest, v verdict) {
	if r.x != x {
		*r = refusals{x: x, req: req}
	}
	r.vs = append(r.vs, v)
}

// Compact returns x, the request just served, as the world keeps it to
// replay: nil when it is kept as it came; else a copy whose refused
// batches are gone and whose verdicts replace them, which a replay serves
// to the same answers, counts and events, and which prints as x does.
// The bytes x came with are then the caller's to let go.
func (rq *Requests) Compact(x *Request) *Request {
	r := rq.refused
	rq.refused = refusals{}
	if r.x != x || len(r.vs) == 0 || x.refused != nil {
		return nil
	}
	req := *r.req
	req.Topics = slices.Clone(req.Topics)
	for _, v := range r.vs {
		t := &req.Topics[v.topic]
		if !slices.ContainsFunc(r.vs, func(u verdict) bool { return u.topic == v.topic && u.part < v.part }) {
			t.Partitions = slices.Clone(t.Partitions) // once per topic
		}
		t.Partitions[v.part].Records = nil
	}
	c := *x
	c.Body = req.AppendTo(make([]byte, 0, compactSize(&req)))
	c.refused, c.size = slices.Clip(r.vs), len(x.Body)
	return &c
}

// compactSize is about the size of req encoded: its batches and a little
// for the rest.
func compactSize(req *kmsg.ProduceRequest) int {
	n := 64
	for _, t := range req.Topics {
		n += len(t.Topic) + 8
		for _, p := range t.Partitions {
			n += len(p.Records) + 16
		}
	}
	return n
}
