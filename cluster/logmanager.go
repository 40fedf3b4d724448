package cluster

import (
	"fmt"
	"math"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// runLogManager is the broker's log manager on its schedule: every
// log.retention.check.interval.ms it applies retention to every replica it
// hosts, with that replica's HW (segments wholly below the HW
// only, consumer offsets never consulted); every log.cleaner.backoff.ms
// its cleaner compacts every compacted log whose dirty ratio is above
// min.cleanable.dirty.ratio. Kafka's cleaner threads take the
// filthiest log first, one at a time; here every eligible log is cleaned
// in the same round, in partition order. The cleaner's first dirty offsets
// (cleaner-offset-checkpoint) are kept in memory and lost with the process.
func (w *World) runLogManager(b *broker) error {
	w.deleteLogs(b)
	if w.now >= b.nextRetentionMs {
		b.nextRetentionMs = w.now + w.cfg.LogRetentionCheckIntervalMs
		for _, tp := range b.order {
			if err := w.applyRetention(b, b.replicas[tp]); err != nil {
				return err
			}
		}
	}
	if w.now >= b.nextCleanMs {
		b.nextCleanMs = w.now + w.cfg.LogCleanerBackoffMs
		for _, tp := range b.order {
			if err := w.clean(b, b.replicas[tp]); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyRetention deletes the replica's old segments.
func (w *World) applyRetention(b *broker, s *replicaSlot) error {
	hw := s.node.Status().HighWatermark
	before := s.log.Kafka().PartCalls()
	dels, err := s.log.Kafka().DeleteOldSegments(hw, w.now)
	w.noteRefused(s, before, PartRetention)
	if err != nil {
		return fmt.Errorf("broker %d: retention of %s: %w", b.id, s.tp, err)
	}
	if _, err := s.log.Kafka().DeleteExpiredFiles(w.now); err != nil {
		return fmt.Errorf("broker %d: retention of %s: %w", b.id, s.tp, err)
	}
	if len(dels) == 0 {
		return nil
	}
	for _, d := range dels {
		w.record(EventStorage, b.id, &s.tp, "retention (%s) deleted segments %v; log start offset now %d", d.Reason, d.Segments, s.log.LogStartOffset())
		if d.Reason == kafkalog.DeletedByPart {
			w.markLast(PartRetention)
		}
	}
	s.log.TrimStart()
	return nil
}

// clean compacts the replica's log if it is compacted and dirty enough.
func (w *World) clean(b *broker, s *replicaSlot) error {
	cfg := s.log.Kafka().Config()
	if !cfg.Compact() {
		return nil
	}
	if b.cleanerOffsets == nil {
		b.cleanerOffsets, b.cleanerSeen = map[partitionKey]int64{}, map[partitionKey]int64{}
	}
	hw := s.node.Status().HighWatermark
	timeless := cfg.MinCompactionLagMs == 0 && cfg.MaxCompactionLagMs == math.MaxInt64
	if seen, ok := b.cleanerSeen[s.tp]; timeless && (ok && seen == hw || hw == s.log.LogStartOffset()) {
		return nil // nothing new below the HW since the last look, and no time rule
	}
	b.cleanerSeen[s.tp] = hw
	sec, err := s.log.Kafka().CleanableSection(b.cleanerOffsets[s.tp], hw, w.now)
	if err != nil {
		return fmt.Errorf("broker %d: cleaner of %s: %w", b.id, s.tp, err)
	}
	if !sec.NeedsCleaning(cfg) {
		return nil
	}
	res, err := s.log.Kafka().Clean(b.cleanerOffsets[s.tp], hw, w.now, kafkalog.CleanerOptions{})
	if err != nil {
		return fmt.Errorf("broker %d: cleaner of %s: %w", b.id, s.tp, err)
	}
	b.cleanerOffsets[s.tp] = res.EndOffset
	w.record(EventStorage, b.id, &s.tp, "cleaner compacted [%d, %d) (dirty ratio %.2f): kept %d of %d records", res.FirstDirtyOffset, res.EndOffset, sec.Ratio, res.RecordsRetained, res.RecordsRead)
	return s.log.Reload()
}
