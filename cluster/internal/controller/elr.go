package controller

import (
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/replica"
)

// Eligible leader replicas (KIP-966, Kafka 4.0; on by default for new
// clusters from 4.1, eligible.leader.replicas.version=1): under the strict
// min ISR rule (the HW does not move while the ISR is smaller than
// min.insync.replicas, KAFKA-15583) a replica that leaves the ISR while the
// ISR is below min.insync.replicas holds every committed record, so it may
// still lead. The controller keeps those replicas in the partition's
// Eligible Leader Replicas (ELR), lets the ISR become empty, and elects, in
// this order (kafka.apache.org/41/operations/eligible-leader-replicas): an
// ISR member; when the ISR is empty, an unfenced ELR member; when the ELR
// is empty too, the last known leader if it is unfenced; then, with
// unclean.leader.election.enable, any live replica. A broker that restarts
// after an unclean shutdown (its clean shutdown marker did not carry the
// broker epoch the controller registered it with) may have lost committed
// records: its registration takes it out of the ISR and the ELR.
//
// partitionChange is Kafka 4.1's PartitionChangeBuilder reduced to what
// the simulation changes (no reassignments, directories or leader recovery
// state), written from its rules: maybePopulateTargetElr, electAnyLeader,
// canElectLastKnownLeader, maybeUpdateRecordElr and
// maybeUpdateLastKnownLeader, with useLastKnownLeaderInBalancedRecovery
// on (its default, which ReplicationControlManager keeps).

// changeSpec is one change of a partition record under ELR: the ISR the
// caller wants, who may lead, and what else the change knows.
type changeSpec struct {
	// isr is the target ISR (the current one without a fenced broker, or a
	// leader's AlterPartition proposal).
	isr []int32
	// acceptable reports whether a broker may lead (unfenced, and not the
	// broker the change removes or found unclean).
	acceptable func(id int32) bool
	// unclean is unclean.leader.election.enable for the partition's topic.
	unclean bool
	// uncleanShutdown is a broker that registered after an unclean
	// shutdown (it leaves the ELR), or replica.NoLeader.
	uncleanShutdown int32
	// minISR is the topic's effective min.insync.replicas:
	// min(min.insync.replicas, replication factor), as
	// ReplicationControlManager.getTopicEffectiveMinIsr computes it.
	minISR int
}

// changed is what a partitionChange decided.
type changed struct {
	leader            int32
	isr, elr, lastELR []int32
	// how says how the leader was chosen when it changed ("elected from
	// the ELR", "elected the last known leader", "unclean election"), ""
	// when the leader stayed or none was found.
	how string
}

// partitionChange decides a partition's next leader, ISR, ELR and
// LastKnownElr under ELR (PartitionChangeBuilder.build).
func partitionChange(p *partition, s changeSpec) changed {
	isr := slices.Clone(s.isr)
	elr := populateELR(p, isr, s)
	leader, how := p.leader, ""
	validLeader := func(id int32) bool {
		return (slices.Contains(isr, id) || len(isr) == 0 && slices.Contains(elr, id)) && s.acceptable(id)
	}
	switch {
	case leader != replica.NoLeader && validLeader(leader):
	default:
		leader = replica.NoLeader
		if id := firstWhere(p.replicas, validLeader); id != replica.NoLeader {
			leader = id
			if slices.Contains(elr, id) { // the ISR was empty: the ELR member becomes the ISR
				isr, elr = []int32{id}, slices.DeleteFunc(slices.Clone(elr), func(m int32) bool { return m == id })
				how = "elected from the ELR"
			}
		} else if len(isr) == 0 && len(elr) == 0 && len(p.lastELR) == 1 && s.acceptable(p.lastELR[0]) {
			leader, isr, how = p.lastELR[0], []int32{p.lastELR[0]}, "elected the last known leader"
		} else if id := firstWhere(p.replicas, s.acceptable); s.unclean && id != replica.NoLeader {
			leader, isr, how = id, []int32{id}, "unclean election"
		}
	}
	if how == "elected the last known leader" || how == "unclean election" {
		elr = nil // an unclean election clears the ELR (maybeUpdateRecordElr)
	}
	// The last known leader: set the first time the partition is left
	// without a leader, cleared once it has one again
	// (maybeUpdateLastKnownLeader).
	var lastELR []int32
	switch {
	case leader == replica.NoLeader && p.leader != replica.NoLeader && len(p.lastELR) == 0:
		lastELR = []int32{p.leader}
	case leader == replica.NoLeader:
		lastELR = p.lastELR // kept while the partition has no leader
	case leader != p.leader && len(p.lastELR) > 0:
		lastELR = nil
	default:
		lastELR = p.lastELR
	}
	return changed{leader: leader, isr: isr, elr: sortedIDs(elr), lastELR: slices.Clone(lastELR), how: how}
}

