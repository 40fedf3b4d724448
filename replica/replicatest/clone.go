package replicatest

import (
	"maps"
	"slices"
)

// Clone returns an independent copy of the environment: every peer's log
// and node ([replica.MemLog.Clone], [replica.Node.Clone] over the log's
// clone), the controller, the messages in flight, the producer's results and
// next sequence, and the checker. The messages in flight are shared: no one
// changes a message once it is sent.
func (env *InteractionEnv) Clone() *InteractionEnv {
	c := &InteractionEnv{Config: env.Config, NowMs: env.NowMs, Controller: env.Controller,
		Queue: slices.Clone(env.Queue), nextSequence: env.nextSequence}
	c.Controller.ISR, c.Controller.Replicas = slices.Clone(env.Controller.ISR), slices.Clone(env.Controller.Replicas)
	for _, p := range env.Peers {
		cp := &Peer{ID: p.ID, Log: p.Log.Clone(), Checkpoint: p.Checkpoint}
		if p.Node != nil {
			cp.Node = p.Node.Clone(cp.Log)
		}
		c.Peers = append(c.Peers, cp)
	}
	for _, r := range env.Results {
		cr := *r
		cr.Values, cr.Records = slices.Clone(r.Values), slices.Clone(r.Records)
		if r.Response != nil {
			resp := *r.Response
			cr.Response = &resp
		}
		c.Results = append(c.Results, &cr)
	}
	if env.Checker != nil {
		checker := *env.Checker
		checker.leaderHW = maps.Clone(env.Checker.leaderHW)
		c.Checker = &checker
	}
	return c
}
