package kafkalog

import (
	"errors"
	"hash/crc32"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func TestLegacyMessageRoundTrip(t *testing.T) {
	tests := []LegacyMessage{
		{Offset: 7, Magic: MagicV0, Timestamp: NoTimestamp, Key: []byte("k"), Value: []byte("v")},
		{Offset: 8, Magic: MagicV0, Timestamp: NoTimestamp},
		{Offset: 9, Magic: MagicV1, Timestamp: 1633286796965, Key: []byte{}, Value: []byte("value")},
		{Offset: 10, Magic: MagicV1, Attributes: legacyTimestampTypeMask, Timestamp: 42, Value: []byte("x")},
	}
	for _, m := range tests {
		enc := m.AppendTo([]byte("prefix"))[6:]
		got, n, err := ReadLegacyMessage(enc)
		require.NoError(t, err)
		if n != len(enc) || int(m.Size()) != n {
			t.Errorf("offset %d: read %d bytes of %d, Size says %d", m.Offset, n, len(enc), m.Size())
		}
		if diff := cmp.Diff(m, got); diff != "" {
			t.Errorf("offset %d (-want +got):\n%s", m.Offset, diff)
		}
		if want := crc32.ChecksumIEEE(enc[16:]); got.CRC != want {
			t.Errorf("offset %d: crc 0x%08x, CRC-32/IEEE of bytes [16, end) is 0x%08x", m.Offset, got.CRC, want)
		}
	}
	if tt := (&LegacyMessage{Magic: MagicV0}).TimestampType(); tt != NoTimestampType {
		t.Errorf("magic 0 timestamp type %v, want NoTimestampType", tt)
	}
}

func TestLegacyMessageBadInput(t *testing.T) {
	m := LegacyMessage{Offset: 3, Magic: MagicV1, Timestamp: 5, Key: []byte("key"), Value: []byte("value")}
	good := m.AppendTo(nil)
	edit := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b)
		return b
	}
	fixCRC := func(b []byte) {
		c := crc32.ChecksumIEEE(b[16:])
		b[12], b[13], b[14], b[15] = byte(c>>24), byte(c>>16), byte(c>>8), byte(c)
	}
	tests := []struct {
		name  string
		in    []byte
		want  error
		field string
	}{
		{"flipped value byte", edit(func(b []byte) { b[len(b)-1] ^= 1 }), ErrCorruptBatch, "crc"},
		{"truncated", good[:len(good)-1], ErrTruncated, "size"},
		{"16 bytes", good[:16], ErrTruncated, "header"},
		{"size below v1 overhead", edit(func(b []byte) { b[11] = 21 }), ErrCorruptBatch, "size"},
		{"magic 2 is not legacy", edit(func(b []byte) { b[16] = 2 }), ErrUnknownMagic, "magic"},
		{"key length past the message", edit(func(b []byte) { b[29] = 99; fixCRC(b) }), ErrInvalidRecord, "keyLength"},
		{"key length -2", edit(func(b []byte) { b[26], b[27], b[28], b[29] = 0xff, 0xff, 0xff, 0xfe; fixCRC(b) }), ErrInvalidRecord, "keyLength"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, n, err := ReadLegacyMessage(tc.in)
			var be *BatchError
			require.ErrorAs(t, err, &be)
			if !errors.Is(err, tc.want) || be.Field != tc.field || n != 0 {
				t.Errorf("got n=%d %v (field %q), want %v in %q", n, err, be.Field, tc.want, tc.field)
			}
		})
	}
}

// legacyWrapper builds a compressed legacy message holding inner messages with the
// given relative (magic 1) or absolute (magic 0) offsets.
func legacyWrapper(t *testing.T, magic int8, c Compression, offset int64, attrs int8, ts int64, inner []LegacyMessage) LegacyMessage {
	var raw []byte
	for i := range inner {
		raw = inner[i].AppendTo(raw)
	}
	value, err := Compress(nil, c, raw)
	require.NoError(t, err)
	w := LegacyMessage{Offset: offset, Magic: magic, Attributes: int8(c) | attrs, Timestamp: ts, Value: value}
	enc := w.AppendTo(nil)
	got, _, err := ReadLegacyMessage(enc)
	require.NoError(t, err)
	return got
}