// populateELR is PartitionChangeBuilder.maybePopulateTargetElr's ELR: with
// the target ISR at or above min ISR it is cleared; below it, it is the
// current ELR and ISR without the target ISR and the broker found unclean.
// (The LastKnownElr it also computes is replaced by the last known leader,
// which is what 4.1 keeps there: partitionChange.)
func populateELR(p *partition, isr []int32, s changeSpec) (elr []int32) {
	if len(isr) >= s.minISR {
		return nil
	}
	for _, id := range sortedIDs(slices.Concat(p.elr, p.isr)) {
		if !slices.Contains(isr, id) && id != s.uncleanShutdown {
			elr = append(elr, id)
		}
	}
	return elr
}

// firstWhere returns the first of ids for which ok holds, or
// replica.NoLeader.
func firstWhere(ids []int32, ok func(int32) bool) int32 {
	for _, id := range ids {
		if ok(id) {
			return id
		}
	}
	return replica.NoLeader
}

// minISR is the effective min.insync.replicas of a partition's topic.
func (c *Controller) minISR(k tp, p *partition) int {
	return min(c.Settings(k.Topic).MinInsyncReplicas, len(p.replicas))
}

// changeELR runs a partitionChange on partition k and applies it.
func (c *Controller) changeELR(env Env, k tp, p *partition, s changeSpec, why string) {
	s.unclean = c.Settings(k.Topic).UncleanLeaderElectionEnable
	s.minISR = c.minISR(k, p)
	if s.uncleanShutdown == 0 {
		s.uncleanShutdown = replica.NoLeader
	}
	ch := partitionChange(p, s)
	switch {
	case ch.how != "":
		why = ch.how
	case ch.leader == replica.NoLeader && p.leader != replica.NoLeader:
		why = "offline, no eligible leader"
	case ch.leader != p.leader && p.leader != replica.NoLeader:
		why = "leader fenced, elected from the ISR"
	}
	c.apply(env, k, p, ch, why)
}

// apply records a partition's new leader, ISR, ELR and last known leader
// (a KRaft partition change: the leader epoch goes up with every change of
// the leader field, the partition epoch with every change), and publishes
// it; a change that changes nothing is no change.
func (c *Controller) apply(env Env, k tp, p *partition, ch changed, why string) {
	isr := sortedIDs(ch.isr)
	if ch.leader == p.leader && slices.Equal(isr, p.isr) && slices.Equal(ch.elr, p.elr) && slices.Equal(ch.lastELR, p.lastELR) {
		return
	}
	p = c.nextEpochs(k, p, ch.leader != p.leader)
	hadELR, hadLast := len(p.elr) > 0, len(p.lastELR) > 0
	p.leader, p.isr, p.elr, p.lastELR = ch.leader, isr, ch.elr, ch.lastELR
	elr := ""
	if hadELR || len(p.elr) > 0 {
		elr = ", elr " + replica.FormatIDs(p.elr)
	}
	if hadLast || len(p.lastELR) > 0 {
		elr += ", last known leader " + replica.FormatIDs(p.lastELR)
	}
	env.Record(event.Controller, 0, &k, "%s: leader %d, epoch %d, isr %s%s", why, p.leader, p.leaderEpoch, replica.FormatIDs(p.isr), elr)
	c.publish(env, k, p)
}

// fenceELR fences brokers one at a time, as Kafka's controller fences each
// broker whose session expired in an operation of its own
// (QuorumController.maybeFenceOneStaleBroker, then
// ReplicationControlManager.handleBrokerFenced): each leaves the ISR of
// every partition it is in, which may empty it, the members it drops below
// min ISR join the ELR, and a partition it led elects another leader.
func (c *Controller) fenceELR(env Env, ids []int32, why string) {
	for _, id := range ids {
		c.brokers[id-1].fenced = true
		env.Record(event.Controller, id, nil, "fenced broker %d (%s)", id, why)
		c.removeFromISR(env, id, replica.NoLeader, "fenced replicas removed from the ISR")
	}
}

// removeFromISR changes every partition whose ISR holds broker id: the
// broker leaves it and may not lead (generateLeaderAndIsrUpdates with
// brokerToRemove, or with brokerWithUncleanShutdown when unclean is id,
// which also keeps it out of the ELR).
func (c *Controller) removeFromISR(env Env, id, unclean int32, why string) {
	for _, k := range c.order {
		p := c.parts[k]
		if !slices.Contains(p.isr, id) {
			continue
		}
		isr := slices.DeleteFunc(slices.Clone(p.isr), func(m int32) bool { return m == id })
		c.changeELR(env, k, p, changeSpec{isr: isr, acceptable: c.acceptableBut(id), uncleanShutdown: unclean}, why)
	}
}

