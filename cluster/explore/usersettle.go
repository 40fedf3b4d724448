package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// settle heals the network, starts every broker, runs UserSettleMs (or
// until UserGroupSettleMs after the last consumer fault) and checks
// liveness, loss and divergence (replica.socket.timeout.ms more after a
// heal of a cut link), then runs UserCommitCheckMs and checks
// that committed offsets moved.
func (u *userRun) settle() {
	// A fetch or request lost on a link that is still cut is given up only
	// after replica.socket.timeout.ms (a request timeout), as Kafka's
	// fetcher gives it up: only then does the follower fetch again and
	// rejoin the ISR. So a settle waits that long more after the heal of
	// a cut link, the settle's own or an earlier one.
	cutEndMs, wasCut := u.lastCutEndMs()
	if !u.do(cluster.Action{Kind: cluster.ActHeal}, false) {
		return
	}
	for _, id := range brokerIDs(u.w) {
		if u.state(id) != cluster.BrokerRunning {
			if !u.do(cluster.Action{Kind: cluster.ActStart, Broker: id}, false) || u.out.Failed() {
				if !u.out.Failed() {
					u.fail("liveness", "broker %d could not be started", id)
				}
				return
			}
		}
		// A start that failed on a damaged file: the operator wipes it.
		if u.state(id) == cluster.BrokerFailed && !u.wipeAndStart(id) {
			if !u.out.Failed() {
				u.fail("liveness", "broker %d does not start even after what its failures named was wiped: %s", id, u.w.StartFailure(id))
			}
			return
		}
	}
	settleMs := max(UserSettleMs, u.lastConsumerFaultMs()+UserGroupSettleMs-u.w.NowMs())
	if wasCut {
		settleMs = max(settleMs, cutEndMs+replica.DefaultReplicaSocketTimeoutMs+UserSettleMs-u.w.NowMs())
	}
	if !u.do(cluster.Action{Kind: cluster.ActRun, Ms: settleMs}, false) || u.out.Failed() {
		return
	}
	st := u.w.State()
	// A consumer that crashed while its JoinGroup waited at the
	// coordinator is still made a member of the generation that join
	// completes (GroupCoordinator.onCompleteJoin answers every member whose
	// JoinGroup is parked), and its session (session.timeout.ms) starts only
	// then: after a chain of such crashes the group settles a session and a
	// rebalance later than UserGroupSettleMs after the last fault. So while
	// a group is not settled the settle runs on, UserGroupSettleMs more at
	// most.
	for extra := int64(0); extra < UserGroupSettleMs && u.groupProblem(st) != ""; extra += 5000 {
		if !u.do(cluster.Action{Kind: cluster.ActRun, Ms: 5000}, false) || u.out.Failed() {
			return
		}
		st = u.w.State()
	}
	u.checkLeaders(st)
	u.checkGroups(st)
	u.checkMirrors()
	if u.withinModel() {
		u.checkAcked(st)
	}
	u.checkTransactions(true)
	if u.out.Failed() {
		return
	}
	if !u.do(cluster.Action{Kind: cluster.ActRun, Ms: UserCommitCheckMs}, false) || u.out.Failed() {
		return
	}
	u.checkCommits(st, u.w.State())
}

// checkMirrors asks that every running replica's mirror hold what its
// segment files hold from its log start on (the chunks, lazy or not,
// decode to the records the files hold; [cluster.World.MirrorProblem]). A
// replica with damaged bytes is left out: its mirror holds what decodes.
func (u *userRun) checkMirrors() {
	if problem := u.w.MirrorProblem(); problem != "" {
		u.fail("mirror", "%s", problem)
	}
}

// lastCutEndMs returns when the world's last cut link was healed (now if
// a link is still cut), and whether any link was cut. On a bounded
// timeline whose oldest events fell off, a heal may end a cut made before
// them: it counts.
func (u *userRun) lastCutEndMs() (int64, bool) {
	noRecords := cluster.StateOptions{Records: func(string, int32) bool { return false }}
	if len(u.w.StateWith(noRecords).Network) > 0 {
		return u.w.NowMs(), true
	}
	evs := u.w.Events()
	var end int64
	cut := len(evs) > 0 && evs[0].Seq > 0
	any := false
	for _, e := range evs {
		if e.Kind != cluster.EventAction {
			continue
		}
		switch {
		case strings.HasPrefix(e.Text, string(cluster.ActPartition)+" "):
			cut, any = true, true
		case e.Text == string(cluster.ActHeal) && cut:
			cut, end, any = false, e.TimeMs, true
		}
	}
	return end, any
}

// lastConsumerFaultMs returns when the world's last crash-consumer,
// restart-consumer or network cut was applied (or -UserGroupSettleMs).
func (u *userRun) lastConsumerFaultMs() int64 {
	evs := u.w.Events()
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if e.Kind != cluster.EventAction {
			continue
		}
		for _, k := range []cluster.ActionKind{cluster.ActCrashConsumer, cluster.ActRestartConsumer, cluster.ActPartition} {
			if strings.HasPrefix(e.Text, string(k)+" ") {
				return e.TimeMs
			}
		}
	}
	return -UserGroupSettleMs
}

