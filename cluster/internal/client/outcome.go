package client

import "fmt"

// Outcome says how a record ended as the world knows it: "acked", "lost"
// (acknowledged, then gone from the partition), "sent" (acks=0: no answer
// comes), "failed" or "pending".
func (r *Result) Outcome() string {
	switch {
	case r.Acked && r.Acks == 0:
		return "sent"
	case r.Acked && r.Lost:
		return "lost"
	case r.Acked:
		return "acked"
	case r.Failed:
		return "failed"
	}
	return "pending"
}

// OutcomeCounts counts records by how they ended ([Result.Outcome]): Acked
// those acknowledged with an offset, Lost those of them lost after, Failed,
// and SentNoAck those sent with acks=0.
type OutcomeCounts struct {
	Acked, Lost, Failed, SentNoAck int
}

// Add counts r.
func (c *OutcomeCounts) Add(r *Result) {
	switch r.Outcome() {
	case "acked":
		c.Acked++
	case "lost":
		c.Acked++
		c.Lost++
	case "failed":
		c.Failed++
	case "sent":
		c.SentNoAck++
	}
}

// MarkLost marks lost the records of partition acknowledged at leo or
// beyond: a replica whose log ends at leo became the partition's leader,
// so they are no longer in it. It returns them as "value@offset".
func (p *Producer) MarkLost(partition int32, leo int64) []string {
	var lost []string
	for i, r := range p.results.All() {
		if r.Acked && !r.Lost && r.Acks != 0 && r.Offset >= leo && r.Partition == partition {
			r = p.results.Mut(i) // its block copied first if a snapshot shares it
			r.Lost = true
			lost = append(lost, fmt.Sprintf("%s@%d", r.Value, r.Offset))
		}
	}
	return lost
}
