package netsim

import "maps"

// requests records the open follower requests (requestKey) and the
// incarnation of the follower that sent each, in two parts: base, which a
// clone shares and nothing changes in place, and own, the changes since
// (an entry opened, replaced or closed), the network's alone. A clone
// copies own and shares base, so that a network with thousands of fetches
// held open (idle partitions' followers, KIP-227's sessions) clones at the
// cost of the requests opened and closed since the last clone; base is
// made anew, with the changes in, once they outgrow a quarter of it, so
// that the cost stays proportional to the changes.
type requests struct {
	base map[requestKey]int
	own  map[requestKey]ownRequest
}

// ownRequest is an entry of requests.own: the incarnation, or gone (the
// request was closed; base may still hold it).
type ownRequest struct {
	inc  int
	gone bool
}

// get returns the incarnation of the request, false if it is not open.
func (r *requests) get(k requestKey) (int, bool) {
	if e, ok := r.own[k]; ok {
		return e.inc, !e.gone
	}
	inc, ok := r.base[k]
	return inc, ok
}

// set opens request k for incarnation inc.
func (r *requests) set(k requestKey, inc int) {
	if r.own == nil {
		r.own = map[requestKey]ownRequest{}
	}
	r.own[k] = ownRequest{inc: inc}
}

// remove closes request k.
func (r *requests) remove(k requestKey) {
	if _, ok := r.base[k]; !ok {
		delete(r.own, k)
		return
	}
	if r.own == nil {
		r.own = map[requestKey]ownRequest{}
	}
	r.own[k] = ownRequest{gone: true}
}

// clone returns a copy of r for a clone of the network, folding r's
// changes into a new base first when they outgrew a quarter of it.
func (r *requests) clone() requests {
	if len(r.own) > len(r.base)/4 {
		base := make(map[requestKey]int, len(r.base)+len(r.own))
		maps.Copy(base, r.base)
		for k, e := range r.own {
			if e.gone {
				delete(base, k)
			} else {
				base[k] = e.inc
			}
		}
		r.base, r.own = base, nil
	}
	return requests{base: r.base, own: maps.Clone(r.own)}
}
