package cluster

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
)

// SegmentInfo is one segment of a replica's log: its base offset (the
// file name), its size in bytes and the offsets of the records it holds
// (gaps where the cleaner removed records; none left after it removed
// them all).
type SegmentInfo struct {
	BaseOffset int64
	Size       int64
	Offsets    []int64
	// Active marks the last segment, the one appended to.
	Active bool
}

// String prints the segment, e.g. "segment 3: offsets [3 4 5] 210 bytes".
func (s SegmentInfo) String() string {
	offs := make([]string, len(s.Offsets))
	for i, o := range s.Offsets {
		offs[i] = fmt.Sprint(o)
	}
	active := ""
	if s.Active {
		active = " (active)"
	}
	return fmt.Sprintf("segment %d: offsets [%s] %d bytes%s", s.BaseOffset, strings.Join(offs, " "), s.Size, active)
}

// Segments returns the segments of broker id's running replica of the
// partition, oldest first.
func (w *World) Segments(id int32, topic string, partition int32) ([]SegmentInfo, error) {
	s, err := w.runningReplica(id, topic, partition)
	if err != nil {
		return nil, err
	}
	segs := s.Log.Kafka().Segments()
	out := make([]SegmentInfo, len(segs))
	at := map[int64]int{}
	for i, seg := range segs {
		out[i] = SegmentInfo{BaseOffset: seg.BaseOffset(), Size: seg.Size(), Offsets: []int64{}, Active: i == len(segs)-1}
		at[seg.BaseOffset()] = i
	}
	for segment, offsets := range s.Log.SegmentOffsets() {
		if k, ok := at[segment]; ok {
			for off := range offsets {
				out[k].Offsets = append(out[k].Offsets, off)
			}
		}
	}
	return out, nil
}

// runningReplica is broker id's running replica of the partition.
func (w *World) runningReplica(id int32, topic string, partition int32) (*broker.Partition, error) {
	b, err := w.broker(id)
	if err != nil {
		return nil, err
	}
	s := b.Partition(partitionKey{Topic: topic, Partition: partition})
	if s == nil {
		return nil, fmt.Errorf("%w: broker %d runs no replica of %s-%d", ErrInvalidConfig, id, topic, partition)
	}
	return s, nil
}