// checkLeaders: every partition has a leader and its whole ISR.
func (u *userRun) checkLeaders(st cluster.State) {
	parts := slices.Clone(st.Partitions)
	parts = append(parts, u.w.TopicPartitions(cluster.OffsetsTopic)...)
	for _, p := range parts {
		isr := slices.Clone(p.ISR)
		slices.Sort(isr)
		reps := slices.Clone(p.Replicas)
		slices.Sort(reps)
		damaged := len(u.damagedOn(cluster.PartitionRef{Topic: p.Topic, Partition: p.Partition})) > 0
		if p.Leader == replica.NoLeader || p.Leader <= 0 || !damaged && !slices.Equal(isr, reps) {
			u.fail("liveness", "after the settle, with every broker running and every link healed, %s-%d has leader %d and ISR %v (replicas %v)",
				p.Topic, p.Partition, p.Leader, p.ISR, p.Replicas)
			return
		}
	}
}

// checkGroups: every group with running members is Stable, each running
// member is in it, and every partition of their topics is assigned.
func (u *userRun) checkGroups(st cluster.State) {
	if p := u.groupProblem(st); p != "" {
		u.fail("liveness", "%s", p)
	}
}

// groupProblem says what is not settled in the groups (see checkGroups),
// "" if nothing.
func (u *userRun) groupProblem(st cluster.State) string {
	live := u.runningMembers(st)
	for _, g := range st.Groups {
		cs := live[g.Name]
		if len(cs) == 0 {
			continue
		}
		if g.State != "Stable" {
			return fmt.Sprintf("after the settle, with every broker running and every link healed, group %s with %d running members is %s (generation %d)",
				g.Name, len(cs), g.State, g.Generation)
		}
		clients := map[string]bool{}
		assigned := map[cluster.PartitionRef]bool{}
		for _, m := range g.Members {
			// A member whose process is gone (it crashed while its
			// JoinGroup waited, and that join made it a member) keeps its
			// partitions until its session expires: no commit moves them
			// until the rebalance that follows.
			if len(m.Assignment) > 0 && strings.HasPrefix(m.Idle, "its process is gone") {
				return fmt.Sprintf("group %s is Stable but its member %s holds %v for a process that is gone (%s)", g.Name, m.ID, m.Assignment, m.Idle)
			}
			clients[m.ClientID] = true
			for _, p := range m.Assignment {
				assigned[p] = true
			}
		}
		topics := map[string]bool{}
		for _, c := range cs {
			if !clients[c.Name] {
				return fmt.Sprintf("group %s is Stable without its running member %s (members %v)", g.Name, c.Name, slices.Sorted(mapKeys(clients)))
			}
			for _, t := range c.Topics {
				topics[t] = true
			}
		}
		for _, t := range u.w.Topics() {
			if !topics[t.Name] {
				continue
			}
			for p := range int32(len(t.Assignment)) {
				if !assigned[cluster.PartitionRef{Topic: t.Name, Partition: p}] {
					return fmt.Sprintf("group %s is Stable but %s-%d is assigned to none of its members", g.Name, t.Name, p)
				}
			}
		}
	}
	return ""
}

// runningMembers returns the configs of the world's group consumers whose
// process runs (in st, the world's state now), by group.
func (u *userRun) runningMembers(st cluster.State) map[string][]cluster.ConsumerConfig {
	running := map[string]bool{}
	for _, c := range st.Consumers {
		running[c.Name] = c.Group != "" && c.Status == "running"
	}
	live := map[string][]cluster.ConsumerConfig{}
	for _, c := range u.w.Consumers() {
		if cfg := c.Config(); running[cfg.Name] {
			live[cfg.Group] = append(live[cfg.Group], cfg)
		}
	}
	return live
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkCommits: every Stable group with running members that had a lag
// on a partition with an offset committed has committed more
// UserCommitCheckMs later, on that partition or on another it assigns.
// (One partition may wait longer: a consumer drains the records it
// fetched from one partition before it reads the next, max.poll.records
// at a time, as Kafka's FetchCollector drains its next-in-line fetch; a
// partition it commits for the first time, as after a rebalance gave it
// one with no offset, counts as its progress.)
func (u *userRun) checkCommits(before, after cluster.State) {
	live := u.runningMembers(after)
	now := map[string]map[cluster.PartitionRef]int64{}
	for _, g := range after.Groups {
		now[g.Name] = map[cluster.PartitionRef]int64{}
		for _, o := range g.Offsets {
			now[g.Name][cluster.PartitionRef{Topic: o.Topic, Partition: o.Partition}] = o.Committed
		}
	}
	for _, g := range before.Groups {
		if len(live[g.Name]) == 0 || g.State != "Stable" {
			continue
		}
		lagging, moved := []string{}, false
		for _, o := range g.Offsets {
			if o.Member == "" {
				continue
			}
			tp := cluster.PartitionRef{Topic: o.Topic, Partition: o.Partition}
			if c, ok := now[g.Name][tp]; ok && c > o.Committed {
				moved = true
			}
			if o.Committed < 0 || o.Lag <= 0 {
				continue
			}
			if len(u.damagedOn(tp)) == 0 {
				// A damaged partition's consumer may be stuck at the damage.
				lagging = append(lagging, fmt.Sprintf("%s-%d at %d, lag %d", o.Topic, o.Partition, o.Committed, o.Lag))
			}
		}
		if len(lagging) > 0 && !moved {
			u.fail("liveness", "group %s committed nothing more in %d ms with a lag on %s", g.Name, UserCommitCheckMs, strings.Join(lagging, ", "))
			return
		}
	}
}
