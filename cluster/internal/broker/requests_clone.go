package broker

import (
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Clone returns an independent copy of rq: the numbering, the clients
// seen (with the offsets acknowledged to them), the answers not taken yet, and the requests waiting, each with a
// copy of the response it is filling in (the parts of one group request
// share one response and one count of the parts still open, in the copy
// as in rq). What no request changes once made is shared: the decoded
// requests, the answers' responses, the error records of a refused batch.
// A copy has no preparation and a fresh replay Preparer (scratch space).
func (rq *Requests) Clone() *Requests {
	c := &Requests{nextID: rq.nextID, corr: rq.corr, nextPID: rq.nextPID, sweepMs: rq.sweepMs, maxClients: rq.maxClients,
		waiting: maps.Clone(rq.waiting), answers: slices.Clone(rq.answers), clients: slices.Clone(rq.clients)}
	for i := range c.clients {
		c.clients[i].Requests = maps.Clone(c.clients[i].Requests)
		c.clients[i].acked = slices.Clone(c.clients[i].acked) // their ends move down in place
	}
	if rq.pending != nil {
		c.pending = make(map[uint64]*pending, len(rq.pending))
		for id, p := range rq.pending {
			cp := *p
			if p.produce != nil {
				cp.produce = cloneProduceResponse(p.produce)
			}
			c.pending[id] = &cp
		}
	}
	if rq.groups != nil {
		c.groups = make(map[string]*groupWait, len(rq.groups))
		type shared struct {
			resp kmsg.Response
			open *int
		}
		byID := map[uint64]shared{} // the parts of one request share these
		for _, addr := range slices.Sorted(maps.Keys(rq.groups)) {
			w := *rq.groups[addr]
			s, ok := byID[w.id]
			if !ok {
				open := *w.open
				s = shared{resp: cloneGroupResponse(w.resp), open: &open}
				byID[w.id] = s
			}
			w.resp, w.open = s.resp, s.open
			w.unstable = maps.Clone(w.unstable)
			c.groups[addr] = &w
		}
	}
	c.cloneTxns(rq)
	c.verifies = maps.Clone(rq.verifies) // the decoded requests they hold are shared, as pending's are
	c.offsetsAdded = maps.Clone(rq.offsetsAdded)
	return c
}

// cloneTxns copies the transaction requests waiting (the parts of one
// request share one response and one count in the copy as in rq).
func (c *Requests) cloneTxns(rq *Requests) {
	c.txnCommits = maps.Clone(rq.txnCommits)
	for corr, w := range c.txnCommits {
		w.resp = copyResponse(w.resp).(*kmsg.TxnOffsetCommitResponse)
		c.txnCommits[corr] = w
	}
	if rq.txns == nil {
		return
	}
	c.txns = make(map[int64]*txnWait, len(rq.txns))
	type shared struct {
		resp kmsg.Response
		open *int
	}
	byID := map[uint64]shared{}
	for _, corr := range slices.Sorted(maps.Keys(rq.txns)) {
		w := *rq.txns[corr]
		s, ok := byID[w.id]
		if !ok {
			open := *w.open
			s = shared{resp: copyResponse(w.resp), open: &open}
			byID[w.id] = s
		}
		w.resp, w.open = s.resp, s.open
		c.txns[corr] = &w
	}
}

// copyResponse is a deep copy of a response being filled in, through its
// encoding at its version.
func copyResponse(r kmsg.Response) kmsg.Response {
	c := r.RequestKind().ResponseKind()
	c.SetVersion(r.GetVersion())
	if err := c.ReadFrom(r.AppendTo(nil)); err != nil {
		panic(err) // a response kmsg encoded always decodes
	}
	return c
}

// cloneProduceResponse copies what a pending produce fills in: each
// partition's answer.
func cloneProduceResponse(r *kmsg.ProduceResponse) *kmsg.ProduceResponse {
	c := *r
	c.Topics = slices.Clone(r.Topics)
	for i := range c.Topics {
		c.Topics[i].Partitions = slices.Clone(c.Topics[i].Partitions)
	}
	return &c
}

// cloneGroupResponse copies what a waiting group request's answers fill
// in (fillAnswer): the response, with the members, topics and groups it
// lists before the coordinator answers (LeaveGroup v3+, OffsetCommit,
// OffsetFetch v8+).
func cloneGroupResponse(resp kmsg.Response) kmsg.Response {
	switch r := resp.(type) {
	case *kmsg.JoinGroupResponse:
		c := *r
		c.Members = slices.Clone(r.Members)
		return &c
	case *kmsg.SyncGroupResponse:
		c := *r
		return &c
	case *kmsg.HeartbeatResponse:
		c := *r
		return &c
	case *kmsg.LeaveGroupResponse:
		c := *r
		c.Members = slices.Clone(r.Members)
		return &c
	case *kmsg.OffsetCommitResponse:
		c := *r
		c.Topics = slices.Clone(r.Topics)
		for i := range c.Topics {
			c.Topics[i].Partitions = slices.Clone(c.Topics[i].Partitions)
		}
		return &c
	case *kmsg.OffsetFetchResponse:
		c := *r
		c.Topics = slices.Clone(r.Topics)
		c.Groups = slices.Clone(r.Groups)
		for i := range c.Groups {
			c.Groups[i].Topics = slices.Clone(c.Groups[i].Topics)
			for j := range c.Groups[i].Topics {
				c.Groups[i].Topics[j].Partitions = slices.Clone(c.Groups[i].Topics[j].Partitions)
			}
		}
		return &c
	}
	panic("broker: a group request waits for a response of another kind") // our own bug
}
