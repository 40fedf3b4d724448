package client

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// A consumer's isolation.level, as Kafka 3.7's consumer reads:
//
//   - read_uncommitted (the default) reads up to the high watermark and
//     hands out every record, those of open and aborted transactions too.
//   - read_committed reads up to the partition's last stable offset (the
//     leader's fetch answers no further: the first offset of the earliest
//     transaction still open), and the fetch lists the aborted
//     transactions it covers (producer id, first offset; UnifiedLog's
//     collectAbortedTransactions from the .txnindex). The consumer skips
//     the batches of those transactions (CompletedFetch.nextFetchedRecord:
//     a producer id joins the aborted set when a batch at or after its
//     first offset comes, a transactional batch of a producer in the set
//     is skipped whole, and its ABORT marker takes it out of the set), and
//     moves its position past them.
//
// Either hands out no control record (a marker), and passes it.

// The isolation levels.
const (
	// ReadUncommitted is isolation.level=read_uncommitted (the default).
	ReadUncommitted = "read_uncommitted"
	// ReadCommitted is isolation.level=read_committed.
	ReadCommitted = "read_committed"
)

// checkIsolation checks a consumer's isolation level.
func checkIsolation(c ConsumerConfig) error {
	if c.IsolationLevel != "" && c.IsolationLevel != ReadUncommitted && c.IsolationLevel != ReadCommitted {
		return fmt.Errorf("%w: consumer %q: isolation.level %q (read_uncommitted or read_committed)", metadata.ErrInvalidConfig, c.Name, c.IsolationLevel)
	}
	return nil
}

// readCommitted reports whether the consumer reads only committed
// records.
func (c *Consumer) readCommitted() bool { return c.cfg.IsolationLevel == ReadCommitted }

// fetchLimit is the offset a fetch of l reads below: the high watermark,
// or for read_committed the last stable offset.
func (c *Consumer) fetchLimit(l LeaderLog) int64 {
	if c.readCommitted() {
		return l.LastStableOffset()
	}
	return l.HighWatermark()
}

// abortFilter is a read_committed fetch's filter of aborted transactions,
// entry by entry in offset order; nil for read_uncommitted (it skips
// nothing).
type abortFilter struct {
	// aborted are the fetch's aborted transactions not yet reached, by
	// first offset; pids the producer ids whose aborted transaction the
	// fetch is in.
	aborted []kafkalog.AbortedTxn
	pids    map[int64]bool
	// skipping: the entries up to end belong to an aborted batch.
	skipping bool
	end      int64
	// delivered is set when the part given (Settings.ReadCommitted)
	// decided the fetch: the offsets it hands out; every other entry is
	// passed.
	delivered map[int64]bool
}

// newAbortFilter returns the filter of a fetch of l from pos up to
// limit, which got fetched. With the part given (Settings.ReadCommitted),
// the part decides what the fetch hands out, unless it declines.
func (c *Consumer) newAbortFilter(l LeaderLog, pos, limit int64, fetched []replica.Entry) *abortFilter {
	if !c.readCommitted() {
		return nil
	}
	a := l.AbortedTxns(pos, limit)
	if c.readCommittedPart != nil {
		if batches, ok := fetchedBatches(fetched, limit); ok {
			if got, ok := c.readCommittedPart(pos, batches, a); ok {
				f := &abortFilter{delivered: make(map[int64]bool, len(got))}
				for _, o := range got {
					f.delivered[o] = true
				}
				return f
			}
		}
	}
	slices.SortStableFunc(a, func(x, y kafkalog.AbortedTxn) int { return int(x.FirstOffset - y.FirstOffset) })
	return &abortFilter{aborted: a, pids: map[int64]bool{}}
}

// passes reports whether entry e is not handed out but passed: a marker,
// a record of an aborted transaction (read_committed), or with the part
// given, any record it did not deliver.
func (f *abortFilter) passes(e *replica.Entry) bool {
	if f != nil && f.delivered != nil {
		return !f.delivered[e.Offset]
	}
	skip := f.skip(e) // a marker ends its producer's aborted transaction
	_, control := ControlEntry(e)
	return control || skip
}

// byPart reports whether the part given decided the fetch.
func (f *abortFilter) byPart() bool { return f != nil && f.delivered != nil }

// fetchedBatches decodes the batches of fetched below limit, as the
// consumer receives them; false when a batch's bytes are missing (the
// fetch began inside a batch) or do not decode.
func fetchedBatches(fetched []replica.Entry, limit int64) ([]kafkalog.RecordBatch, bool) {
	var out []kafkalog.RecordBatch
	for i := range fetched {
		e := &fetched[i]
		if e.Offset >= limit {
			break
		}
		if e.Batch == nil {
			if len(out) == 0 {
				return nil, false
			}
			continue
		}
		b, _, err := kafkalog.ReadBatch(e.Batch)
		if err != nil {
			return nil, false
		}
		out = append(out, b)
	}
	return out, true
}

// skip reports whether entry e belongs to an aborted transaction's batch
// (the first entry of a batch carries the batch's bytes, the others
// follow it).
func (f *abortFilter) skip(e *replica.Entry) bool {
	if f == nil {
		return false
	}
	if e.Batch != nil {
		f.skipping = false
		h, err := kafkalog.ReadBatchHeader(e.Batch)
		if err != nil || h.ProducerID < 0 {
			return false
		}
		last := h.NextOffset() - 1
		for len(f.aborted) > 0 && f.aborted[0].FirstOffset <= last {
			f.pids[f.aborted[0].ProducerID] = true
			f.aborted = f.aborted[1:]
		}
		if h.Attributes.IsControl() {
			if t, ok := ControlEntry(e); ok && t == kafkalog.ControlAbort {
				delete(f.pids, h.ProducerID)
			}
			return false
		}
		f.skipping, f.end = h.Attributes.IsTransactional() && f.pids[h.ProducerID], last
		return f.skipping
	}
	return f.skipping && e.Offset <= f.end
}