func TestDecompressLegacy(t *testing.T) {
	inner := func(magic int8, offsets ...int64) []LegacyMessage {
		var ms []LegacyMessage
		for i, o := range offsets {
			ms = append(ms, LegacyMessage{Offset: o, Magic: magic, Timestamp: 100 + int64(i), Value: []byte{'a' + byte(i)}})
			if magic == MagicV0 {
				ms[i].Timestamp = NoTimestamp
			}
		}
		return ms
	}
	type got struct {
		Offsets    []int64
		Timestamps []int64
		Types      []TimestampType
	}
	tests := []struct {
		name string
		w    func(t *testing.T) LegacyMessage
		want got
	}{
		{"v1 gzip: relative offsets end at the wrapper's", func(t *testing.T) LegacyMessage {
			return legacyWrapper(t, MagicV1, CompressionGzip, 12, 0, 999, inner(MagicV1, 0, 1, 2))
		}, got{[]int64{10, 11, 12}, []int64{100, 101, 102}, []TimestampType{CreateTime, CreateTime, CreateTime}}},
		{"v1 snappy (xerial) under LogAppendTime takes the wrapper's timestamp", func(t *testing.T) LegacyMessage {
			return legacyWrapper(t, MagicV1, CompressionSnappy, 5, legacyTimestampTypeMask, 999, inner(MagicV1, 0, 1))
		}, got{[]int64{4, 5}, []int64{999, 999}, []TimestampType{LogAppendTime, LogAppendTime}}},
		{"v1 lz4", func(t *testing.T) LegacyMessage {
			return legacyWrapper(t, MagicV1, CompressionLZ4, 1, 0, 0, inner(MagicV1, 0))
		}, got{[]int64{1}, []int64{100}, []TimestampType{CreateTime}}},
		{"v0 gzip keeps absolute inner offsets", func(t *testing.T) LegacyMessage {
			return legacyWrapper(t, MagicV0, CompressionGzip, 31, 0, NoTimestamp, inner(MagicV0, 30, 31))
		}, got{[]int64{30, 31}, []int64{-1, -1}, []TimestampType{NoTimestampType, NoTimestampType}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w(t)
			ms, err := DecompressLegacy(&w, nil, 0)
			require.NoError(t, err)
			var g got
			for _, m := range ms {
				g.Offsets, g.Timestamps, g.Types = append(g.Offsets, m.Offset), append(g.Timestamps, m.Timestamp), append(g.Types, m.TimestampType())
			}
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecompressLegacyRejects(t *testing.T) {
	nested := legacyWrapper(t, MagicV1, CompressionGzip, 0, 0, 0, []LegacyMessage{{Magic: MagicV1, Value: []byte("x")}})
	tests := []struct {
		name string
		w    func(t *testing.T) LegacyMessage
		want error
	}{
		{"empty stream", func(t *testing.T) LegacyMessage { return legacyWrapper(t, MagicV1, CompressionGzip, 0, 0, 0, nil) }, ErrInvalidRecord},
		{"null value", func(t *testing.T) LegacyMessage {
			return LegacyMessage{Magic: MagicV1, Attributes: int8(CompressionGzip)}
		}, ErrInvalidRecord},
		{"compressed inside compressed", func(t *testing.T) LegacyMessage {
			return legacyWrapper(t, MagicV1, CompressionGzip, 0, 0, 0, []LegacyMessage{nested})
		}, ErrInvalidRecord},
		{"magic 0 inside magic 1", func(t *testing.T) LegacyMessage {
			return legacyWrapper(t, MagicV1, CompressionGzip, 0, 0, 0, []LegacyMessage{{Magic: MagicV0, Value: []byte("x")}})
		}, ErrInvalidRecord},
		{"zstd is not a legacy codec", func(t *testing.T) LegacyMessage {
			return LegacyMessage{Magic: MagicV1, Attributes: int8(CompressionZstd), Value: []byte{1}}
		}, ErrUnknownCompression},
		{"garbage stream", func(t *testing.T) LegacyMessage {
			return LegacyMessage{Magic: MagicV1, Attributes: int8(CompressionGzip), Value: []byte("not gzip")}
		}, ErrInvalidRecord},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w(t)
			ms, err := DecompressLegacy(&w, nil, 0)
			if !errors.Is(err, tc.want) || len(ms) != 0 {
				t.Errorf("got %d messages, %v; want none and %v", len(ms), err, tc.want)
			}
		})
	}
	big := legacyWrapper(t, MagicV1, CompressionGzip, 0, 0, 0, []LegacyMessage{{Magic: MagicV1, Value: make([]byte, 4096)}})
	if _, err := DecompressLegacy(&big, nil, 1000); !errors.Is(err, ErrTooLarge) {
		t.Errorf("4 KiB inside a 1000-byte limit: %v, want ErrTooLarge", err)
	}
}
