package broker

import (
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// fetchScans counts a broker's reads of its logs for consumers' fetches (not its
// followers'): the reads, and the batch headers and bytes their scans walked past
// between the offset index entry and the batch each read returns
// (kafkalog.ReadStats). A broker's counters run over the world's life, across its
// restarts, as its byte counters do.
type fetchScans struct {
	reads, batches, bytes int64
	// lastOffset is the offset the latest read asked for, firstBatch the base
	// offset of the batch its records began with (-1: it returned none).
	lastOffset, firstBatch int64
}

// fetchRead is one fetch of a consumer from the leader's log s at pos, when its
// records come from the mirror: the log looks pos up and scans as the read would,
// without reading the batches (kafkalog.Log.Locate), and the broker counts it.
func (b *Broker) fetchRead(env Env, s *Partition, pos int64) {
	if s.TP.Topic == metadata.OffsetsTopic {
		return
	}
	before := s.Log.Kafka().ReadStats()
	if _, _, err := s.Log.Kafka().Locate(pos, s.Log.LogEndOffset()); err != nil {
		return // the read the mirror stands for would have failed the same way: nothing scanned
	}
	b.CountFetchRead(env, s, before)
}

// CountFetchRead adds to b, which holds s, what its log's fetch reads did
// since before, and keeps the latest one's offset and first batch.
func (b *Broker) CountFetchRead(env Env, s *Partition, before kafkalog.ReadStats) {
	if b.replicas[s.TP] != s {
		return
	}
	after := s.Log.Kafka().ReadStats()
	b.fetch.reads += after.Reads - before.Reads
	b.fetch.batches += after.ScannedBatches - before.ScannedBatches
	b.fetch.bytes += after.ScannedBytes - before.ScannedBytes
	if after.Reads > before.Reads {
		off, start, ok := s.Log.Kafka().LastRead()
		b.fetch.lastOffset, b.fetch.firstBatch = off, -1
		if ok {
			b.fetch.firstBatch = start.BaseOffset
		}
	}
}
