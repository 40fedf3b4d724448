package controller

import (
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
)

// DescribeQuorum returns the quorum as its leader describes it now; ok is
// false while no controller is active (combined mode without a majority
// of running voters, or before one is elected again): nobody answers.
//
// In combined mode every broker is a voter and there are no observers; a
// running voter fetches at every tick (tickMetadataLog), so its last fetch
// is its last catch-up; a voter that is down keeps the last of both. With
// a separate controller (node 0) its metadata log is not modelled: the
// controller is the one voter with an unknown log end, the brokers are
// its observers (a KRaft broker replicates the metadata log as one), their
// log ends and times unknown.
func (c *Controller) DescribeQuorum(env Env) (metadata.QuorumDescription, bool) {
	now := env.Now()
	if !c.cfg.Combined {
		d := metadata.QuorumDescription{LeaderID: netsim.Controller, LeaderEpoch: 1, HighWatermark: -1,
			Voters: []metadata.QuorumReplica{{ID: netsim.Controller, LogEndOffset: -1, LastFetchMs: now, LastCaughtUpMs: now}}}
		for id := int32(1); int(id) <= c.cfg.Brokers; id++ {
			d.Observers = append(d.Observers, metadata.QuorumReplica{ID: id, LogEndOffset: -1, LastFetchMs: -1, LastCaughtUpMs: -1})
		}
		return d, true
	}
	if !c.Up(env) {
		return metadata.QuorumDescription{}, false
	}
	st, _ := c.QuorumStatus()
	d := metadata.QuorumDescription{LeaderID: st.LeaderID, LeaderEpoch: st.LeaderEpoch, HighWatermark: st.HighWatermark, Observers: []metadata.QuorumReplica{}}
	voters := c.quorum.voters
	if voters == nil { // before the first tick: the first leader's LeaderChangeMessage
		voters = make([]voterState, c.cfg.Brokers)
		for i := range voters {
			voters[i].leo = 1
		}
	}
	for i, v := range voters {
		id := int32(i + 1)
		r := metadata.QuorumReplica{ID: id, LogEndOffset: v.leo, LastFetchMs: v.caughtUpMs, LastCaughtUpMs: v.caughtUpMs}
		if id == st.LeaderID {
			r.LastFetchMs, r.LastCaughtUpMs = now, now
		}
		d.Voters = append(d.Voters, r)
	}
	return d, true
}
