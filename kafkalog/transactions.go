package kafkalog

import (
	"cmp"
	"fmt"
	"slices"
)

// appendedBatch is a batch of the append in progress that carries a
// producer id, and the marker it holds if it ends a transaction.
type appendedBatch struct {
	h      BatchHeader
	marker *txnMarker
	m      txnMarker
}

// noteProducerBatch remembers a batch of the append in progress for the
// producer state (analyze calls it for each batch, in order).
func (l *Log) noteProducerBatch(h *BatchHeader, raw []byte) {
	if h.ProducerID < 0 {
		return
	}
	pb := appendedBatch{h: *h}
	if h.Attributes.IsControl() {
		m, ok := readTxnMarker(raw)
		if !ok {
			return // another control record, or an emptied batch: nothing to apply
		}
		pb.m = m
	}
	l.scratch = append(l.scratch, pb)
	if h.Attributes.IsControl() {
		last := &l.scratch[len(l.scratch)-1]
		last.marker = &last.m
	}
}

// checkProducers applies a leader's producer checks to the batches of the
// append in progress (ProducerAppendInfo for appends from clients and
// coordinators), each against the producer's entry as the batches before
// it left it.
func (l *Log) checkProducers() error {
	var seen []ProducerSnapshotEntry // entries the batches so far changed
	for i := range l.scratch {
		pb := &l.scratch[i]
		at := slices.IndexFunc(seen, func(e ProducerSnapshotEntry) bool { return e.ProducerID == pb.h.ProducerID })
		if at < 0 {
			seen = append(seen, l.producers.entry(pb.h.ProducerID))
			at = len(seen) - 1
		}
		if err := seen[at].check(&pb.h, pb.marker); err != nil {
			return err
		}
		seen[at].update(&pb.h, pb.marker)
	}
	return nil
}

// applyProducerBatches applies the batches of the append just written to
// seg to the producer state, and records each aborted transaction their
// markers end in seg's transaction index with the last stable offset at
// that point (UnifiedLog.append: updateTxnIndex, then completeTxn).
func (l *Log) applyProducerBatches(seg *Segment) error {
	for i := range l.scratch {
		if err := l.applyProducerBatch(seg, &l.scratch[i].h, l.scratch[i].marker, true); err != nil {
			return err
		}
	}
	l.scratch = l.scratch[:0]
	return nil
}

// applyProducerBatch applies one batch of seg to the producer state; with
// index, an aborted transaction its marker ends is added to seg's
// transaction index.
func (l *Log) applyProducerBatch(seg *Segment, h *BatchHeader, m *txnMarker, index bool) error {
	done := l.producers.apply(h, m)
	if done == nil {
		return nil
	}
	if done.Aborted && index {
		t := AbortedTxn{ProducerID: done.ProducerID, FirstOffset: done.FirstOffset, LastOffset: done.LastOffset, LastStableOffset: l.producers.lastStable(*done)}
		if err := seg.appendAbortedTxn(t); err != nil {
			return err
		}
	}
	l.producers.complete(*done)
	return nil
}

// rebuildProducerState reads the producer state back from the log's
// batches, from the log start, as Kafka rebuilds it from its snapshots and
// the log after them (UnifiedLog.loadProducerState) when a log opens or is
// truncated. The segments recovery emptied the transaction index of
// (txnRebuild) get their aborted transactions back (LogSegment.recover).
// Only the headers are read, and the records of control batches. Bytes that
// do not read as a batch (damage below the recovery point, which a clean
// open does not check) end the reading of their segment, and the next
// segment is read: Kafka reads its state from the .snapshot files there and
// does not meet them.
func (l *Log) rebuildProducerState() error {
	l.producers.reset()
	bp := recoveryBuffers.Get().(*[]byte)
	defer recoveryBuffers.Put(bp)
	for _, s := range l.segments {
		rebuild := s.txnRebuild
		s.txnRebuild = false
		err := s.eachHeader(*bp, func(h *BatchHeader, raw func() ([]byte, error)) error {
			if h.ProducerID < 0 || h.LastOffset() < l.logStartOffset {
				return nil
			}
			var m *txnMarker
			if h.Attributes.IsControl() {
				b, err := raw()
				if err != nil {
					return err
				}
				mk, ok := readTxnMarker(b)
				if !ok {
					return nil
				}
				m = &mk
			}
			return l.applyProducerBatch(s, h, m, rebuild)
		})
		if err != nil {
			return fmt.Errorf("kafkalog: read producer state of %s: %w", l.dir, err)
		}
		if rebuild && s.txn != nil {
			if err := s.txn.Sync(); err != nil {
				return err
			}
		}
	}
	return nil
}

