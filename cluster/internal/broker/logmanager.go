package broker

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/event"

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
// (cleaner-offset-checkpoint) are kept in memory. A compacted log the
// cleaner marked uncleanable (cleaner.go) is passed over by both.
func (b *Broker) runLogManager(env Env) error {
	b.deleteLogs(env)
	if env.Now() >= b.nextRetentionMs {
		b.nextRetentionMs = env.Now() + b.cfg.LogRetentionCheckIntervalMs
		for _, tp := range b.order {
			if err := b.applyRetention(env, b.replicas[tp]); err != nil {
				return err
			}
		}
	}
	if env.Now() >= b.nextCleanMs {
		b.nextCleanMs = env.Now() + b.cfg.LogCleanerBackoffMs
		b.forgetGoneUncleanable()
		for _, tp := range b.compacted {
			if err := b.clean(env, b.replicas[tp]); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyRetention deletes the replica's old segments. It passes over a log
// that can have nothing to delete (an idle partition's), leaving its
// replica as its last snapshot holds it, and a compacted log marked
// uncleanable: Kafka 3.7 deletes a compacted log's old segments from its
// cleaner thread, and only for the logs not marked
// (LogCleanerManager.deletableLogs), so such a log keeps every segment,
// past retention.ms and retention.bytes, until the mark goes.
func (b *Broker) applyRetention(env Env, s *Partition) error {
	if s.Log.Kafka().NothingToDelete() || b.passedOver(s) {
		return nil
	}
	s.changing()
	hw := s.Node.Progress().HighWatermark
	before := s.Log.Kafka().PartCalls()
	dels, err := s.Log.Kafka().DeleteOldSegments(hw, env.Now())
	b.noteRefused(env, s, before, event.PartRetention)
	if err != nil {
		return fmt.Errorf("broker %d: retention of %s: %w", b.id, s.TP, err)
	}
	if _, err := s.Log.Kafka().DeleteExpiredFiles(env.Now()); err != nil {
		return fmt.Errorf("broker %d: retention of %s: %w", b.id, s.TP, err)
	}
	if len(dels) == 0 {
		return nil
	}
	b.touch(s)
	for _, d := range dels {
		env.Record(event.Storage, b.id, &s.TP, "retention (%s) deleted segments %v; log start offset now %d", d.Reason, d.Segments, s.Log.LogStartOffset())
		if d.Reason == kafkalog.DeletedByPart {
			env.MarkLast(event.PartRetention)
		}
	}
	s.Log.TrimStart()
	return nil
}
