package broker

import (
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// The cleaner looks at a broker's compacted logs every
// log.cleaner.backoff.ms, and only a compacted log can need it: the broker
// keeps the partitions of those (Broker.compacted), as a replica opens,
// goes, or its topic's cleanup.policy is altered, so that a round of the
// cleaner costs the compacted logs it hosts, not every log.

// noteCompacted notes whether replica s's log is compacted.
func (b *Broker) noteCompacted(s *Partition) { b.setCompacted(s.TP, s.Log.Kafka().Compacted()) }

// setCompacted lists partition k among the broker's compacted logs, or
// takes it out of them.
func (b *Broker) setCompacted(k tp, compacted bool) {
	i, listed := slices.BinarySearchFunc(b.compacted, k, metadata.ComparePartitions)
	switch {
	case compacted && !listed:
		b.compacted = slices.Insert(b.compacted, i, k)
	case !compacted && listed:
		b.compacted = slices.Delete(b.compacted, i, i+1)
	}
}
