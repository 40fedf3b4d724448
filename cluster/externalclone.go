package cluster

import (
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// clone copies the world's side of external clients for a snapshot: the
// pending requests (a produce's answer being filled in is copied whole),
// what the brokers saw of each client, the answers not yet taken (final,
// shared). The replay's Preparer and the request being prepared are no
// state of the world: the copy starts without them.
func (s *externalState) clone() externalState {
	c := externalState{nextID: s.nextID, corr: s.corr, nextPID: s.nextPID, answers: slices.Clip(s.answers)}
	if s.pending != nil {
		c.pending = make(map[uint64]*extPending, len(s.pending))
		for id, p := range s.pending {
			q := *p
			if p.produce != nil {
				q.produce = copyResponse(p.produce).(*kmsg.ProduceResponse)
			}
			c.pending[id] = &q
		}
	}
	c.waiting = maps.Clone(s.waiting)
	c.clients = slices.Clone(s.clients)
	for i := range c.clients {
		c.clients[i].Requests = maps.Clone(s.clients[i].Requests)
	}
	return c
}

// clone copies the external group requests waiting at coordinators: the
// parts of one request keep sharing their answer and their count of parts
// open, each copied once.
func (s *extGroupState) clone() extGroupState {
	if s.waiting == nil {
		return extGroupState{}
	}
	c := extGroupState{waiting: make(map[string]*extGroupWait, len(s.waiting))}
	resps := map[kmsg.Response]kmsg.Response{}
	opens := map[*int]*int{}
	for _, addr := range slices.Sorted(maps.Keys(s.waiting)) {
		p := s.waiting[addr]
		q := *p
		if r, ok := resps[p.resp]; ok {
			q.resp = r
		} else {
			q.resp = copyResponse(p.resp)
			resps[p.resp] = q.resp
		}
		if o, ok := opens[p.open]; ok {
			q.open = o
		} else {
			n := *p.open
			q.open = &n
			opens[p.open] = q.open
		}
		c.waiting[addr] = &q
	}
	return c
}

// copyResponse is a deep copy of a response being filled in, through its
// own encoding at its version (every field a client can be sent).
func copyResponse(r kmsg.Response) kmsg.Response {
	c := kmsg.ResponseForKey(r.Key())
	c.SetVersion(r.GetVersion())
	if err := c.ReadFrom(r.AppendTo(nil)); err != nil {
		panic("cluster: a response does not read back its own encoding: " + err.Error()) // our bug
	}
	return c
}
