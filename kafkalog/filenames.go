package kafkalog

import (
	"strconv"
	"strings"
)

// Suffixes of the files of a segment and of the states a file passes through
// (LogFileUtils.java). A compound name such as "00000000000000000038.log.deleted"
// is a segment file scheduled for deletion.
const (
	// LogSuffix names a segment's records file.
	LogSuffix = ".log"
	// IndexSuffix names a segment's offset index.
	IndexSuffix = ".index"
	// TimeIndexSuffix names a segment's time index.
	TimeIndexSuffix = ".timeindex"
	// TxnIndexSuffix names a segment's aborted-transaction index.
	TxnIndexSuffix = ".txnindex"
	// SnapshotSuffix names a producer state snapshot, named after the offset it
	// covers up to (exclusive).
	SnapshotSuffix = ".snapshot"
	// DeletedSuffix is appended to a file scheduled for asynchronous deletion.
	DeletedSuffix = ".deleted"
	// CleanedSuffix is appended to the cleaner's output while it is being written.
	CleanedSuffix = ".cleaned"
	// SwapSuffix is appended to the cleaner's output once it is ready to be swapped in.
	SwapSuffix = ".swap"
)

// offsetDigits is the minimum width of the base offset in a file name
// (NumberFormat with setMinimumIntegerDigits(20)).
const offsetDigits = 20

// SegmentFileName returns the name of a segment file: the base offset padded with
// zeros to 20 digits, then the suffix. SegmentFileName(38, LogSuffix) is
// "00000000000000000038.log". A negative offset (never valid) is written with its
// sign so that it cannot be mistaken for a real segment.
func SegmentFileName(baseOffset int64, suffix string) string {
	if baseOffset < 0 {
		return strconv.FormatInt(baseOffset, 10) + suffix
	}
	var digits [offsetDigits]byte
	d := strconv.AppendInt(digits[:0], baseOffset, 10)
	var b strings.Builder // one allocation: a log opens thousands of these
	b.Grow(max(offsetDigits, len(d)) + len(suffix))
	for range offsetDigits - len(d) {
		b.WriteByte('0')
	}
	b.Write(d)
	b.WriteString(suffix)
	return b.String()
}

// knownSuffixes are the primary suffixes ParseSegmentFileName accepts.
var knownSuffixes = []string{LogSuffix, IndexSuffix, TimeIndexSuffix, TxnIndexSuffix, SnapshotSuffix}

// stateSuffixes may follow a primary suffix.
var stateSuffixes = []string{DeletedSuffix, CleanedSuffix, SwapSuffix}

// ParseSegmentFileName splits a segment file name into its base offset and its
// suffix, which is one of LogSuffix, IndexSuffix, TimeIndexSuffix,
// TxnIndexSuffix, SnapshotSuffix, optionally followed by DeletedSuffix,
// CleanedSuffix or SwapSuffix (the suffix returned is then compound, e.g.
// ".log.deleted"). The offset part must be all digits, at least 20 of them (as
// Kafka writes them) and fit an int64. Other names return ok == false.
func ParseSegmentFileName(name string) (baseOffset int64, suffix string, ok bool) {
	dot := strings.IndexByte(name, '.')
	if dot < offsetDigits {
		return 0, "", false
	}
	digits, suffix := name[:dot], name[dot:]
	if !validSegmentSuffix(suffix) {
		return 0, "", false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, "", false
		}
	}
	off, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, "", false
	}
	return off, suffix, true
}

func validSegmentSuffix(s string) bool {
	for _, k := range knownSuffixes {
		if s == k {
			return true
		}
		if rest, found := strings.CutPrefix(s, k); found {
			for _, st := range stateSuffixes {
				if rest == st {
					return true
				}
			}
		}
	}
	return false
}
