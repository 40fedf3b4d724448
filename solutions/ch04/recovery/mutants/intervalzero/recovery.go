package intervalzero

import (
	"encoding/binary"
	"hash/crc32"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Recover walks the .log bytes of a segment from position 0, the way Kafka's
// LogSegment.recover does after an unclean shutdown (Kafka 3.x/4.0;
// notes/04-page-cache-and-recovery.md#how-a-broker-repairs-a-segment). It
// returns validBytes, where the file must be cut, and the rebuilt offset index.
//
// A batch is kept only if it is whole and valid; the walk stops at the first
// one that is not, and everything from there on is cut, even batches after it
// that look fine: once one batch is bad, nothing after it can be trusted.
func Recover(log []byte, baseOffset int64, indexIntervalBytes int) (int, []byte) {
	var index []byte
	validBytes, lastIndexEntry := 0, 0
	next := baseOffset // the smallest offset the next batch may start at
	for {
		size, lastOffset, ok := validBatch(log[validBytes:], next)
		if !ok {
			return validBytes, index
		}
		// Rebuild the index as Kafka does during recovery: an entry when more
		// than index.interval.bytes were kept since the last one, holding the
		// batch's last offset (relative) and its position.
		if indexIntervalBytes > 0 && validBytes-lastIndexEntry > indexIntervalBytes { // mistake: 0 is an interval too
			index = binary.BigEndian.AppendUint32(index, uint32(lastOffset-baseOffset))
			index = binary.BigEndian.AppendUint32(index, uint32(validBytes))
			lastIndexEntry = validBytes
		}
		validBytes += size
		next = lastOffset + 1
	}
}

// validBatch checks the batch at the start of b and returns its size and last
// offset. ok is false when b does not start with a whole, valid v2 batch whose
// offsets start at minOffset or later (notes/04-page-cache-and-recovery.md#validate-every-batch).
func validBatch(b []byte, minOffset int64) (size int, lastOffset int64, ok bool) {
	// Fewer than 17 bytes: not even baseOffset, length and magic. A torn tail
	// (this is also how an empty rest ends the walk).
	if len(b) < 17 {
		return 0, 0, false
	}
	baseOffset := int64(binary.BigEndian.Uint64(b))
	length := int64(int32(binary.BigEndian.Uint32(b[8:])))
	// Kafka's smallest legal length is 14 (a v0 message). Zero padding reads
	// as length 0. Check before using the length: never trust it to size a slice.
	if length < 14 {
		return 0, 0, false
	}
	// The length runs past the end of the file: the batch was torn.
	if 12+length > int64(len(b)) {
		return 0, 0, false
	}
	size = int(12 + length)
	if b[16] != 2 || size < 61 { // magic 2, and at least a whole v2 header
		return 0, 0, false
	}
	// The CRC covers attributes (byte 21) to the end of the batch.
	if binary.BigEndian.Uint32(b[17:]) != crc32.Checksum(b[21:size], castagnoli) {
		return 0, 0, false
	}
	lastOffset = baseOffset + int64(int32(binary.BigEndian.Uint32(b[23:])))
	if baseOffset < minOffset || lastOffset < baseOffset {
		return 0, 0, false
	}
	return size, lastOffset, true
}
