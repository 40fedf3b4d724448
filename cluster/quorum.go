package cluster

import "github.com/kafkalive/kafkalive/replica"

// KRaft combined mode ([Config.CombinedControllers]): the controller runs
// inside the brokers (process.roles=broker,controller), every broker is a
// voter of the metadata quorum, and the active controller is the quorum's
// leader. The metadata log is replicated on the quorum, so a new leader
// takes over with the same metadata ([controller] is not lost); the
// quorum itself (its own Raft log and votes) is not simulated, only its
// outcome: after the active controller's broker stops, crashes or loses
// power, the voters elect the lowest-id running voter once
// [Config.ControllerFailoverMs] have passed, provided a majority of
// voters runs. A leader keeps its place when an older one comes back.

// quorum is the metadata quorum's leadership.
type quorum struct {
	// active is the broker whose controller is active, 0 when none.
	active int32
	// lostAtMs is when the last active controller went away.
	lostAtMs int64
}

// ActiveController returns the broker id of the active controller in
// combined mode, 0 while none is elected, and [ControllerID] when the
// controller is a separate node.
func (w *World) ActiveController() int32 {
	if !w.cfg.CombinedControllers {
		return ControllerID
	}
	return w.quorum.active
}

// controllerUp reports whether a controller can act now.
func (w *World) controllerUp() bool {
	if !w.cfg.CombinedControllers {
		return true
	}
	a := w.quorum.active
	return a != 0 && w.brokers[a-1].state == BrokerRunning
}

// tickQuorum notices a lost active controller and elects the next one.
func (w *World) tickQuorum() {
	if !w.cfg.CombinedControllers {
		return
	}
	if a := w.quorum.active; a != 0 && w.brokers[a-1].state != BrokerRunning {
		w.record(EventController, a, nil, "active controller on broker %d lost (%s); the voters elect another after %d ms", a, w.brokers[a-1].state, w.cfg.ControllerFailoverMs)
		w.quorum.active, w.quorum.lostAtMs = 0, w.now
	}
	if w.quorum.active != 0 || w.now-w.quorum.lostAtMs < w.cfg.ControllerFailoverMs {
		return
	}
	var running []int32
	for _, b := range w.brokers {
		if b.state == BrokerRunning {
			running = append(running, b.id)
		}
	}
	if 2*len(running) <= len(w.brokers) {
		return // no majority of voters: no leader
	}
	w.becomeActive(running[0])
}

// becomeActive makes broker id's controller the active one: it replays
// the metadata log (the same partition states and registrations) and
// gives every broker a fresh session, as a new KRaft controller does.
func (w *World) becomeActive(id int32) {
	w.quorum.active = id
	for i := range w.ctl.brokers {
		w.ctl.brokers[i].lastHeartbeat = w.now
	}
	w.record(EventController, id, nil, "broker %d is the active controller (quorum leader of voters %s)", id, voterLabel(len(w.brokers)))
}

func voterLabel(n int) string {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i + 1)
	}
	return replica.FormatIDs(ids)
}
