package replica

import (
	"slices"
	"sort"
)

// Status is a snapshot of a [Node]'s state, for printing and comparing.
type Status struct {
	ID    int32
	Rules RuleSet
	Role  Role
	// LeaderID is the leader this replica knows of ([NoLeader] if none).
	LeaderID       int32
	LeaderEpoch    int32
	PartitionEpoch int32
	Replicas       []int32
	// ISR is the committed ISR as this replica knows it.
	ISR []int32
	// PendingISR is the ISR a leader proposed and the controller has not
	// answered yet (nil if none).
	PendingISR     []int32
	LogStartOffset int64
	LogEndOffset   int64
	HighWatermark  int64
	// LeaderEpochStartOffset is the LESO (leader only, else -1).
	LeaderEpochStartOffset int64
	Epochs                 []EpochEntry
	// FetchState is a follower's fetch state.
	FetchState FetchState
	// Followers is the leader's view of the other replicas, by id.
	Followers []FollowerStatus
	// ParkedFetches and ParkedProduces count the leader's waiting requests.
	ParkedFetches, ParkedProduces int
}

// Progress is the part of a [Status] that costs no allocation: the role,
// the leader and partition epochs, the log's bounds and the high
// watermark. A caller that reads it after every step (the simulated
// cluster's invariant checker) or for every partition (a broker's
// heartbeat) takes it rather than a Status, which copies the node's lists.
type Progress struct {
	Role                                        Role
	LeaderEpoch, PartitionEpoch                 int32
	LogStartOffset, LogEndOffset, HighWatermark int64
}

// Progress returns the node's [Progress].
func (n *Node) Progress() Progress {
	return Progress{Role: n.role, LeaderEpoch: n.leaderEpoch, PartitionEpoch: n.partitionEpoch, LogStartOffset: n.log.LogStartOffset(),
		LogEndOffset: n.log.LogEndOffset(), HighWatermark: n.hw}
}

// Epochs returns the node's leader epoch and partition epoch, which a
// broker's heartbeat reports for every partition it holds: the cheapest
// part of its [Progress].
func (n *Node) Epochs() (leaderEpoch, partitionEpoch int32) { return n.leaderEpoch, n.partitionEpoch }

// FollowerStatus is the leader's view of one follower.
type FollowerStatus struct {
	ID int32
	// LogEndOffset is the follower's last fetch offset, -1 if it has not
	// fetched in this leadership.
	LogEndOffset       int64
	LastFetchTimeMs    int64
	LastCaughtUpTimeMs int64
}

// Status returns a snapshot of the node's state.
func (n *Node) Status() Status {
	s := Status{
		ID: n.cfg.ID, Rules: n.cfg.Rules, Role: n.role, LeaderID: n.leaderID,
		LeaderEpoch: n.leaderEpoch, PartitionEpoch: n.partitionEpoch,
		Replicas: slices.Clone(n.replicas), ISR: slices.Clone(n.isr),
		PendingISR:     slices.Clone(n.lead.pendingISR),
		LogStartOffset: n.log.LogStartOffset(), LogEndOffset: n.log.LogEndOffset(),
		HighWatermark: n.hw, LeaderEpochStartOffset: -1,
		Epochs: slices.Clone(n.log.Epochs()), FetchState: n.follow.state,
	}
	if n.role == RoleLeader {
		s.LeaderEpochStartOffset = n.lead.leso
		s.ParkedFetches, s.ParkedProduces = len(n.lead.parkedFetches), len(n.lead.parkedProduces)
		for id, f := range n.lead.followers {
			fs := FollowerStatus{ID: id, LogEndOffset: f.leo, LastFetchTimeMs: f.lastFetchMs, LastCaughtUpTimeMs: f.lastCaughtUpMs}
			for _, p := range n.lead.parkedFetches {
				if at := lastCycleMs(p, n.now); p.held && p.req.From == id && at > fs.LastFetchTimeMs {
					fs.LastFetchTimeMs, fs.LastCaughtUpTimeMs = at, at // fetching at the log end all along (session.go)
				}
			}
			s.Followers = append(s.Followers, fs)
		}
		sort.Slice(s.Followers, func(i, j int) bool { return s.Followers[i].ID < s.Followers[j].ID })
	}
	return s
}
