package broker

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
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

// Segments returns the segments of the broker's running replica of k,
// oldest first.
func (b *Broker) Segments(k tp) ([]SegmentInfo, error) {
	s, err := b.running(k)
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

// SegmentCount is one segment of a replica's log as [Broker.SegmentCounts]
// gives it: what [SegmentInfo] says without listing the offsets.
type SegmentCount struct {
	BaseOffset int64
	Size       int64
	// Records counts the records the segment holds.
	Records int
	// Active marks the last segment, the one appended to.
	Active bool
}

// SegmentCounts returns the newest n segments (every one when n <= 0) of
// the broker's running replica of k, oldest first, with the number of
// records each holds: [Broker.Segments] without the offsets.
func (b *Broker) SegmentCounts(k tp, n int) ([]SegmentCount, error) {
	s, err := b.running(k)
	if err != nil {
		return nil, err
	}
	segs := s.Log.Kafka().Segments()
	first := 0
	if n > 0 && len(segs) > n {
		first = len(segs) - n
	}
	out := make([]SegmentCount, 0, len(segs)-first)
	for i, seg := range segs[first:] {
		out = append(out, SegmentCount{BaseOffset: seg.BaseOffset(), Size: seg.Size(), Records: s.Log.RecordsIn(seg.BaseOffset()),
			Active: first+i == len(segs)-1})
	}
	return out, nil
}

// running is the broker's running replica of k.
func (b *Broker) running(k tp) (*Partition, error) {
	if s := b.replicas[k]; s != nil {
		s.changing() // the caller may change it
		return s, nil
	}
	return nil, fmt.Errorf("%w: broker %d runs no replica of %s-%d", metadata.ErrInvalidConfig, b.id, k.Topic, k.Partition)
}
