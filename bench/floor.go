package bench

import (
	"encoding/binary"
	"errors"
	"hash/crc32"

	"github.com/kafkalive/kafkalive/kafkalog"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrFloorCRC is what the decode floor reports for a batch whose stored CRC
// does not match its bytes.
var ErrFloorCRC = errors.New("bench: limit-crc: crc mismatch")

// AppendCopyCRC is the encode floor, performance.md's limit-copycrc: it writes a
// zeroed 61-byte header, copies every key and value after it and CRC-32Cs bytes
// [21, end), the least any encoder of the batch does. Its output is not a batch.
func AppendCopyCRC(dst []byte, recs []kafkalog.Record) []byte {
	start := len(dst)
	var hdr [kafkalog.BatchHeaderLen]byte
	dst = append(dst, hdr[:]...)
	for i := range recs {
		dst = append(dst, recs[i].Key...)
		dst = append(dst, recs[i].Value...)
	}
	binary.BigEndian.PutUint32(dst[start+17:], crc32.Checksum(dst[start+21:], castagnoli))
	return dst
}

// CheckCRC is the decode floor, performance.md's limit-crc: it CRC-32Cs the
// batch from byte 21 to the end of src and compares it with the stored CRC,
// the least a validating decoder does. src must hold exactly one batch.
func CheckCRC(src []byte) error {
	if len(src) < kafkalog.BatchHeaderLen {
		return kafkalog.ErrTruncated
	}
	if crc32.Checksum(src[21:], castagnoli) != binary.BigEndian.Uint32(src[17:]) {
		return ErrFloorCRC
	}
	return nil
}
