package msminusone

// DeletableSegments returns how many of the oldest segments Kafka's retention
// deletes now (UnifiedLog.deleteOldSegments, Kafka 3.x/4.0;
// notes/03-segments-and-retention.md#the-retention-rule).
//
// Three rules each pick a prefix of the segments, oldest first, and stop at
// the first segment they keep:
//
//   - log start offset: a segment goes when the next segment starts at or
//     before the log start offset (nothing in it can be read any more);
//   - retention.bytes: while the log is over the limit, whole segments go as
//     long as each fits in what is over;
//   - retention.ms: a segment goes when its largest timestamp is more than
//     retention.ms old.
//
// Under cleanup.policy=compact only the first rule applies. All of them share
// two limits: a segment may go only if all its offsets are below the high
// watermark, and the last (active) segment never goes while empty. The walks
// remove prefixes, so together they delete the longest of the three.
func DeletableSegments(log Log, cfg Config, nowMs int64) int {
	n := walk(log, func(i int) bool {
		return i+1 < len(log.Segments) && log.Segments[i+1].BaseOffset <= log.LogStartOffset
	})
	if !cfg.Delete {
		return n
	}
	if size := totalSize(log); cfg.RetentionBytes >= 0 && size >= cfg.RetentionBytes {
		excess := size - cfg.RetentionBytes
		n = max(n, walk(log, func(i int) bool {
			if log.Segments[i].SizeInBytes > excess {
				return false
			}
			excess -= log.Segments[i].SizeInBytes
			return true
		}))
	}
	{ // mistake: -1 is not a number of milliseconds
		n = max(n, walk(log, func(i int) bool {
			return nowMs-log.Segments[i].LargestTimestamp > cfg.RetentionMs
		}))
	}
	return n
}

// walk returns the length of the prefix of segments that may go under rule
// (UnifiedLog.deletableSegments).
func walk(log Log, rule func(i int) bool) int {
	for i, s := range log.Segments {
		// A segment holds offsets up to the next segment's base (or the log end
		// offset): all of them must be below the high watermark.
		upperBound := log.LogEndOffset
		if i+1 < len(log.Segments) {
			upperBound = log.Segments[i+1].BaseOffset
		}
		activeAndEmpty := i == len(log.Segments)-1 && s.SizeInBytes == 0
		if upperBound > log.HighWatermark || activeAndEmpty || !rule(i) {
			return i
		}
	}
	return len(log.Segments)
}

func totalSize(log Log) int64 {
	var n int64
	for _, s := range log.Segments {
		n += s.SizeInBytes
	}
	return n
}
