package scenarios

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// Check is one fact compared with the simulation after a step.
type Check struct {
	Fact Fact
	// Got is the same parts of the state, as the simulation has them.
	Got string
	// Match says the simulation agrees with the fact.
	Match bool
}

// Failed reports a check that went the unexpected way: a fact that does
// not match, or a known divergence that now matches (remove its note).
func (c Check) Failed() bool { return c.Match != (c.Fact.Known == "") }

// String prints the check on one line.
func (c Check) String() string {
	want := c.Fact.Subject + " " + c.Fact.Text
	switch {
	case c.Match && c.Fact.Known == "":
		return "ok   " + want
	case c.Match:
		return "FIXED " + want + " (known divergence no longer happens: remove the note)"
	case c.Fact.Known != "":
		return fmt.Sprintf("known %s\n      got %s\n      why: %s", want, c.Got, c.Fact.Known)
	}
	return fmt.Sprintf("FAIL %s\n     got %s", want, c.Got)
}

// checker compares facts with one state of a world.
type checker struct {
	sc         *Scenario
	st         cluster.State
	w          *cluster.World
	firstAfter int // the index of the step's first action
}

func (c checker) check(f Fact) Check {
	var got string
	switch f.Kind {
	case FactLog:
		got = c.log(f)
	case FactController:
		got = c.controller(f)
	case FactClient:
		got = c.client(f)
	case FactViolations:
		got = c.violations()
	case FactGroup:
		got = c.group(f)
	case FactSegments:
		got = c.segments(f)
	case FactPartition:
		got = c.leaderLog(f)
	case FactFetch:
		got = c.fetch(f)
	}
	want := strings.TrimSpace(f.Text)
	if f.Kind == FactViolations {
		want = sortedSet(strings.Fields(want))
	}
	if f.Kind == FactLog || f.Kind == FactPartition {
		want = renderParts(f.parts, f.parts)
	}
	if f.pairs != nil {
		want = renderPairs(f.pairs, func(k string) string { return pairValue(f.pairs, k) })
	}
	if f.Kind == FactGroup {
		want = groupText(f.group, f.pairs, func(p [2]string) string { return p[1] })
	}
	return Check{Fact: f, Got: got, Match: got == want}
}

func (c checker) partition() (cluster.PartitionInfo, bool) {
	for _, p := range c.st.Partitions {
		if p.Topic == c.sc.Topic && p.Partition == c.sc.Partition {
			return p, true
		}
	}
	return cluster.PartitionInfo{}, false
}

func (c checker) log(f Fact) string {
	p, ok := c.partition()
	if !ok {
		return "no such partition"
	}
	for _, l := range p.Logs {
		if l.Broker == f.broker {
			return renderParts(c.logParts(l, f.parts), f.parts)
		}
	}
	return fmt.Sprintf("no replica on b%d", f.broker)
}

// logParts renders a replica log the way the fact is written: page-cache
// marks only if the scenario shows them, "differs" marks only if the fact
// uses them.
func (c checker) logParts(l cluster.LogInfo, want logParts) logParts {
	recs := make([]string, len(l.Records))
	for i, r := range l.Records {
		t := r.Text()
		if !c.sc.PageCacheMarks {
			t = strings.ReplaceAll(t, "*", "")
		}
		if want.noMarks {
			t = strings.ReplaceAll(t, "*", "")
		}
		if !strings.Contains(want.records, "!") {
			t = strings.ReplaceAll(t, "!", "")
		}
		recs[i] = t
	}
	epochs := make([]string, len(l.Epochs))
	for i, e := range l.Epochs {
		epochs[i] = fmt.Sprintf("(%d,%d)", e.Epoch, e.StartOffset)
	}
	return logParts{
		role:       l.Role,
		records:    strings.Join(recs, ", "),
		hasRecords: true,
		offsets:    fmt.Sprintf("%d/%d", l.LogEndOffset, l.HighWatermark),
		epochs:     "[" + strings.Join(epochs, ",") + "]",
	}
}

// renderParts prints the parts of got that want names.
func renderParts(got, want logParts) string {
	var out []string
	if want.role != "" {
		out = append(out, got.role)
	}
	if want.hasRecords && want.noMarks {
		out = append(out, "~["+got.records+"]")
	} else if want.hasRecords {
		out = append(out, "["+got.records+"]")
	}
	if want.offsets != "" {
		out = append(out, got.offsets)
	}
	if want.epochs != "" {
		out = append(out, "EC "+got.epochs)
	}
	return strings.Join(out, " ")
}

