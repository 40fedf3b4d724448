package notes

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/group/groupkit"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
	"github.com/kafkalive/kafkalive/solutions/bank"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative"
)

// The generators of chapters 5 and 6 and their concept notes.
func init() {
	generators["kip279-rounds"] = kip279Rounds
	generators["failure-another-round"] = failureAnotherRound
	generators["failure-newer-epoch"] = failureNewerEpoch
	generators["s9-cooperative"] = s9Cooperative
	generators["failure-hands-out-revoked"] = failureHandsOutRevoked
	generators["offsets-partitions"] = offsetsPartitions
	generators["lag-s10"] = lagS10
}

// TestRuleLinksExist56 is TestRuleLinksExist for the suites of chapters 5
// and 6, which live beside their library packages.
func TestRuleLinksExist56(t *testing.T) {
	for _, r := range slices.Concat(replicakit.Rules(), groupkit.Rules()) {
		file, anchor, ok := strings.Cut(r.Note, "#")
		if !ok || !strings.HasPrefix(file, "notes/") {
			t.Errorf("rule %s links %q, want notes/FILE.md#anchor", r.ID, r.Note)
			continue
		}
		if !slices.Contains(anchors(t, strings.TrimPrefix(file, "notes/")), anchor) {
			t.Errorf("rule %s (%s) links %s, but %s has no heading with anchor #%s", r.ID, r.Name, r.Note, file, anchor)
		}
	}
}

// s8b are the logs of scenario kip279-two-rounds before step 6: X led epochs 0 and 2, Y
// epochs 1 and 3, each alone.
var s8b = struct {
	x, y            string
	xEpochs         []truncation.EpochEntry
	yEpochs         []replica.EpochEntry
	xLEO, xHW, yLEO int64
}{
	x: "0 a·e0, 1 b·e0, 2 f·e2", y: "0 a·e0, 1 c·e1, 2 d·e1, 3 e·e1, 4 g·e3, 5 h·e3",
	xEpochs: []truncation.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 2}},
	yEpochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 1}, {Epoch: 3, StartOffset: 4}},
	xLEO:    3, xHW: 1, yLEO: 6,
}

// yAnswers is the leader Y answering OffsetsForLeaderEpoch from its cache.
func yAnswers(epoch int32) truncation.EpochEndOffset {
	c, err := replica.NewEpochCache(s8b.yEpochs)
	if err != nil {
		panic(err)
	}
	e, end, ok := c.EndOffsetFor(epoch, s8b.yLEO)
	if !ok {
		return truncation.EpochEndOffset{Epoch: truncation.NoEpoch, EndOffset: truncation.UndefinedOffset}
	}
	return truncation.EpochEndOffset{Epoch: e, EndOffset: end}
}

func kip279Rounds() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "X, follower: [%s]  epochs %s  LEO %d\n", s8b.x, formatEpochs(s8b.xEpochs), s8b.xLEO)
	fmt.Fprintf(&sb, "Y, leader:   [%s]  epochs %s  LEO %d\n", s8b.y, formatEpochs(s8b.yEpochs), s8b.yLEO)
	epochs, leo := s8b.xEpochs, s8b.xLEO
	for round := 1; ; round++ {
		e := epochs[len(epochs)-1].Epoch
		a := yAnswers(e)
		o, done := truncation.TruncationPoint(epochs, leo, s8b.xHW, a)
		fmt.Fprintf(&sb, "round %d: X asks for epoch %d; Y answers (epoch %d, end offset %d); X cuts at %d, done=%t\n", round, e, a.Epoch, a.EndOffset, o, done)
		leo = o
		epochs = slices.DeleteFunc(slices.Clone(epochs), func(en truncation.EpochEntry) bool { return en.StartOffset >= o })
		if done || len(epochs) == 0 {
			break
		}
	}
	after := truncation.Truncate(truncation.Follower{Epochs: s8b.xEpochs, LogEndOffset: s8b.xLEO, HighWatermark: s8b.xHW}, yAnswers)
	xs, ys := strings.Split(s8b.x, ", "), strings.Split(s8b.y, ", ")
	fmt.Fprintf(&sb, "Truncate: LEO %d, HW %d, epochs %s: X keeps [%s], Y's first records\n", after.LogEndOffset, after.HighWatermark, formatEpochs(after.Epochs), strings.Join(xs[:after.LogEndOffset], ", "))
	var xEpochs []replica.EpochEntry
	for _, e := range s8b.xEpochs {
		xEpochs = append(xEpochs, replica.EpochEntry(e))
	}
	o, _ := mistake(bank.Truncation(), "ignoresleaderepoch").TruncationPoint(xEpochs, s8b.xLEO, s8b.xHW, replica.EpochEndOffset(yAnswers(2)))
	fmt.Fprintf(&sb, "0.11's rule (one round, the answer's epoch ignored): X cuts at %d and keeps [%s] where Y has [%s]",
		o, strings.Join(xs[after.LogEndOffset:o], ", "), strings.Join(ys[after.LogEndOffset:o], ", "))
	return sb.String()
}

