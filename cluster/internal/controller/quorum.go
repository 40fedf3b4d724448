package controller

import (
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/replica"
)

// KRaft combined mode ([Config.Combined]): the controller runs inside the
// brokers (process.roles=broker,controller), every broker is a voter of
// the metadata quorum, and the active controller is the quorum's leader.
// The metadata log is replicated on the quorum, so a new leader takes
// over with the same metadata (the Controller is not lost); the quorum
// itself (its own Raft log and votes) is not simulated, only its outcome:
// after the active controller's broker stops, crashes or loses power, the
// voters elect the lowest-id running voter once [Config.FailoverMs] have
// passed, provided a majority of voters runs. A leader keeps its place
// when an older one comes back.

// quorum is the metadata quorum's leadership.
type quorum struct {
	// active is the broker whose controller is active, 0 when none.
	active int32
	// lostAtMs is when the last active controller went away.
	lostAtMs int64
	// epoch is the quorum's leader epoch: elections so far (the first
	// leader, broker 1 at time 0, is epoch 1).
	epoch int32
	// hw is the metadata log's high watermark as modelled here: one
	// record per election (the new leader's LeaderChangeMessage) and one
	// NoOpRecord per metadata.max.idle.interval.ms (500 ms, KIP-835) while
	// a leader is active. The other metadata records (registrations,
	// partition changes) are not counted.
	hw, nextNoOpMs int64
	// voters are each voter's log end and when it last caught up with the
	// leader: a running voter follows at once, a stopped one keeps both.
	voters []voterState
}

// voterState is one voter's replica of the metadata log.
type voterState struct {
	leo, caughtUpMs int64
}

// MetadataMaxIdleIntervalMs is metadata.max.idle.interval.ms: how often the
// active controller appends a NoOpRecord (KafkaConfig, Kafka 3.3+).
const MetadataMaxIdleIntervalMs = 500

// QuorumStatus is what kafka-metadata-quorum describe --status reports
// (MetadataQuorumCommand.handleDescribeStatus, Kafka 3.7), in combined
// mode.
type QuorumStatus struct {
	// LeaderID is the active controller's broker, -1 while none.
	LeaderID int32
	// LeaderEpoch counts the quorum's elections.
	LeaderEpoch int32
	// HighWatermark is the metadata log's high watermark (elections and
	// NoOpRecords only).
	HighWatermark int64
	// MaxFollowerLag is the leader's log end minus the smallest voter log
	// end; MaxFollowerLagTimeMs the leader's last catch-up time minus that
	// voter's (0 when the leader is the laggiest).
	MaxFollowerLag, MaxFollowerLagTimeMs int64
	// Voters are every broker (combined mode); Observers none.
	Voters, Observers []int32
}

// QuorumStatus returns the metadata quorum's status; ok is false when the
// controller is a separate node (no quorum is simulated).
func (c *Controller) QuorumStatus() (QuorumStatus, bool) {
	if !c.cfg.Combined {
		return QuorumStatus{}, false
	}
	q := c.quorum
	if q.voters == nil { // before the first tick
		q = quorum{active: q.active, epoch: 1, hw: 1, voters: make([]voterState, c.cfg.Brokers)}
	}
	st := QuorumStatus{LeaderID: -1, LeaderEpoch: q.epoch, HighWatermark: q.hw, Observers: []int32{}}
	for i := range c.cfg.Brokers {
		st.Voters = append(st.Voters, int32(i+1))
	}
	if q.active == 0 {
		return st, true
	}
	st.LeaderID = q.active
	leader := q.voters[q.active-1]
	lag := leader
	for _, v := range q.voters {
		if v.leo < lag.leo {
			lag = v
		}
	}
	st.MaxFollowerLag = leader.leo - lag.leo
	if st.MaxFollowerLag > 0 {
		st.MaxFollowerLagTimeMs = leader.caughtUpMs - lag.caughtUpMs
	}
	return st, true
}

// initMetadataLog starts the metadata log: broker 1 won the first
// election (epoch 1) and wrote its LeaderChangeMessage at the world's
// start (Config.StartMs: the wall clock in a served world, not 1970).
func (c *Controller) initMetadataLog() {
	if q := &c.quorum; q.voters == nil {
		q.voters = make([]voterState, c.cfg.Brokers)
		q.epoch, q.hw, q.nextNoOpMs = 1, 1, c.cfg.StartMs+MetadataMaxIdleIntervalMs
		for i := range q.voters {
			q.voters[i].leo = 1
		}
	}
}

// tickMetadataLog appends the active controller's NoOpRecords and lets
// the running voters catch up.
func (c *Controller) tickMetadataLog(env Env) {
	q := &c.quorum
	now := env.Now()
	c.initMetadataLog()
	if q.active == 0 {
		return
	}
	if now >= q.nextNoOpMs { // a NoOpRecord every MetadataMaxIdleIntervalMs
		n := (now-q.nextNoOpMs)/MetadataMaxIdleIntervalMs + 1
		q.hw += n
		q.nextNoOpMs += n * MetadataMaxIdleIntervalMs
	}
	for i := range q.voters {
		if env.BrokerRunning(int32(i + 1)) {
			q.voters[i] = voterState{leo: q.hw, caughtUpMs: now}
		}
	}
}

// Active returns the broker id of the active controller in combined mode,
// 0 while none is elected (the separate controller's node otherwise).
func (c *Controller) Active() int32 { return c.quorum.active }

// Up reports whether a controller can act now: the separate one always,
// in combined mode an active one whose broker runs.
func (c *Controller) Up(env Env) bool {
	if !c.cfg.Combined {
		return true
	}
	a := c.quorum.active
	return a != 0 && env.BrokerRunning(a)
}

// tickQuorum notices a lost active controller and elects the next one.
func (c *Controller) tickQuorum(env Env) {
	if !c.cfg.Combined {
		return
	}
	c.initMetadataLog()
	defer c.tickMetadataLog(env)
	now := env.Now()
	if a := c.quorum.active; a != 0 && !env.BrokerRunning(a) {
		env.Record(event.Controller, a, nil, "active controller on broker %d lost (%s); the voters elect another after %d ms", a, env.BrokerState(a), c.cfg.FailoverMs)
		c.quorum.active, c.quorum.lostAtMs = 0, now
	}
	if c.quorum.active != 0 || now-c.quorum.lostAtMs < c.cfg.FailoverMs {
		return
	}
	var running []int32
	for id := int32(1); int(id) <= c.cfg.Brokers; id++ {
		if env.BrokerRunning(id) {
			running = append(running, id)
		}
	}
	if 2*len(running) <= c.cfg.Brokers {
		return // no majority of voters: no leader
	}
	c.becomeActive(env, running[0])
}

// becomeActive makes broker id's controller the active one: it replays
// the metadata log (the same partition states and registrations) and
// gives every broker a fresh session, as a new KRaft controller does.
func (c *Controller) becomeActive(env Env, id int32) {
	now := env.Now()
	c.quorum.active = id
	c.quorum.epoch++
	c.quorum.hw++ // the new leader's LeaderChangeMessage
	c.quorum.nextNoOpMs = now + MetadataMaxIdleIntervalMs
	for i := range c.brokers {
		c.brokers[i].lastHeartbeat = now
	}
	env.Record(event.Controller, id, nil, "broker %d is the active controller (quorum leader of voters %s)", id, voterLabel(c.cfg.Brokers))
}

func voterLabel(n int) string {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i + 1)
	}
	return replica.FormatIDs(ids)
}
