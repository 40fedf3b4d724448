package client

import "github.com/kafkalive/kafkalive/kafkalog"

// Progress is, per consumer group and partition, the offset after the
// furthest record any member of the group processed: a record below it is
// processed again, a duplicate (at-least-once). The world keeps one for
// all its groups; [Env.MarkProcessed] reaches it. The zero value is empty.
type Progress struct {
	ends map[string]map[kafkalog.TopicPartition]int64
}

// Mark records that group processed offset of tp, and reports whether it
// had been processed before.
func (p *Progress) Mark(group string, tp kafkalog.TopicPartition, offset int64) bool {
	if p.ends == nil {
		p.ends = map[string]map[kafkalog.TopicPartition]int64{}
	}
	m := p.ends[group]
	if m == nil {
		m = map[kafkalog.TopicPartition]int64{}
		p.ends[group] = m
	}
	end, ok := m[tp]
	if ok && offset < end {
		return true
	}
	m[tp] = offset + 1
	return false
}
