package explore

import (
	"slices"

	"github.com/kafkalive/kafkalive/cluster"
)

// powerCutAllowed is the restricted fault model's precondition
// ([ReplicationConfig.RestrictPowerCuts]): the broker runs, and every
// partition it hosts has at least min.insync.replicas ISR members that
// run, reach the controller and are registered with it in their current
// incarnation (no restart still on its way), it included, and whose
// session will not expire before their next heartbeat reaches the
// controller: a broker that just healed from an isolation longer than a
// heartbeat interval is unfenced still, but the controller fences it
// within the window (and shrinks the ISR to the broker that lost its page
// cache), so it does not count.
func powerCutAllowed(w *cluster.World, id int32) bool {
	if state, ok := w.BrokerState(id); !ok || state != cluster.BrokerRunning {
		return false
	}
	cfg := w.Config()
	alive := func(m int32) bool {
		state, _ := w.BrokerState(m)
		s, ok := w.BrokerSession(m)
		return ok && state == cluster.BrokerRunning && s.Unfenced && s.CurrentIncarnation && !w.LinkCut(m, cluster.ControllerID) &&
			s.NextHeartbeatMs-s.LastHeartbeatMs < cfg.BrokerSessionTimeoutMs
	}
	for _, t := range w.Topics() {
		for _, p := range w.TopicPartitions(t.Name) {
			if !slices.Contains(p.Replicas, id) {
				continue
			}
			n := 0
			for _, m := range p.ISR {
				if alive(m) {
					n++
				}
			}
			if !slices.Contains(p.ISR, id) || n < cfg.MinInsyncReplicas {
				return false
			}
		}
	}
	return true
}

// everyoneBut is every node of a three-broker world with producers
// producers but broker id: the controller, the consumers, the producers
// and the other brokers, in that order (an isolation's [cluster.ActPartition]).
func everyoneBut(id int32, producers int) []int32 {
	out := []int32{cluster.ControllerID, cluster.ConsumerNode}
	for i := range producers {
		out = append(out, cluster.ProducerNode(i))
	}
	for b := int32(1); b <= 3; b++ {
		if b != id {
			out = append(out, b)
		}
	}
	return out
}

// brokerIDs are the world's brokers' ids: 1, 2, ...
func brokerIDs(w *cluster.World) []int32 {
	ids := make([]int32, w.Config().Brokers)
	for i := range ids {
		ids[i] = int32(i + 1)
	}
	return ids
}
