package cluster

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/group"
)

// CheckConverged reports, one sentence each, how the world falls short of
// where it must end once every broker runs and every link has been healed
// for long enough (a few session timeouts): every partition (those of
// __consumer_offsets included) has a leader and its full ISR, and every
// group with running members is Stable with each of them in it and every
// partition of their topics assigned. Nil means converged. It says so
// first, and checks nothing more, if a broker is not running or a link is
// cut. [CheckCommitsMoved] is the check over time that goes with it.
func (w *World) CheckConverged() []string {
	var out []string
	for _, b := range w.brokers {
		if b.State() != BrokerRunning {
			out = append(out, fmt.Sprintf("broker %d is %s", b.ID(), b.State()))
		}
	}
	if cut := w.net.CutLinks(); len(cut) > 0 {
		out = append(out, fmt.Sprintf("links %v are cut", cut))
	}
	if len(out) > 0 {
		return out
	}
	for _, tp := range w.ctl.Partitions() {
		p, _ := w.ctl.View(tp)
		isr, reps := sortedIDs(p.ISR), sortedIDs(p.Replicas)
		if p.Leader <= 0 || !slices.Equal(isr, reps) {
			out = append(out, fmt.Sprintf("%s-%d has leader %d and ISR %v (replicas %v)", tp.Topic, tp.Partition, p.Leader, p.ISR, p.Replicas))
		}
	}
	live := map[string][]*Consumer{}
	for _, c := range w.consumers {
		if c.Running() && c.MemberState() != group.Left {
			live[c.Config().Group] = append(live[c.Config().Group], c)
		}
	}
	for _, g := range w.groupInfos(false) {
		cs := live[g.Name]
		if len(cs) == 0 {
			continue
		}
		if g.State != "Stable" {
			out = append(out, fmt.Sprintf("group %s with %d running members is %s (generation %d)", g.Name, len(cs), g.State, g.Generation))
			continue
		}
		clients := map[string]bool{}
		assigned := map[PartitionRef]bool{}
		for _, m := range g.Members {
			clients[m.ClientID] = true
			for _, p := range m.Assignment {
				assigned[p] = true
			}
		}
		topics := map[string]bool{}
		for _, c := range cs {
			if !clients[c.Name()] {
				out = append(out, fmt.Sprintf("group %s is Stable without its running member %s", g.Name, c.Name()))
			}
			for _, t := range c.Config().Topics {
				topics[t] = true
			}
		}
		for _, t := range w.ctl.Topics() {
			if !topics[t.Name] {
				continue
			}
			for p := range int32(len(t.Assignment)) {
				if !assigned[PartitionRef{Topic: t.Name, Partition: p}] {
					out = append(out, fmt.Sprintf("group %s is Stable but %s-%d is assigned to none of its members", g.Name, t.Name, p))
				}
			}
		}
	}
	return out
}

// CheckCommitsMoved compares two states of a converged world taken some
// time apart (longer than the groups' auto.commit.interval.ms and poll
// intervals): every Stable group of before that had a lag on an assigned
// partition with a committed offset has committed more on at least one
// of them in after (a consumer drains one partition's fetched records
// before it reads the next, so not every partition need move). It
// reports, one sentence each, the groups that did not.
func CheckCommitsMoved(before, after State) []string {
	now := map[string]map[PartitionRef]int64{}
	for _, g := range after.Groups {
		now[g.Name] = map[PartitionRef]int64{}
		for _, o := range g.Offsets {
			now[g.Name][PartitionRef{Topic: o.Topic, Partition: o.Partition}] = o.Committed
		}
	}
	var out []string
	for _, g := range before.Groups {
		if g.State != "Stable" || len(g.Members) == 0 {
			continue
		}
		lagging, moved := 0, false
		for _, o := range g.Offsets {
			if o.Committed < 0 || o.Lag <= 0 || o.Member == "" {
				continue
			}
			lagging++
			moved = moved || now[g.Name][PartitionRef{Topic: o.Topic, Partition: o.Partition}] > o.Committed
		}
		if lagging > 0 && !moved {
			out = append(out, fmt.Sprintf("group %s committed nothing more between %d and %d ms with a lag on %d partitions", g.Name, before.TimeMs, after.TimeMs, lagging))
		}
	}
	return out
}
