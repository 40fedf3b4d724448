package cluster

import (
	"strconv"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/group"
)

// fetchRecords reads, for each partition the consumer may fetch and whose
// position it knows (in partition order), the records in [position, HW)
// from the leader, up to max.poll.records in all, and processes them. A
// record of the group's partition below the furthest offset any member of
// the group processed before is a duplicate: processed again after a crash
// or a failed commit (at-least-once). It returns how many it read.
func (w *World) fetchRecords(c *Consumer) int {
	g := c.grp
	read := 0
	for _, gtp := range g.member.Fetchable() {
		tp := partitionKey(gtp)
		pos, ok := g.positions[tp]
		if !ok || read >= c.cfg.MaxPollRecords {
			continue
		}
		s := w.leaderSlot(tp)
		if s == nil {
			continue
		}
		if pos < s.Log.LogStartOffset() || pos > s.Log.LogEndOffset() {
			w.outOfRange(c, tp, pos, s)
			continue
		}
		hw := s.Node.Status().HighWatermark
		// markers counts the transaction markers between first and last,
		// passing those after the latest record read.
		first, last, again, markers, passing := int64(-1), int64(-1), 0, 0, 0
		limit, thrown := w.meetDamage(c, s, pos, hw)
		if thrown {
			continue
		}
		hw = min(hw, limit)
		fetched, byPart, stuck := w.fetchEntries(s, pos, max(c.cfg.MaxPollRecords-read, 1))
		if byPart && len(fetched) > 0 && fetched[0].Offset < hw {
			w.noteFetch(c.cfg.Name, tp, pos, fetched[0].Offset)
		}
		for _, e := range fetched {
			if e.Offset >= hw || read >= c.cfg.MaxPollRecords {
				break
			}
			if _, ok := controlEntry(&e); ok {
				// A transaction marker is not handed out, and the
				// position moves past it (CompletedFetch.nextFetchedRecord).
				g.positions[tp] = e.Offset + 1
				if c.cfg.CommitMode == CommitSync {
					if g.done == nil {
						g.done = map[partitionKey]int64{}
					}
					g.done[tp] = e.Offset + 1
				}
				if first >= 0 {
					passing++
				}
				continue
			}
			if w.markProcessed(c.cfg.Group, tp, e.Offset) {
				again++
			}
			if first < 0 {
				first = e.Offset
			}
			last, read = e.Offset, read+1
			markers, passing = markers+passing, 0
			g.positions[tp] = e.Offset + 1
			if c.cfg.CommitMode == CommitSync {
				if g.done == nil {
					g.done = map[partitionKey]int64{}
				}
				g.done[tp] = e.Offset + 1
			}
		}
		if first < 0 {
			if hw > pos && !stuck && !hidden(s, pos, hw) {
				g.positions[tp] = hw // only offsets removed by compaction lay between
			}
			continue
		}
		g.processed += int(last-first) + 1 - gaps(s, first, last) - markers
		g.duplicates += again
		w.record(EventConsume, 0, &tp, "%s processed offsets %d-%d%s", c.cfg.Name, first, last, duplicateNote(again))
	}
	return read
}

// gaps counts offsets in [first, last] missing from the leader's log
// (removed by compaction).
func gaps(s *broker.Partition, first, last int64) int {
	n := 0
	for _, e := range s.Log.Mirror().From(s.Log.Index(first)) {
		if e.Offset > last {
			break
		}
		n++
	}
	return int(last-first+1) - n
}

func duplicateNote(n int) string {
	if n == 0 {
		return ""
	}
	return " (" + strconv.Itoa(n) + " processed before: duplicates)"
}

// markProcessed records that the group processed offset of tp, and reports
// whether it had been processed before.
func (w *World) markProcessed(groupID string, tp partitionKey, offset int64) bool {
	if w.progress == nil {
		w.progress = map[string]map[partitionKey]int64{}
	}
	m := w.progress[groupID]
	if m == nil {
		m = map[partitionKey]int64{}
		w.progress[groupID] = m
	}
	end, ok := m[tp]
	if ok && offset < end {
		return true
	}
	m[tp] = offset + 1
	return false
}

// outOfRange handles a position outside the leader's log (retention deleted
// it, or the log was truncated): OFFSET_OUT_OF_RANGE and auto.offset.reset.
func (w *World) outOfRange(c *Consumer, tp partitionKey, pos int64, s *broker.Partition) {
	g := c.grp
	to, ok := w.resetOffset(c, tp)
	if !ok {
		w.record(EventGroup, 0, &tp, "%s: OFFSET_OUT_OF_RANGE at %d (log [%d, %d)), auto.offset.reset=none: no position", c.cfg.Name, pos, s.Log.LogStartOffset(), s.Log.LogEndOffset())
		delete(g.positions, tp)
		return
	}
	g.positions[tp] = to
	w.record(EventGroup, 0, &tp, "%s: OFFSET_OUT_OF_RANGE at %d (log [%d, %d)), auto.offset.reset=%s: now at %d", c.cfg.Name, pos, s.Log.LogStartOffset(), s.Log.LogEndOffset(), c.cfg.AutoOffsetReset, to)
}

// closeConsumer is KafkaConsumer.close(): commit and revoke everything,
// wait for the commit's answer (ConsumerCoordinator.close commits
// synchronously), then (dynamic members) LeaveGroup. Until the member is
// done the process only runs its heartbeat thread and takes answers; it
// polls no more.
func (w *World) closeConsumer(c *Consumer) {
	g := c.grp
	if g.closing {
		return
	}
	g.closing = true
	g.member.Close()
	w.handleMember(c)
}

// closedWhenLeft ends a closing consumer's process once its member left.
func (w *World) closedWhenLeft(c *Consumer) {
	g := c.grp
	if g.closing && !g.down && g.member.State() == group.Left {
		g.down, g.closed = true, true
		w.record(EventGroup, 0, nil, "%s closed", c.cfg.Name)
	}
}

// crashConsumer kills the consumer process: no commit, no LeaveGroup; the
// coordinator notices only when its session expires.
func (w *World) crashConsumer(c *Consumer) {
	c.grp.down = true
	c.grp.positions, c.grp.waiting = map[partitionKey]int64{}, map[partitionKey]bool{}
	w.record(EventGroup, 0, nil, "%s crashed (no commit, no LeaveGroup)", c.cfg.Name)
}

// memberStatus returns the consumer's member snapshot.
func (c *Consumer) memberStatus() group.ConsumerStatus { return c.grp.member.Status() }