// acceptableBut reports who may lead in a change that removes broker id:
// an unfenced broker other than id.
func (c *Controller) acceptableBut(id int32) func(int32) bool {
	return func(m int32) bool { return m != id && c.Unfenced(m) }
}

// registeredAfterShutdown is ReplicationControlManager.handleBrokerShutdown
// (Kafka 4.1), run when a new incarnation of broker id registers: after an
// unclean shutdown (the epoch its clean shutdown marker held is not the one
// the controller last registered it with, as
// ClusterControlManager.registerBroker compares them) the broker leaves
// the ISR and the ELR of every partition, since it may have lost records
// it had acknowledged; after a clean one it only leaves the ISR, as when
// it is fenced, and stays eligible.
func (c *Controller) registeredAfterShutdown(env Env, id int32, clean bool) {
	if clean {
		c.removeFromISR(env, id, replica.NoLeader, "clean shutdown")
		return
	}
	for _, k := range c.order {
		if p := c.parts[k]; slices.Contains(p.isr, id) || slices.Contains(p.elr, id) {
			env.Record(event.Controller, id, nil, "broker %d registers after an unclean shutdown: out of every ISR and ELR", id)
			break
		}
	}
	c.removeFromISR(env, id, id, "unclean shutdown")
	for _, k := range c.order {
		p := c.parts[k]
		if slices.Contains(p.elr, id) {
			c.changeELR(env, k, p, changeSpec{isr: p.isr, acceptable: c.acceptableBut(id), uncleanShutdown: id}, "unclean shutdown")
		}
	}
}

// electLeaderlessELR elects a leader for every partition without one
// (ReplicationControlManager.handleBrokerUnfenced): an ISR member, else an
// ELR member, else the last known leader, else, with unclean election, any
// unfenced replica.
func (c *Controller) electLeaderlessELR(env Env) {
	for _, k := range c.order {
		if p := c.parts[k]; p.leader == replica.NoLeader {
			c.changeELR(env, k, p, changeSpec{isr: p.isr, acceptable: c.Unfenced}, "elected from the ISR")
		}
	}
}

// ClearELR empties the ELR and the last known leader of every partition
// of topic, as Kafka 4.1's controller does when the topic's
// min.insync.replicas changes (ReplicationControlManager.removeTopicElrs):
// who was eligible under the old minimum may not be under the new one.
func (c *Controller) ClearELR(env Env, topic string) {
	for _, k := range c.order {
		if p := c.parts[k]; k.Topic == topic && (len(p.elr) > 0 || len(p.lastELR) > 0) {
			c.apply(env, k, p, changed{leader: p.leader, isr: p.isr}, "min.insync.replicas changed, ELR cleared")
		}
	}
}

// alterPartitionELR applies a leader's accepted ISR proposal under ELR:
// the ISR is the proposal, and the members it drops while below min ISR
// join the ELR (ReplicationControlManager.alterPartition builds the change
// with the ELR on); one that rejoins the ISR leaves it, and an ISR back at
// min ISR clears it. The leader is told the new ISR and partition epoch,
// the other replicas get the partition's state.
func (c *Controller) alterPartitionELR(env Env, from int32, k tp, p *partition, a replica.AlterPartition, resp replica.Message) {
	s := changeSpec{isr: a.ISR, acceptable: c.Unfenced, uncleanShutdown: replica.NoLeader, minISR: c.minISR(k, p),
		unclean: c.Settings(k.Topic).UncleanLeaderElectionEnable}
	ch := partitionChange(p, s)
	elr := ""
	if len(p.elr)+len(ch.elr) > 0 {
		elr = ", elr " + replica.FormatIDs(ch.elr)
	}
	p = c.nextEpochs(k, p, false)
	p.isr, p.elr, p.lastELR = sortedIDs(ch.isr), ch.elr, ch.lastELR
	env.Record(event.Controller, from, &k, "AlterPartition accepted: isr %s%s, partition epoch %d", replica.FormatIDs(p.isr), elr, p.partitionEpoch)
	resp.ISR, resp.PartitionEpoch = slices.Clone(p.isr), p.partitionEpoch
	for _, id := range p.replicas {
		if id != from {
			c.sendPartitionState(env, id, k, p.leaderAndISR())
		}
	}
	env.Send(netsim.Envelope{From: netsim.Controller, To: from, Kind: netsim.KindReplica, TP: k, Msg: resp})
}
