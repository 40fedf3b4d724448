package trustszeropadding

import "encoding/binary"

// entryLen is the size of one .index entry: a 4-byte relative offset and a
// 4-byte position, both big-endian.
const entryLen = 8

// LookupIndex returns the largest entry of the offset index whose offset is
// <= target, as (absolute offset, position in the .log), or (baseOffset, 0) if
// there is none: an empty index, or a target below the first entry
// (Kafka's OffsetIndex.lookup; notes/02-offsets-and-the-index.md).
//
// index holds the bytes of the .index file, but only its first entries entries
// are valid: the file of the active segment is preallocated, and the slots
// after the last entry are zeros. A zero slot would read as (baseOffset, 0) and
// is not an entry.
//
//lint:ignore SA4009 the mistake is this: the valid entries' count is thrown away
func LookupIndex(index []byte, entries int, baseOffset, target int64) (int64, int32) {
	entries = len(index) / entryLen // mistake: the zero slots are not entries
	offsetAt := func(i int) int64 {
		return baseOffset + int64(binary.BigEndian.Uint32(index[i*entryLen:]))
	}
	if entries == 0 || offsetAt(0) > target {
		return baseOffset, 0
	}
	found := 0
	for i := 0; i < entries; i++ {
		if offsetAt(i) <= target {
			found = i
		}
	}
	return offsetAt(found), int32(binary.BigEndian.Uint32(index[found*entryLen+4:]))
}

// FindBatch scans log from startPos for the first batch whose last offset is
// >= target and returns its position (Kafka's FileRecords.searchForOffsetWithSize).
// It reads three header fields of each batch: baseOffset (bytes 0-7), length
// (8-11) and lastOffsetDelta (23-26); the next batch starts 12 + length bytes
// later. found is false if no batch from startPos on holds the target.
func FindBatch(log []byte, startPos int32, target int64) (int32, bool) {
	const headerUpToLastOffsetDelta = 27
	pos := int(startPos)
	for pos >= 0 && pos+headerUpToLastOffsetDelta <= len(log) {
		baseOffset := int64(binary.BigEndian.Uint64(log[pos:]))
		length := int(int32(binary.BigEndian.Uint32(log[pos+8:])))
		lastOffsetDelta := int64(int32(binary.BigEndian.Uint32(log[pos+23:])))
		if baseOffset+lastOffsetDelta >= target {
			return int32(pos), true
		}
		if length <= 0 {
			break // not a batch: stop rather than loop forever
		}
		pos += 12 + length
	}
	return 0, false
}
