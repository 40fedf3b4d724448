package main

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

// log-dirs verifies what it reports, as a broker loading the directory
// would find it (Kafka 3.7's LogLoader and LogSegment.sanityCheck, and what
// DumpLogSegments --verify-index-only checks):
//
//   - every batch's CRC (CRC-32C from the attributes on for magic 2,
//     CRC-32 from the magic on for magic 0 and 1), read in chunks, never a
//     whole batch at once;
//   - offsets increasing: each batch's after the one before it, within its
//     segment's base offset and below the next segment's;
//   - each offset index entry at a batch's position, its offset the last
//     offset of a batch written from there before the next entry (an
//     append's largest offset, LogSegment.append), entries increasing, the
//     slots after them zero, the file a whole number of entries;
//   - each time index entry's timestamp the largest so far, first reached
//     by the batch holding its offset (timeIndex.maybeAppend of
//     maxTimestampSoFar), entries increasing;
//   - with a clean shutdown marker, each partition's recovery point at its
//     log end (a broker trusts both and recovers nothing).
//
// What no reader can tell is not checked: a batch's partition leader epoch
// and base offset, which its CRC does not cover, are verified only by the
// order of offsets (Kafka's own DefaultRecordBatch.ensureValid checks no
// more).

// crcChunk is how much of a batch is read at a time to check its CRC.
const crcChunk = 64 << 10

// span is one batch (or legacy message) of a segment: its position, first
// and last offsets and max timestamp.
type span struct {
	pos, first, last, maxTimestamp int64
	legacy                         bool
}

// checkCRC checks the CRC of the batch of size bytes at pos of f, whose
// first bytes are hdr and magic is magic; buf is scratch space.
func checkCRC(f vfs.File, pos, size int64, magic int8, hdr []byte, buf []byte) error {
	var from int64
	var stored, crc uint32
	if magic == kafkalog.MagicV2 {
		from, stored = 21, binary.BigEndian.Uint32(hdr[17:])
	} else {
		from, stored = 16, binary.BigEndian.Uint32(hdr[12:])
	}
	for at := from; at < size; {
		n := min(int64(len(buf)), size-at)
		if err := vfs.ReadAtFull(f, buf[:n], pos+at); err != nil {
			return err
		}
		if magic == kafkalog.MagicV2 {
			crc = kafkalog.UpdateCRC32C(crc, buf[:n])
		} else {
			crc = crc32.Update(crc, crc32.IEEETable, buf[:n])
		}
		at += n
	}
	if crc != stored {
		kind := "CRC-32C"
		if magic != kafkalog.MagicV2 {
			kind = "CRC-32"
		}
		return fmt.Errorf("corrupt batch at position %d: stored %s 0x%08x, computed 0x%08x", pos, kind, stored, crc)
	}
	return nil
}

// checkOrder checks that batch b follows the one before it (prev, nil if
// none) in a segment based at base.
func checkOrder(b span, prev *span, base int64) string {
	switch {
	case b.last < b.first:
		return fmt.Sprintf("the batch at position %d ends at offset %d, before its first offset %d", b.pos, b.last, b.first)
	case b.first < base:
		return fmt.Sprintf("the batch at position %d starts at offset %d, below the segment's base offset %d", b.pos, b.first, base)
	case b.last-base > 1<<31-1:
		return fmt.Sprintf("the batch at position %d ends at offset %d, beyond what the segment based at %d can index", b.pos, b.last, base)
	case prev != nil && b.first <= prev.last:
		return fmt.Sprintf("the batch at position %d starts at offset %d, not after the batch before it (last offset %d)", b.pos, b.first, prev.last)
	}
	return ""
}

// checkSegmentOrder checks that each segment's offsets lie below the next
// segment's base offset.
func (p *partitionDesc) checkSegmentOrder() string {
	for i := 1; i < len(p.segments); i++ {
		prev, s := p.segments[i-1], p.segments[i]
		if prev.firstOffset >= 0 && prev.lastOffset >= s.base {
			return fmt.Sprintf("segment %d holds offsets up to %d, at or past the next segment's base offset %d",
				prev.base, prev.lastOffset, s.base)
		}
	}
	return ""
}

// indexEntries reads an index file's entries: the slots up to the first
// whose relative offset (at relPos) is 0 after the first slot, none if the
// first slot is all zero. It also
// says what is wrong with the rest of the file: a size that is not a
// whole number of entries, or bytes after the entries that are not zero.
func indexEntries(b []byte, size int64, entrySize, relPos int) (entries []byte, damage string) {
	if size%int64(entrySize) != 0 {
		damage = fmt.Sprintf("%d bytes, not a whole number of %d-byte entries", size, entrySize)
	}
	slots := len(b) / entrySize
	n := slots
	if slots > 0 && !slices.ContainsFunc(b[:entrySize], func(c byte) bool { return c != 0 }) {
		n = 0 // a zero first slot: preallocated (no append indexes position 0, LogSegment.append)
	}
	for i := 1; i < n; i++ {
		if binary.BigEndian.Uint32(b[i*entrySize+relPos:]) == 0 {
			n = i
			break
		}
	}
	if damage == "" && slices.ContainsFunc(b[n*entrySize:slots*entrySize], func(c byte) bool { return c != 0 }) {
		damage = fmt.Sprintf("bytes that are not zero after its %d entries", n)
	}
	return b[:n*entrySize], damage
}