func formatEpochs[E truncation.EpochEntry | replica.EpochEntry](es []E) string {
	parts := make([]string, len(es))
	for i, e := range es {
		en := truncation.EpochEntry(e)
		parts[i] = fmt.Sprintf("(%d,%d)", en.Epoch, en.StartOffset)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func failureAnotherRound() string {
	return replicakit.CheckTruncation(mistake(bank.Truncation(), "neveranotherround"), bank.Truncation()...).Error()
}

func failureNewerEpoch() string {
	return replicakit.CheckTruncation(mistake(bank.Truncation(), "neweranotherround"), bank.Truncation()...).Error()
}

func formatOwned(tps []cooperative.TopicPartition) string {
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = fmt.Sprintf("p%d", tp.Partition)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// s9Cooperative replays group coop-g of scenario eager-vs-cooperative with the chapter's
// solution: K3 joins a group of two; two rounds later it has p4 and p5.
func s9Cooperative() string {
	topics := []cooperative.TopicMetadata{{Topic: "orders", Partitions: 6}}
	owned := map[string][]cooperative.TopicPartition{}
	var sb strings.Builder
	generation := 0
	rebalance := func(ids ...string) bool {
		var ms []cooperative.Member
		for _, id := range ids {
			ms = append(ms, cooperative.Member{MemberID: id, OwnedPartitions: owned[id]})
		}
		got := cooperative.Assign(ms, topics)
		generation++
		revoked := false
		fmt.Fprintf(&sb, "generation %d:", generation)
		for _, id := range ids {
			fmt.Fprintf(&sb, "  %s %s", id, formatOwned(got[id]))
			if gave := lost(owned[id], got[id]); len(gave) > 0 {
				fmt.Fprintf(&sb, " revokes %s", formatOwned(gave))
				revoked = true
			}
			owned[id] = got[id]
		}
		sb.WriteString("\n")
		return revoked
	}
	rebalance("K1", "K2")
	sb.WriteString("K3 joins; K1 and K2 rejoin listing what they own, and keep consuming it\n")
	if rebalance("K1", "K2", "K3") {
		sb.WriteString("someone revoked a partition, so it rejoins at once: a follow-up rebalance\n")
		rebalance("K1", "K2", "K3")
	}
	return strings.TrimRight(sb.String(), "\n")
}

func lost(before, after []cooperative.TopicPartition) []cooperative.TopicPartition {
	var out []cooperative.TopicPartition
	for _, tp := range before {
		if !slices.Contains(after, tp) {
			out = append(out, tp)
		}
	}
	return out
}

func failureHandsOutRevoked() string {
	return groupkit.CheckCooperativeSticky(mistake(bank.Cooperative(), "handsoutrevoked"), bank.Cooperative()...).Error()
}

func offsetsPartitions() string {
	var sb strings.Builder
	sb.WriteString("group.id      __consumer_offsets partition (of 50)\n")
	for _, id := range []string{"analytics", "workers", "eager-g", "coop-g"} {
		p, err := group.OffsetsPartition(id, 50)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&sb, "%-13s %d\n", id, p)
	}
	return strings.TrimRight(sb.String(), "\n")
}

// lagS10 is kafka-consumer-groups --describe for group workers of scenario
// crash-is-not-a-goodbye at
// t = 12 s, after W1 crashed (branch B), and for a group that never committed.
func lagS10() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-9s %-6s %-9s %-16s %-14s %s\n", "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG")
	for _, r := range []struct {
		group         string
		partition     int
		committed, hw int64
	}{{"workers", 0, 10, 20}, {"workers", 1, 20, 20}, {"auditors", 0, -1, 20}} {
		current, lag := "-", "-"
		if l, ok := group.Lag(r.hw, r.committed); ok {
			current, lag = fmt.Sprint(r.committed), fmt.Sprint(l)
		}
		fmt.Fprintf(&sb, "%-9s %-6s %-9d %-16s %-14d %s\n", r.group, "tasks", r.partition, current, r.hw, lag)
	}
	return strings.TrimRight(sb.String(), "\n")
}
