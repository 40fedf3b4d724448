package cluster

import "github.com/kafkalive/kafkalive/cluster/internal/broker"

// SegmentInfo is one segment of a replica's log: its base offset (the
// file name), its size in bytes and the offsets of the records it holds
// (gaps where the cleaner removed records; none left after it removed
// them all).
type SegmentInfo = broker.SegmentInfo

// Segments returns the segments of broker id's running replica of the
// partition, oldest first.
func (w *World) Segments(id int32, topic string, partition int32) ([]SegmentInfo, error) {
	b, err := w.broker(id)
	if err != nil {
		return nil, err
	}
	return b.Segments(partitionKey{Topic: topic, Partition: partition})
}
