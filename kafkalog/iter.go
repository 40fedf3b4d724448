package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// LogEntry is one entry of a log or fetch response: a v2 batch or a legacy
// (magic 0/1) message, as the batch iterator yields it.
type LogEntry struct {
	// Pos is the entry's byte position in the iterated input (plus the
	// iterator's base position).
	Pos int64
	// Magic is the format: 0 or 1 (Legacy is set) or 2 (Header is set).
	Magic int8
	// Bytes are the entry's bytes, LogOverhead + length; they alias the input.
	Bytes []byte
	// Header is the batch header when Magic is 2. Its CRC is not yet checked.
	Header BatchHeader
	// Legacy is the message when Magic is 0 or 1. Its CRC is not yet checked.
	Legacy LegacyMessage
}

// LastOffset returns the last offset the entry holds: the batch's LastOffset or
// the legacy message's offset (for a wrapper, that of its last inner message).
func (e *LogEntry) LastOffset() int64 {
	if e.Magic == MagicV2 {
		return e.Header.LastOffset()
	}
	return e.Legacy.Offset
}

// Check validates the entry's checksum (and, for v2, header, as CheckBatch):
// what Kafka's ensureValid does before trusting a batch read from a file.
func (e *LogEntry) Check() error {
	if e.Magic == MagicV2 {
		_, _, err := CheckBatch(e.Bytes)
		return atPos(err, e.Pos)
	}
	return atPos(e.Legacy.checkCRC(e.Bytes), e.Pos)
}

// Decode decodes the entry, a v2 batch, into b with d (see Decoder.Decode); an
// error carries the entry's position in the iterated input. A legacy entry is
// ErrUnknownMagic: unwrap it with DecompressLegacy(&e.Legacy, ...) instead.
func (e *LogEntry) Decode(d *Decoder, b *RecordBatch) error {
	if e.Magic != MagicV2 {
		return batchErr(e.Legacy.Offset, e.Pos, "magic", fmt.Errorf("%w: %d is a legacy message, not a v2 batch", ErrUnknownMagic, e.Magic))
	}
	_, err := d.Decode(e.Bytes, b)
	return atPos(err, e.Pos)
}

// BatchIter walks the entries of a byte slice holding a whole .log segment or
// the records of a fetch response, mixing magic 0, 1 and 2 as real logs do. Like
// Kafka's FileLogInputStream it stops silently where fewer than 17 bytes remain
// or an entry's declared size runs past the end (a torn tail, or a fetch
// response cut at its size limit), and TornTail then says where and how much.
// A size field below 14, an unknown magic or an unreadable header stop it with
// an error instead (Err). It does not check CRCs: call LogEntry.Check, or decode.
//
//	it := kafkalog.NewBatchIter(segmentBytes, 0)
//	for it.Next() {
//		e := it.Entry()
//		...
//	}
//	if err := it.Err(); err != nil { ... }
type BatchIter struct {
	src   []byte
	base  int64
	pos   int
	entry LogEntry
	err   error
	torn  bool
}

// NewBatchIter returns an iterator over src. base is the position of src[0] in
// the file it came from; positions in entries and errors include it.
func NewBatchIter(src []byte, base int64) *BatchIter {
	return &BatchIter{src: src, base: base}
}

// Next advances to the next entry and reports whether there is one.
func (it *BatchIter) Next() bool {
	if it.err != nil || it.torn {
		return false
	}
	rest := it.src[it.pos:]
	if len(rest) == 0 {
		return false
	}
	pos := it.base + int64(it.pos)
	if len(rest) < HeaderLenUpToMagic {
		it.torn = true
		return false
	}
	size, magic, err := PeekBatch(rest)
	if err != nil {
		it.err = atPos(err, pos)
		return false
	}
	if size > int64(len(rest)) {
		it.torn = true
		return false
	}
	e := LogEntry{Pos: pos, Magic: magic, Bytes: rest[:size:size]}
	switch magic {
	case MagicV2:
		e.Header, err = ReadBatchHeader(e.Bytes)
	case MagicV0, MagicV1:
		e.Legacy, _, err = parseLegacy(e.Bytes)
	default:
		err = batchErr(int64(binary.BigEndian.Uint64(rest)), 0, "magic", fmt.Errorf("%w: %d", ErrUnknownMagic, magic))
	}
	if err != nil {
		it.err = atPos(err, pos)
		return false
	}
	it.entry = e
	it.pos += int(size)
	return true
}

// Entry returns the current entry. It is overwritten by the next call of Next.
func (it *BatchIter) Entry() *LogEntry { return &it.entry }

// Err returns the error that stopped the iteration early, or nil if it ended at
// the end of the input or at a torn tail. The error is a *BatchError whose Pos
// is the entry's position.
func (it *BatchIter) Err() error { return it.err }

// Pos returns the position just after the last entry yielded: the valid bytes
// of the input when iteration has stopped (plus base).
func (it *BatchIter) Pos() int64 { return it.base + int64(it.pos) }

// TornTail reports, once Next has returned false, whether the input ended
// inside an entry, where that entry starts and how many bytes of it are present.
func (it *BatchIter) TornTail() (torn bool, pos int64, n int) {
	if !it.torn {
		return false, 0, 0
	}
	return true, it.Pos(), len(it.src) - it.pos
}

// atPos adds pos to the position of a *BatchError (decoders report positions
// relative to the slice they were given).
func atPos(err error, pos int64) error {
	var be *BatchError
	if err == nil || !errors.As(err, &be) {
		return err
	}
	c := *be
	c.Pos += pos
	return &c
}
