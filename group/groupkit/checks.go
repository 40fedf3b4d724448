package groupkit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kit"
)

// allPartitions lists every partition of the topics, sorted.
func allPartitions(topics []group.TopicMetadata) []group.TopicPartition {
	seen := map[string]bool{}
	var out []group.TopicPartition
	for _, t := range topics {
		if seen[t.Topic] {
			continue
		}
		seen[t.Topic] = true
		for p := range max(t.Partitions, 0) {
			out = append(out, group.TopicPartition{Topic: t.Topic, Partition: p})
		}
	}
	slices.SortFunc(out, group.CompareTopicPartitions)
	return out
}

// owners maps every existing partition some member owns to that member.
func owners(in roundInput) map[group.TopicPartition]string {
	exists := map[group.TopicPartition]bool{}
	for _, tp := range allPartitions(in.topics) {
		exists[tp] = true
	}
	out := map[group.TopicPartition]string{}
	for _, m := range in.members {
		for _, tp := range m.OwnedPartitions {
			if exists[tp] {
				out[tp] = m.MemberID
			}
		}
	}
	return out
}

// quotas are minQuota, maxQuota and how many members may hold maxQuota.
func quotas(in roundInput) (minQ, maxQ, expectedMax int) {
	n, p := len(in.members), len(allPartitions(in.topics))
	if n == 0 {
		return 0, 0, 0
	}
	return p / n, (p + n - 1) / n, p % n
}

// shapeWhy checks who got what: every member an entry, every partition
// once, nothing owned by someone else.
func shapeWhy(in roundInput, got group.Assignment) (rule kit.Rule, what string) {
	ids := map[string]bool{}
	for _, m := range in.members {
		ids[m.MemberID] = true
		if _, ok := got[m.MemberID]; !ok {
			return ruleG7, fmt.Sprintf("member %s has no entry in the assignment; every member that joined gets one, an empty list if nothing is free for it yet (a new member in the first round).", m.MemberID)
		}
	}
	for _, id := range sortedIDs(got) {
		if !ids[id] {
			return ruleG7, fmt.Sprintf("the assignment has an entry for %s, which is not a member of this generation.", id)
		}
	}
	exists := map[group.TopicPartition]bool{}
	for _, tp := range allPartitions(in.topics) {
		exists[tp] = true
	}
	holder := map[group.TopicPartition]string{}
	for _, id := range sortedIDs(got) {
		for _, tp := range got[id] {
			switch {
			case !exists[tp]:
				return ruleG1, fmt.Sprintf("%s is given %s, which does not exist.", id, tp)
			case holder[tp] != "":
				return ruleG1, fmt.Sprintf("%s is given to both %s and %s; a partition has one owner per generation, or both would consume it.", tp, holder[tp], id)
			}
			holder[tp] = id
		}
	}
	own := owners(in)
	for _, tp := range sortedPartitions(holder) {
		if o := own[tp]; o != "" && o != holder[tp] {
			return ruleG2, fmt.Sprintf("%s still owns %s and keeps consuming it until it has revoked it; handing it to %s in the same round gives it two consumers. Leave it out: it moves in the follow-up rebalance.", o, tp, holder[tp])
		}
	}
	return kit.Rule{}, ""
}

