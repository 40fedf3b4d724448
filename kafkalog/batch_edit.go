package kafkalog

import (
	"encoding/binary"
	"fmt"
)

// In-place edits of an encoded v2 batch, the ones a broker makes on append
// (DefaultRecordBatch.setLastOffset, setPartitionLeaderEpoch, setMaxTimestamp).
// The first two touch fields outside the CRC and leave it alone; the third
// rewrites the attributes and maxTimestamp and recomputes the CRC.

// SetLastOffset rewrites the baseOffset of the batch at the start of b so that
// its last offset is offset (baseOffset = offset - lastOffsetDelta), as the
// leader does when it assigns offsets. The CRC stays valid.
func SetLastOffset(b []byte, offset int64) error {
	if len(b) < BatchHeaderLen {
		return batchErr(-1, 0, "header", ErrTruncated)
	}
	delta := int32(binary.BigEndian.Uint32(b[posLastOffsetDelta:]))
	binary.BigEndian.PutUint64(b, uint64(offset-int64(delta)))
	return nil
}

// SetPartitionLeaderEpoch stamps the leader epoch into the batch at the start of
// b. The CRC stays valid.
func SetPartitionLeaderEpoch(b []byte, epoch int32) error {
	if len(b) < BatchHeaderLen {
		return batchErr(-1, 0, "header", ErrTruncated)
	}
	binary.BigEndian.PutUint32(b[posLeaderEpoch:], uint32(epoch))
	return nil
}

// SetMaxTimestamp sets the timestamp type and maxTimestamp of the complete batch
// at the start of b and recomputes its CRC, as the broker does for
// LogAppendTime. Nothing is written when both are already as asked. tt must be
// CreateTime or LogAppendTime (ErrTimestampType otherwise).
func SetMaxTimestamp(b []byte, tt TimestampType, maxTimestamp int64) error {
	if tt != CreateTime && tt != LogAppendTime {
		return fmt.Errorf("%w: %v in a v2 batch", ErrTimestampType, tt)
	}
	h, err := ReadBatchHeader(b)
	if err != nil {
		return err
	}
	if h.Size() > int64(len(b)) {
		return batchErr(h.BaseOffset, 0, "length", fmt.Errorf("%w: batch of %d bytes, %d present", ErrTruncated, h.Size(), len(b)))
	}
	if h.Attributes.TimestampType() == tt && h.MaxTimestamp == maxTimestamp {
		return nil
	}
	binary.BigEndian.PutUint16(b[posAttributes:], uint16(h.Attributes.WithTimestampType(tt)))
	binary.BigEndian.PutUint64(b[posMaxTimestamp:], uint64(maxTimestamp))
	binary.BigEndian.PutUint32(b[posCRC:], CRC32C(b[posAttributes:h.Size()]))
	return nil
}