func (c checker) controller(f Fact) string {
	p, ok := c.partition()
	if !ok {
		return "no such partition"
	}
	leader := fmt.Sprint(p.Leader)
	if p.Leader < 0 {
		leader = "none"
	}
	vals := map[string]string{
		"leader": leader, "e": fmt.Sprint(p.LeaderEpoch), "isr": idSet(p.ISR), "replicas": idSet(p.Replicas),
		"elr": idSet(p.ELR), "last-known-leader": idSet(p.LastKnownELR),
		"hw": fmt.Sprint(p.HighWatermark), "leo": fmt.Sprint(p.LogEndOffset), "start": fmt.Sprint(p.LogStartOffset),
		"lso": fmt.Sprint(p.HighWatermark), "open": "[]", "aborted": "[]",
	}
	if p.LastStableOffset != nil {
		vals["lso"] = fmt.Sprint(*p.LastStableOffset)
	}
	if len(p.OpenTransactions) > 0 {
		var open []string
		for _, t := range p.OpenTransactions {
			open = append(open, fmt.Sprintf("%d@%d", t.ProducerID, t.FirstOffset))
		}
		vals["open"] = "[" + strings.Join(open, ",") + "]"
	}
	if len(p.AbortedTransactions) > 0 {
		var aborted []string
		for _, t := range p.AbortedTransactions {
			aborted = append(aborted, fmt.Sprintf("%d:%d-%d", t.ProducerID, t.FirstOffset, t.LastOffset))
		}
		vals["aborted"] = "[" + strings.Join(aborted, ",") + "]"
	}
	return renderPairs(f.pairs, func(k string) string { return vals[k] })
}

// fetch renders a broker's counters of its reads for consumers' fetches.
func (c checker) fetch(f Fact) string {
	for _, b := range c.st.Brokers {
		if b.ID == f.broker {
			vals := map[string]int64{"reads": b.FetchReads, "scanned": b.FetchScannedBatches, "scanned-bytes": b.FetchScannedBytes,
				"last-fetch": b.LastFetchOffset, "first-batch": b.LastFetchFirstBatch}
			return renderPairs(f.pairs, func(k string) string { return fmt.Sprint(vals[k]) })
		}
	}
	return fmt.Sprintf("no broker b%d", f.broker)
}

func (c checker) client(f Fact) string {
	for _, p := range c.st.Producers {
		if p.Name == f.Subject {
			return renderPairs(f.pairs, func(k string) string { return c.producerValue(p, k) })
		}
	}
	for _, cs := range c.st.Consumers {
		if cs.Name == f.Subject || (cs.Group != "" && cs.ID == f.Subject) {
			vals := map[string]string{"position": fmt.Sprint(cs.Position), "read": fmt.Sprint(cs.Read),
				"processed": fmt.Sprint(cs.Processed), "duplicates": fmt.Sprint(cs.Duplicates), "status": cs.Status, "member": cs.MemberID}
			return renderPairs(f.pairs, func(k string) string {
				if v, ok := vals[k]; ok {
					return v
				}
				return "(no " + k + ")"
			})
		}
	}
	return "no client " + f.Subject
}

// producerValue is a count (sent, acked, failed, lost-after-ack,
// sent-no-ack) or what the producer was told about the record(s) with
// value k.
func (c checker) producerValue(p cluster.ProducerInfo, k string) string {
	switch k {
	case "sent":
		return fmt.Sprint(p.Sent)
	case "acked":
		return fmt.Sprint(p.Acked)
	case "failed":
		return fmt.Sprint(p.Failed)
	case "lost-after-ack":
		return fmt.Sprint(p.LostAfterAck)
	case "sent-no-ack":
		return fmt.Sprint(p.SentNoAck)
	}
	var out []string
	for _, pr := range c.w.Producers() {
		if pr.Name() != p.Name {
			continue
		}
		for _, r := range pr.Results() {
			if r.Value == k {
				out = append(out, resultText(r))
			}
		}
	}
	if len(out) == 0 {
		return "NOT_SENT"
	}
	return strings.Join(out, ",")
}

// resultText prints what a producer was told: ACK(offset), an error code,
// PENDING (with the latest retriable error, if any), or SENT for acks=0.
func resultText(r cluster.Result) string {
	switch {
	case r.Acked:
		return fmt.Sprintf("ACK(%d)", r.Offset)
	case r.Failed:
		return r.Error
	case r.Acks == 0:
		return "SENT"
	case r.LastError != "":
		return "PENDING(" + r.LastError + ")"
	}
	return "PENDING"
}

func (c checker) violations() string {
	var names []string
	for _, v := range c.w.Violations() {
		if v.Step >= c.firstAfter {
			names = append(names, v.Invariant)
		}
	}
	return sortedSet(names)
}

func renderPairs(pairs [][2]string, val func(string) string) string {
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p[0] + "=" + val(p[0])
	}
	return strings.Join(out, " ")
}

func idSet(v []int32) string {
	parts := make([]string, len(v))
	for i, id := range v {
		parts[i] = fmt.Sprint(id)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func pairValue(pairs [][2]string, k string) string {
	for _, p := range pairs {
		if p[0] == k {
			return p[1]
		}
	}
	return ""
}
