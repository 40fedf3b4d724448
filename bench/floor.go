package bench

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/kafkalive/kafkalive/kafkalog"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrFloorCRC is what the decode floor reports for a batch whose stored CRC
// does not match its bytes.
var ErrFloorCRC = errors.New("bench: limit-crc: crc mismatch")

// AppendCopyCRC is the encode floor, the limit-copycrc column: it writes a
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

// CheckCRC is the decode floor, the limit-crc column: it CRC-32Cs the
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

// ReadCRC is the recovery floor: it reads the first size bytes of a .log file
// through buf (preads of len(buf) bytes, the buffer reused) and CRC-32Cs every
// v2 batch, moving a batch that straddles two reads to the front of buf. It
// neither rebuilds an index nor checks anything but the CRC, and returns the
// number of batches. buf must hold the largest batch.
func ReadCRC(f io.ReaderAt, size int64, buf []byte) (int, error) {
	var batches int
	var off int64 // file offset of buf[0]
	have := 0     // valid bytes in buf
	for {
		n, err := f.ReadAt(buf[have:min(int64(len(buf)), size-off)], off+int64(have))
		have += n
		if err != nil && err != io.EOF {
			return batches, err
		}
		p := 0
		for have-p >= kafkalog.LogOverhead {
			batch := kafkalog.LogOverhead + int(int32(binary.BigEndian.Uint32(buf[p+8:])))
			if batch < kafkalog.BatchHeaderLen || batch > len(buf) {
				return batches, fmt.Errorf("%w: batch of %d bytes at %d", kafkalog.ErrCorruptBatch, batch, off+int64(p))
			}
			if have-p < batch {
				break
			}
			if crc32.Checksum(buf[p+21:p+batch], castagnoli) != binary.BigEndian.Uint32(buf[p+17:]) {
				return batches, fmt.Errorf("%w at %d", ErrFloorCRC, off+int64(p))
			}
			p += batch
			batches++
		}
		if off+int64(have) >= size || n == 0 {
			return batches, nil
		}
		copy(buf, buf[p:have])
		off, have = off+int64(p), have-p
	}
}
