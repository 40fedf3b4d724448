package retention

// Segment is what the retention rule knows about one segment.
type Segment struct {
	// BaseOffset is the segment's first offset (its file name).
	BaseOffset int64
	// SizeInBytes is the size of its .log file.
	SizeInBytes int64
	// FirstTimestamp is the max timestamp of its first batch, in ms. Rolling by
	// segment.ms measures from it; retention.ms does not.
	FirstTimestamp int64
	// LargestTimestamp is the largest record timestamp in the segment, in ms.
	LargestTimestamp int64
}

// Log is a partition's log as the retention rule sees it.
type Log struct {
	// Segments are oldest first; the last one is the active segment.
	Segments []Segment
	// LogEndOffset is the offset the next record will get.
	LogEndOffset int64
	// HighWatermark is the end of the records every in-sync replica has.
	HighWatermark int64
	// LogStartOffset is the first offset a consumer may read.
	LogStartOffset int64
}

// Config holds the topic configs retention reads.
type Config struct {
	// RetentionMs is retention.ms; -1 keeps data forever.
	RetentionMs int64
	// RetentionBytes is retention.bytes; -1 means no size limit.
	RetentionBytes int64
	// Delete is true when cleanup.policy contains "delete".
	Delete bool
}
