package client

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
)

// fetchRecords reads, for each partition the consumer may fetch and whose
// position it knows (those whose records it handed out longest ago first,
// see fetchOrder), the records in [position, HW) from the leader, up to
// max.poll.records in all, and processes them. A
// record of the group's partition below the furthest offset any member of
// the group processed before is a duplicate: processed again after a crash
// or a failed commit (at-least-once). It returns how many it read.
func (c *Consumer) fetchRecords(env Env) int {
	g := c.grp
	read := 0
	for _, p := range c.fetchOrder() {
		pos, ok := g.positions[p]
		if !ok || read >= c.cfg.MaxPollRecords {
			continue
		}
		l := env.LeaderLog(p)
		if l == nil {
			continue
		}
		if pos < l.LogStartOffset() || pos > l.LogEndOffset() {
			c.outOfRange(env, l, p, pos)
			continue
		}
		hw := c.fetchLimit(l)
		// markers counts the transaction markers between first and last,
		// passing those after the latest record read; passed is set once
		// the fetch passed a marker or an aborted record.
		first, last, again, markers, passing := int64(-1), int64(-1), 0, 0, 0
		passed := false
		limit, thrown := c.meetDamage(env, l, p, pos, hw)
		if thrown {
			continue
		}
		hw = min(hw, limit)
		fetched, byPart, stuck := l.Fetch(pos, max(c.cfg.MaxPollRecords-read, 1))
		aborted := c.newAbortFilter(l, pos, hw, fetched)
		if byPart && len(fetched) > 0 && fetched[0].Offset < hw {
			c.noteFetch(env, l, p, pos, fetched[0].Offset)
		}
		for _, e := range fetched {
			if e.Offset >= hw || read >= c.cfg.MaxPollRecords {
				break
			}
			if aborted.passes(&e) {
				// A transaction marker (or, read_committed, a record of
				// an aborted transaction) is not handed out, and the
				// position moves past it (CompletedFetch.nextFetchedRecord).
				c.advance(p, e.Offset+1)
				passed = true
				if first >= 0 {
					passing++
				}
				continue
			}
			if env.MarkProcessed(c.cfg.Group, p, e.Offset) {
				again++
			}
			if first < 0 {
				first = e.Offset
			}
			last, read = e.Offset, read+1
			markers, passing = markers+passing, 0
			c.advance(p, e.Offset+1)
		}
		if first < 0 {
			// A fetch that got nothing below the HW: only offsets removed
			// by compaction lay between. One that passed markers or
			// aborted records (max.poll.records entries of them, at most)
			// has moved the position past them, and the next poll reads
			// on from there.
			if !passed && hw > pos && !stuck && !hidden(l, pos, hw) {
				g.positions[p] = hw
			}
			continue
		}
		if g.positions[p] >= hw {
			c.served(p) // drained: its records handed out up to the HW
		}
		g.processed += l.Count(first, last) - markers // the cleaner may have removed offsets between
		g.duplicates += again
		env.Record(event.Consume, 0, &p, "%s processed offsets %d-%d%s", c.cfg.Name, first, last, duplicateNote(again))
		if aborted.byPart() {
			env.MarkLast(event.PartReadCommitted)
		}
	}
	return read
}

// fetchOrder lists the partitions the consumer may fetch, those it
// drained longest ago (or never) first, in partition order among equals.
// Kafka 3.7's consumer hands out a partition's fetched records,
// max.poll.records at a time, until they are drained, and then moves the
// partition to the end of its fetch order (CompletedFetch.drain,
// SubscriptionState.movePartitionToEnd): a partition far behind is read
// on until it has caught up, and one whose records keep coming cannot
// keep the others waiting forever (KIP-41's round robin). Read in plain
// partition order, a member of the default world's billing group
// (max.poll.records 3) that was handed all of orders' partitions never
// read orders-2 again: orders-0 and orders-1 brought three records a
// poll.
func (c *Consumer) fetchOrder() []topicPartition {
	g := c.grp
	var out []topicPartition
	for _, gtp := range g.member.Fetchable() {
		out = append(out, topicPartition(gtp))
	}
	slices.SortStableFunc(out, func(a, b topicPartition) int { return cmp.Compare(g.servedAt[a], g.servedAt[b]) })
	return out
}

// served moves p to the end of the fetch order: its records were handed
// out up to its high watermark.
func (c *Consumer) served(p topicPartition) {
	g := c.grp
	if g.servedAt == nil {
		g.servedAt = map[topicPartition]int64{}
	}
	g.serves++
	g.servedAt[p] = g.serves
}

// advance moves the position of p to pos, the offset after a record
// processed (or a marker passed): under [CommitSync] the offset to commit.
func (c *Consumer) advance(p topicPartition, pos int64) {
	g := c.grp
	g.positions[p] = pos
	if c.cfg.CommitMode == CommitSync {
		if g.done == nil {
			g.done = map[topicPartition]int64{}
		}
		g.done[p] = pos
	}
}

func duplicateNote(n int) string {
	if n == 0 {
		return ""
	}
	return " (" + strconv.Itoa(n) + " processed before: duplicates)"
}

// outOfRange handles a position outside the leader's log (retention deleted
// it, or the log was truncated): OFFSET_OUT_OF_RANGE and auto.offset.reset.
func (c *Consumer) outOfRange(env Env, l LeaderLog, p topicPartition, pos int64) {
	g := c.grp
	to, ok := c.resetOffset(env, p)
	if !ok {
		env.Record(event.Group, 0, &p, "%s: OFFSET_OUT_OF_RANGE at %d (log [%d, %d)), auto.offset.reset=none: no position", c.cfg.Name, pos, l.LogStartOffset(), l.LogEndOffset())
		delete(g.positions, p)
		return
	}
	g.positions[p] = to
	env.Record(event.Group, 0, &p, "%s: OFFSET_OUT_OF_RANGE at %d (log [%d, %d)), auto.offset.reset=%s: now at %d", c.cfg.Name, pos, l.LogStartOffset(), l.LogEndOffset(), c.cfg.AutoOffsetReset, to)
}
