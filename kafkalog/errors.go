package kafkalog

import (
	"errors"
	"fmt"
)

// Sentinel errors. Bad bytes from disk or the network always produce one of these
// (wrapped with where it happened), never a panic. Test with errors.Is.
var (
	// ErrTruncated means the input ended inside a batch, record or varint: the bytes
	// that would complete it are not there. Recovery treats it as a torn tail.
	ErrTruncated = errors.New("kafkalog: truncated input")

	// ErrCorruptBatch means a batch header is inconsistent (length below the minimum,
	// CRC mismatch, negative record count). Kafka: CorruptRecordException.
	ErrCorruptBatch = errors.New("kafkalog: corrupt batch")

	// ErrInvalidRecord means the records inside a batch do not parse as declared
	// (size mismatch, record count mismatch, negative header count). Kafka:
	// InvalidRecordException.
	ErrInvalidRecord = errors.New("kafkalog: invalid record")

	// ErrVarintOverflow means a varint ran past its maximum width (5 bytes for a
	// varint, 10 for a varlong) with the continuation bit still set.
	ErrVarintOverflow = errors.New("kafkalog: varint overflows its width")

	// ErrUnknownMagic means the magic byte is not 0, 1 or 2.
	ErrUnknownMagic = errors.New("kafkalog: unknown magic byte")

	// ErrUnknownCompression means the compression bits name no codec (5, 6 or 7).
	ErrUnknownCompression = errors.New("kafkalog: unknown compression codec")

	// ErrTimestampType means a timestamp type that the format cannot hold was asked
	// for (NoTimestampType in a v2 batch). Kafka: IllegalArgumentException.
	ErrTimestampType = errors.New("kafkalog: invalid timestamp type")

	// ErrTooLarge means a size read from input, or the decompressed output, exceeds
	// the limit the caller set (max.message.bytes, a decompression cap).
	ErrTooLarge = errors.New("kafkalog: size exceeds limit")

	// ErrDecompress comes with ErrInvalidRecord when a compressed batch's records
	// do not decompress (Decoder, Decompress, legacy messages): the codec refused
	// the stream (Kafka 3.7's
	// DefaultRecordBatch: a KafkaException, "Failed to decompress record stream",
	// which its broker answers as UNKNOWN_SERVER_ERROR).
	ErrDecompress = errors.New("kafkalog: records do not decompress")
)

// decompressError is a codec's error: errors.Is finds ErrDecompress and
// what the error wraps; the message is the error's own.
type decompressError struct{ err error }

func (e *decompressError) Error() string   { return e.err.Error() }
func (e *decompressError) Unwrap() []error { return []error{ErrDecompress, e.err} }

// BatchError says where in the input a batch failed to decode. It wraps one of
// the sentinels above.
type BatchError struct {
	// BaseOffset of the batch, or -1 if the header was not readable.
	BaseOffset int64
	// Pos is the byte position of the batch in the input it was read from
	// (relative to the start of the slice, or of the file for file readers).
	Pos int64
	// Field names what broke: "length", "crc", "magic", "record 3: keyLength"...
	Field string
	// Err is the sentinel (ErrCorruptBatch, ErrTruncated, ...), possibly wrapped.
	Err error
}

// Error says where and what: "batch at base offset 5 (position 420): crc: ...".
func (e *BatchError) Error() string {
	where := fmt.Sprintf("position %d", e.Pos)
	if e.BaseOffset >= 0 {
		where = fmt.Sprintf("batch at base offset %d (position %d)", e.BaseOffset, e.Pos)
	}
	return fmt.Sprintf("%s: %s: %v", where, e.Field, e.Err)
}

// Unwrap returns the sentinel (possibly wrapped) so that errors.Is works.
func (e *BatchError) Unwrap() error { return e.Err }

// IsTornTail reports whether err means the input simply ended early (a partial
// batch at the end of a file), which log recovery cuts without further alarm.
func IsTornTail(err error) bool { return errors.Is(err, ErrTruncated) }

func batchErr(base, pos int64, field string, err error) error {
	return &BatchError{BaseOffset: base, Pos: pos, Field: field, Err: err}
}