// stickyWhy checks how much each member keeps and how even the group is.
func stickyWhy(in roundInput, got group.Assignment) (kit.Rule, string) {
	if len(in.members) == 0 {
		return kit.Rule{}, ""
	}
	minQ, maxQ, expectedMax := quotas(in)
	own := owners(in)
	kept, best, atMax := 0, 0, 0
	for _, m := range in.members {
		owned := ownedBy(own, m.MemberID)
		k := len(intersect(owned, got[m.MemberID]))
		kept += k
		best += min(len(owned), minQ)
		if len(owned) >= maxQ && maxQ > minQ {
			atMax++
		}
		if len(got[m.MemberID]) > maxQ {
			return ruleG4, fmt.Sprintf("%s gets %d partitions; with %d partitions over %d members nobody holds more than maxQuota = %d.", m.MemberID, len(got[m.MemberID]), len(allPartitions(in.topics)), len(in.members), maxQ)
		}
		if k < min(len(owned), minQ) {
			return ruleG3, fmt.Sprintf("%s owned %d partition(s) %s and keeps only %d; every member keeps what it owns up to minQuota = %d (a partition that moves stops while it moves).", m.MemberID, len(owned), group.FormatPartitions(owned), k, minQ)
		}
	}
	best += min(atMax, expectedMax)
	switch {
	case kept < best:
		return ruleG3, fmt.Sprintf("the members keep %d owned partitions in all; balance allows %d (each up to minQuota %d, and %d of them up to maxQuota %d): move only what balance requires.", kept, best, minQ, min(atMax, expectedMax), maxQ)
	case kept > best:
		return ruleG4, fmt.Sprintf("the members keep %d owned partitions in all, more than balance allows (%d): only %d member(s) may hold maxQuota = %d.", kept, best, expectedMax, maxQ)
	}
	holder := map[group.TopicPartition]bool{}
	for _, tps := range got {
		for _, tp := range tps {
			holder[tp] = true
		}
	}
	withheld := 0
	for _, tp := range allPartitions(in.topics) {
		if holder[tp] {
			continue
		}
		if own[tp] == "" {
			return ruleG5, fmt.Sprintf("%s is owned by nobody, yet nobody gets it: only a partition that another member must revoke first is left out.", tp)
		}
		withheld++
	}
	if lo, hi := sizes(in, got); withheld == 0 && hi-lo > 1 {
		return ruleG4, fmt.Sprintf("every partition is assigned, but members hold between %d and %d: the sizes must be within one of each other.", lo, hi)
	}
	return kit.Rule{}, ""
}

func sizes(in roundInput, got group.Assignment) (lo, hi int) {
	lo = -1
	for _, m := range in.members {
		n := len(got[m.MemberID])
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	return max(lo, 0), hi
}

func ownedBy(own map[group.TopicPartition]string, id string) []group.TopicPartition {
	var out []group.TopicPartition
	for _, tp := range sortedPartitions(own) {
		if own[tp] == id {
			out = append(out, tp)
		}
	}
	return out
}

func intersect(a, b []group.TopicPartition) []group.TopicPartition {
	var out []group.TopicPartition
	for _, tp := range a {
		if slices.Contains(b, tp) {
			out = append(out, tp)
		}
	}
	return out
}

func sortedIDs[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func sortedPartitions[V any](m map[group.TopicPartition]V) []group.TopicPartition {
	out := make([]group.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	slices.SortFunc(out, group.CompareTopicPartitions)
	return out
}

// describeRound prints the input and the learner's answer.
func describeRound(in roundInput, got group.Assignment) string {
	var sb strings.Builder
	minQ, maxQ, _ := quotas(in)
	var topics []string
	for _, t := range in.topics {
		topics = append(topics, fmt.Sprintf("%s (%d partitions)", t.Topic, t.Partitions))
	}
	fmt.Fprintf(&sb, "topics: %s; %d members, minQuota %d, maxQuota %d\nmembers rejoin owning:", strings.Join(topics, ", "), len(in.members), minQ, maxQ)
	for _, m := range in.members {
		fmt.Fprintf(&sb, "\n  %-8s %s", m.MemberID, group.FormatPartitions(sortedCopy(m.OwnedPartitions)))
	}
	if got != nil {
		sb.WriteString("\nyour assignment:\n" + formatAssignment(in, got))
	}
	return sb.String()
}

func formatAssignment(in roundInput, a group.Assignment) string {
	var lines []string
	for _, id := range sortedIDs(a) {
		lines = append(lines, fmt.Sprintf("  %-8s %s", id, group.FormatPartitions(a[id])))
	}
	if len(lines) == 0 {
		return "  (no entries)"
	}
	return strings.Join(lines, "\n")
}
