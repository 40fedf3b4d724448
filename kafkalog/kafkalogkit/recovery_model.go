package kafkalogkit

import (
	"encoding/binary"
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// stopReason says why recovery stopped where it did.
type stopReason int

const (
	stopEnd         stopReason = iota // every byte was a valid batch
	stopTornHeader                    // fewer than 17 bytes left: not even a header
	stopShortLength                   // length field < 14 (zero padding reads as 0)
	stopTornBatch                     // the length runs past the end of the file
	stopMagic                         // magic is not 2
	stopTooSmall                      // length < 49: smaller than a v2 header
	stopCRC                           // stored CRC != CRC-32C of [21, end)
	stopOffsets                       // offsets below the segment base or not increasing
)

// recovered is what LogSegment.recover leaves: the bytes kept and the rebuilt index.
type recovered struct {
	validBytes int
	index      []byte
	reason     stopReason
	batches    []batchSpan
}

// kafkaRecover is LogSegment.recover (Kafka 3.x/4.0) for a segment of v2
// batches: walk the batches from position 0, stop at the first that is not
// whole and valid, and rebuild the offset index on the way (an entry when more
// than indexIntervalBytes bytes were kept since the last one: the batch's last
// offset, relative, and its position). Kafka's file iterator stops silently on
// a torn tail; a length below 14, a bad magic or CRC are corrupt records;
// everything from the first bad byte on is cut. Offsets that go backwards (or
// below the segment's base) are cut too: Kafka would fail the index append on
// them (InvalidOffsetException) or refuse the segment; see the chapter.
func kafkaRecover(log []byte, baseOffset int64, indexIntervalBytes int) recovered {
	var r recovered
	lastIndexEntry := 0
	next := baseOffset
	for {
		span, reason := nextValidBatch(log, r.validBytes, next)
		if reason != stopEnd || span.size == 0 {
			r.reason = reason
			return r
		}
		if r.validBytes-lastIndexEntry > indexIntervalBytes {
			r.index = binary.BigEndian.AppendUint32(r.index, uint32(span.lastOffset-baseOffset))
			r.index = binary.BigEndian.AppendUint32(r.index, uint32(r.validBytes))
			lastIndexEntry = r.validBytes
		}
		r.batches = append(r.batches, span)
		r.validBytes += span.size
		next = span.lastOffset + 1
	}
}

// nextValidBatch checks the batch at pos. A zero size with stopEnd means the
// log ends exactly at pos.
func nextValidBatch(log []byte, pos int, minOffset int64) (batchSpan, stopReason) {
	rest := log[pos:]
	switch {
	case len(rest) == 0:
		return batchSpan{}, stopEnd
	case len(rest) < kafkalog.HeaderLenUpToMagic:
		return batchSpan{}, stopTornHeader
	}
	length := int64(int32(binary.BigEndian.Uint32(rest[8:])))
	size := kafkalog.LogOverhead + length
	base := int64(binary.BigEndian.Uint64(rest))
	switch {
	case length < 14:
		return batchSpan{}, stopShortLength
	case size > int64(len(rest)):
		return batchSpan{}, stopTornBatch
	case rest[16] != kafkalog.MagicV2:
		return batchSpan{}, stopMagic
	case length < kafkalog.MinBatchLength:
		return batchSpan{}, stopTooSmall
	case binary.BigEndian.Uint32(rest[17:]) != kafkalog.CRC32C(rest[21:size]):
		return batchSpan{}, stopCRC
	}
	last := base + int64(int32(binary.BigEndian.Uint32(rest[23:])))
	if base < minOffset || last < base {
		return batchSpan{}, stopOffsets
	}
	return batchSpan{pos: pos, size: int(size), baseOffset: base, lastOffset: last}, stopEnd
}

func (s stopReason) String() string {
	return [...]string{
		stopEnd:         "every byte is part of a whole, valid batch",
		stopTornHeader:  "fewer than 17 bytes are left: a torn tail, not even a batch header",
		stopShortLength: "the length field is below 14 (zero padding reads as length 0): corrupt",
		stopTornBatch:   "the length field runs past the end of the file: a torn tail",
		stopMagic:       "the magic byte is not 2",
		stopTooSmall:    "the length field is below 49, smaller than a v2 batch header",
		stopCRC:         "the stored CRC is not the CRC-32C of bytes [21, end) of the batch",
		stopOffsets:     "its offsets go backwards: its base offset is at or below the previous batch's last offset (or below the segment's base offset), or its last offset is below its base offset",
	}[s]
}

func describeSegment(log []byte, baseOffset int64, indexIntervalBytes int) string {
	r := kafkaRecover(log, baseOffset, indexIntervalBytes)
	s := fmt.Sprintf("segment: base offset %d, index.interval.bytes %d, %d bytes", baseOffset, indexIntervalBytes, len(log))
	for _, b := range r.batches {
		s += fmt.Sprintf("\n  valid batch at position %d: offsets %d..%d, %d bytes", b.pos, b.baseOffset, b.lastOffset, b.size)
	}
	if r.validBytes < len(log) {
		s += fmt.Sprintf("\n  at position %d: %s (%d bytes from there to the end)", r.validBytes, r.reason, len(log)-r.validBytes)
	}
	return s
}