// eachHeader calls fn with the header of each batch of the segment, and a
// function that reads the batch's bytes, up to the first bytes that do not
// read as a batch.
func (s *Segment) eachHeader(buf []byte, fn func(h *BatchHeader, raw func() ([]byte, error)) error) error {
	sc := newBatchScanner(s.log, s.log.Name(), 0, s.size, buf, false)
	for sc.Next() {
		h, pos, size := sc.hdr, sc.pos, sc.size
		raw := func() ([]byte, error) {
			b := make([]byte, size)
			if n, err := s.log.ReadAt(b, pos); n < len(b) {
				return nil, fmt.Errorf("read %s at %d: %w", s.log.Name(), pos, err)
			}
			return b, nil
		}
		if err := fn(&h, raw); err != nil {
			return err
		}
	}
	return nil
}

// LastStableOffset returns the partition's last stable offset (LSO) given
// its high watermark (UnifiedLog.lastStableOffset): the first offset of the
// earliest transaction still open, or ended by a marker not yet below the
// high watermark, if that is below it; else the high watermark. A
// read_committed consumer reads up to it; the records at and after it may
// still be aborted. Without transactions it is the high watermark. It is
// never below the log start offset.
func (l *Log) LastStableOffset(highWatermark int64) int64 {
	first, ok := l.producers.firstUnstable(highWatermark)
	if !ok || first >= highWatermark {
		return highWatermark
	}
	return max(first, l.logStartOffset)
}

// OnHighWatermarkUpdated tells the log its partition's high watermark
// moved: the transactions whose markers are now below it no longer hold
// the last stable offset back (ProducerStateManager.onHighWatermarkUpdated).
func (l *Log) OnHighWatermarkUpdated(highWatermark int64) {
	l.producers.onHighWatermark(highWatermark)
}

// UnreplicatedTxns returns the transactions a marker ended at or above
// highWatermark, by first offset: they still hold the last stable offset
// back, and what they wrote is not yet settled (a group coordinator
// completes a transaction's offsets once its marker is replicated,
// GroupMetadataManager.handleTxnCompletion).
func (l *Log) UnreplicatedTxns(highWatermark int64) []CompletedTxn {
	var out []CompletedTxn
	for _, t := range l.producers.unreplicated {
		if t.LastOffset >= highWatermark {
			out = append(out, t)
		}
	}
	return out
}

// OngoingTxns returns the transactions open on the partition, by first
// offset.
func (l *Log) OngoingTxns() []OngoingTxn { return slices.Clone(l.producers.ongoing) }

// Producers returns what the partition knows of each producer id that wrote
// to it (ProducerStateManager.activeProducers, what DescribeProducers
// answers), by producer id: its epoch, the sequence and offset of its last
// batch, that batch's max timestamp, the coordinator epoch of its last
// marker (-1 if none), and the first offset of its open transaction
// (NoCurrentTxn if none).
func (l *Log) Producers() []ProducerSnapshotEntry {
	out := make([]ProducerSnapshotEntry, 0, len(l.producers.entries))
	for _, e := range l.producers.entries {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b ProducerSnapshotEntry) int { return cmp.Compare(a.ProducerID, b.ProducerID) })
	return out
}

// HasProducers reports whether the partition knows of any producer id
// (an idempotent or transactional producer wrote to it, and was not
// forgotten since).
func (l *Log) HasProducers() bool { return len(l.producers.entries) > 0 }

// Producer returns what the partition knows of producer id pid, and false
// if it knows nothing.
func (l *Log) Producer(pid int64) (ProducerSnapshotEntry, bool) {
	e, ok := l.producers.entries[pid]
	return e, ok
}

// ExpireProducers forgets the producers whose last batch's timestamp is
// expirationMs or more before nowMs and that have no transaction open
// (producer.id.expiration.ms, 86400000 by default, checked every
// producer.id.expiration.check.interval.ms: Kafka's
// removeExpiredProducers). It returns how many it forgot.
func (l *Log) ExpireProducers(nowMs, expirationMs int64) int {
	return l.producers.expire(nowMs, expirationMs)
}

// CollectAbortedTxns returns the aborted transactions a read_committed
// fetch of [fetchOffset, upperBoundOffset) must know about: those whose
// ABORT marker is at or after fetchOffset and whose first offset is below
// upperBoundOffset, read from the .txnindex of the segment holding
// fetchOffset and of the segments after it until one has an entry whose
// last stable offset reaches upperBoundOffset (UnifiedLog's
// collectAbortedTransactions, as LocalLog.read adds them to a fetch).
func (l *Log) CollectAbortedTxns(fetchOffset, upperBoundOffset int64) []AbortedTxn {
	var out []AbortedTxn
	i := max(0, l.floorSegment(fetchOffset))
	for _, s := range l.segments[i:] {
		if s.txn == nil {
			continue
		}
		got, complete := s.txn.CollectAbortedTxns(fetchOffset, upperBoundOffset)
		out = append(out, got...)
		if complete {
			break
		}
	}
	return out
}

// AllAbortedTxns returns every aborted transaction the log's .txnindex files
// hold, segment by segment.
func (l *Log) AllAbortedTxns() []AbortedTxn {
	var out []AbortedTxn
	for _, s := range l.segments {
		out = append(out, s.AbortedTxns()...)
	}
	return out
}