// checkOffsetIndex checks the offset index entries of a segment based at
// base against its batches.
func checkOffsetIndex(entries []byte, base int64, batches []span) string {
	at := func(pos int64) (int, bool) {
		return slices.BinarySearchFunc(batches, pos, func(b span, pos int64) int { return cmp.Compare(b.pos, pos) })
	}
	n := len(entries) / kafkalog.OffsetIndexEntrySize
	for i := range n {
		e := entries[i*kafkalog.OffsetIndexEntrySize:]
		off, pos := base+int64(binary.BigEndian.Uint32(e)), int64(binary.BigEndian.Uint32(e[4:]))
		first, ok := at(pos)
		if !ok {
			return fmt.Sprintf("entry %d (offset %d) points at position %d, where no batch starts", i, off, pos)
		}
		end := len(batches) // the batches written from pos before the next entry
		if i+1 < n {
			if next := int64(binary.BigEndian.Uint32(entries[(i+1)*kafkalog.OffsetIndexEntrySize+4:])); next > pos {
				end, _ = at(next)
			} else {
				return fmt.Sprintf("entry %d points at position %d, not after entry %d's %d", i+1, next, i, pos)
			}
		}
		if !indexedOffset(batches, first, end, off, base) {
			return fmt.Sprintf("entry %d says offset %d is at position %d, which holds offsets %d..%d", i, off, pos, batches[first].first, batches[first].last)
		}
		if i > 0 && off <= base+int64(binary.BigEndian.Uint32(entries[(i-1)*kafkalog.OffsetIndexEntrySize:])) {
			return fmt.Sprintf("entry %d (offset %d) does not follow entry %d", i, off, i-1)
		}
	}
	return ""
}

// indexedOffset reports whether off can be the offset of an index entry at
// batches[first], the batches up to end following it: the last offset of
// one of them (a legacy message set's first offset may be an inner one,
// after the message before it).
func indexedOffset(batches []span, first, end int, off, base int64) bool {
	if batches[first].legacy {
		low := base
		if first > 0 {
			low = batches[first-1].last + 1
		}
		return off >= low && off <= batches[max(end-1, first)].last
	}
	for _, b := range batches[first:max(end, first+1)] {
		if b.last == off {
			return true
		}
	}
	return false
}

// checkTimeIndex checks the time index entries of a segment based at base
// against its batches.
func checkTimeIndex(entries []byte, base int64, batches []span) string {
	n := len(entries) / kafkalog.TimeIndexEntrySize
	for i := range n {
		e := entries[i*kafkalog.TimeIndexEntrySize:]
		ts, off := int64(binary.BigEndian.Uint64(e)), base+int64(binary.BigEndian.Uint32(e[8:]))
		if i > 0 {
			prev := entries[(i-1)*kafkalog.TimeIndexEntrySize:]
			if ts <= int64(binary.BigEndian.Uint64(prev)) || off < base+int64(binary.BigEndian.Uint32(prev[8:])) {
				return fmt.Sprintf("entry %d (timestamp %d, offset %d) does not follow entry %d", i, ts, off, i-1)
			}
		}
		if len(batches) > 0 && batches[0].legacy {
			if off < base || off > batches[len(batches)-1].last {
				return fmt.Sprintf("entry %d names offset %d, outside the segment's offsets", i, off)
			}
			continue
		}
		// the first batch whose max timestamp reaches ts must hold off
		j := slices.IndexFunc(batches, func(b span) bool { return b.maxTimestamp >= ts })
		if j < 0 || batches[j].maxTimestamp != ts || off < batches[j].first || off > batches[j].last {
			return fmt.Sprintf("entry %d says timestamp %d is first reached at offset %d, which the segment's batches do not say", i, ts, off)
		}
	}
	return ""
}

// checkRecoveryPoints checks, after a clean shutdown, that each
// partition's recovery point is its log end.
func (d *logDirDesc) checkRecoveryPoints() {
	if !d.cleanMarker.Present {
		return
	}
	rps := d.checkpoints[kafkalog.RecoveryPointCheckpointFile]
	for _, p := range d.partitions {
		rp, ok := rps[p.tp]
		if !ok || p.logEnd < 0 || p.damaged() {
			continue
		}
		if rp != p.logEnd {
			d.problems = append(d.problems, fmt.Sprintf("%s: the broker shut down cleanly, yet the log ends at offset %d and its recovery point is %d",
				p.tp, p.logEnd, rp))
		}
	}
}

// damaged reports whether one of p's segments is damaged (its log end is
// then not what a broker would find).
func (p *partitionDesc) damaged() bool {
	return slices.ContainsFunc(p.segments, func(s segmentDesc) bool { return s.damage != "" })
}
