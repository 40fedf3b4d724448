package kafkalog

import (
	"fmt"
	"strings"
)

// Compression is the codec of a batch's records, bits 0-2 of its attributes
// (Kafka's CompressionType ids).
type Compression int8

// Compression codecs. The values are part of the format.
const (
	CompressionNone   Compression = 0
	CompressionGzip   Compression = 1
	CompressionSnappy Compression = 2
	CompressionLZ4    Compression = 3
	CompressionZstd   Compression = 4
)

// String returns Kafka's name for c ("none", "gzip", ...), the one kafka-dump-log prints.
func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "none"
	case CompressionGzip:
		return "gzip"
	case CompressionSnappy:
		return "snappy"
	case CompressionLZ4:
		return "lz4"
	case CompressionZstd:
		return "zstd"
	}
	return fmt.Sprintf("unknown(%d)", int8(c))
}

// TimestampType says where record timestamps come from.
type TimestampType int8

// Timestamp types. NoTimestampType exists only for magic 0 messages.
const (
	NoTimestampType TimestampType = -1
	CreateTime      TimestampType = 0
	LogAppendTime   TimestampType = 1
)

// String returns Kafka's name for t ("CreateTime", "LogAppendTime", "NoTimestampType").
func (t TimestampType) String() string {
	switch t {
	case CreateTime:
		return "CreateTime"
	case LogAppendTime:
		return "LogAppendTime"
	}
	return "NoTimestampType"
}

// Attributes is the int16 attributes field of a v2 batch. Only bits 0-6 are used:
//
//	bit:  15 ... 7   6            5        4              3          2 1 0
//	      unused     delete       control  transactional  timestamp  compression
//	                 horizon                              type
type Attributes int16

// Attribute masks; part of the format.
const (
	compressionMask   Attributes = 0x07
	timestampTypeMask Attributes = 0x08
	transactionalFlag Attributes = 0x10
	controlFlag       Attributes = 0x20
	deleteHorizonFlag Attributes = 0x40
)

// NewAttributes builds attributes from their parts.
func NewAttributes(c Compression, t TimestampType, transactional, control bool) Attributes {
	a := Attributes(c) & compressionMask
	if t == LogAppendTime {
		a |= timestampTypeMask
	}
	if transactional {
		a |= transactionalFlag
	}
	if control {
		a |= controlFlag
	}
	return a
}

// Compression returns the codec of the batch's records.
func (a Attributes) Compression() Compression { return Compression(a & compressionMask) }

// TimestampType returns CreateTime or LogAppendTime.
func (a Attributes) TimestampType() TimestampType {
	if a&timestampTypeMask != 0 {
		return LogAppendTime
	}
	return CreateTime
}

// IsTransactional reports whether the batch belongs to a transaction.
func (a Attributes) IsTransactional() bool { return a&transactionalFlag != 0 }

// IsControl reports whether the batch holds control records (transaction markers,
// KRaft control records).
func (a Attributes) IsControl() bool { return a&controlFlag != 0 }

// HasDeleteHorizon reports whether the cleaner stored a delete horizon in the
// batch's BaseTimestamp (KIP-534, Kafka 3.1+).
func (a Attributes) HasDeleteHorizon() bool { return a&deleteHorizonFlag != 0 }

// WithCompression returns a with its codec replaced by c.
func (a Attributes) WithCompression(c Compression) Attributes {
	return a&^compressionMask | Attributes(c)&compressionMask
}

// WithTimestampType returns a with its timestamp type replaced by t.
func (a Attributes) WithTimestampType(t TimestampType) Attributes {
	if t == LogAppendTime {
		return a | timestampTypeMask
	}
	return a &^ timestampTypeMask
}

// WithDeleteHorizon returns a with the delete-horizon flag set.
func (a Attributes) WithDeleteHorizon() Attributes { return a | deleteHorizonFlag }

// String describes a, e.g. "gzip|LogAppendTime|transactional".
func (a Attributes) String() string {
	parts := []string{a.Compression().String(), a.TimestampType().String()}
	if a.IsTransactional() {
		parts = append(parts, "transactional")
	}
	if a.IsControl() {
		parts = append(parts, "control")
	}
	if a.HasDeleteHorizon() {
		parts = append(parts, "deleteHorizon")
	}
	return strings.Join(parts, "|")
}
