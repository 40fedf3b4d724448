package kafkalogtest

import (
	"bytes"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
)

type varintInput struct {
	dst []byte
	v   int32
}

// groups7 writes u 7 bits at a time, least significant group first, with the
// continuation bit on every byte but the last: the part learners get right.
func groups7(dst []byte, u uint64) []byte {
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

func appendTo(in varintInput, enc []byte) []byte { return append(bytes.Clone(in.dst), enc...) }

// varintMistakes are the known wrong encoders, described by their output.
var varintMistakes = []kit.Mistake[varintInput, []byte]{
	{Says: "the zigzag step is missing: v was written as an unsigned number, so -1 takes 5 bytes", Do: func(in varintInput) []byte {
		return appendTo(in, groups7(nil, uint64(uint32(in.v))))
	}},
	{Says: "the continuation bit (0x80) is also set on the last byte", Do: func(in varintInput) []byte {
		enc := kafkalog.AppendVarint(nil, in.v)
		enc[len(enc)-1] |= 0x80
		return appendTo(in, enc)
	}},
	{Says: "the zigzag value was kept in a signed int32, so values from 2^30 up (or below -2^30) stop after one byte", Do: func(in varintInput) []byte {
		u := in.v<<1 ^ in.v>>31
		var enc []byte
		for u >= 0x80 {
			enc = append(enc, byte(u)|0x80)
			u >>= 7
		}
		return appendTo(in, append(enc, byte(u)))
	}},
	{Says: "the sign mask uses a logical shift (uint32(v)>>31) instead of an arithmetic one (v>>31)", Do: func(in varintInput) []byte {
		return appendTo(in, groups7(nil, uint64(uint32(in.v<<1)^uint32(in.v)>>31)))
	}},
	{Says: "sign and magnitude instead of zigzag: |v|<<1 | sign", Do: func(in varintInput) []byte {
		m := int64(in.v)
		var sign uint64
		if m < 0 {
			m, sign = -m, 1
		}
		return appendTo(in, groups7(nil, uint64(m)<<1|sign))
	}},
	{Says: "the groups are written most significant first (big-endian); varints start with the low 7 bits", Do: func(in varintInput) []byte {
		enc := kafkalog.AppendVarint(nil, in.v)
		for i := range enc {
			enc[i] &= 0x7f
		}
		for i, j := 0, len(enc)-1; i < j; i, j = i+1, j-1 {
			enc[i], enc[j] = enc[j], enc[i]
		}
		for i := 0; i < len(enc)-1; i++ {
			enc[i] |= 0x80
		}
		return appendTo(in, enc)
	}},
	{Says: "the value is shifted by 8 bits per byte instead of 7", Do: func(in varintInput) []byte {
		u := zigzag(in.v)
		var enc []byte
		for u >= 0x80 {
			enc = append(enc, byte(u)|0x80)
			u >>= 8
		}
		return appendTo(in, append(enc, byte(u)))
	}},
	{Says: "the loop stops after 4 bytes; a Kafka varint can take 5", Do: func(in varintInput) []byte {
		enc := kafkalog.AppendVarint(nil, in.v)
		if len(enc) == 5 {
			enc = enc[:4]
			enc[3] &= 0x7f
		}
		return appendTo(in, enc)
	}},
	{Says: "the varint replaces dst instead of being appended to it", Do: func(in varintInput) []byte {
		return kafkalog.AppendVarint(nil, in.v)
	}},
}
