package kafkalog

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Known answers: Kafka's ByteUtilsTest vectors.
var varintVectors = []struct {
	v   int32
	hex string
}{
	{0, "00"}, {-1, "01"}, {1, "02"}, {63, "7e"}, {-64, "7f"}, {64, "80 01"}, {-65, "81 01"},
	{8191, "fe 7f"}, {-8192, "ff 7f"}, {8192, "80 80 01"}, {-8193, "81 80 01"},
	{1048575, "fe ff 7f"}, {-1048576, "ff ff 7f"}, {1048576, "80 80 80 01"}, {-1048577, "81 80 80 01"},
	{134217727, "fe ff ff 7f"}, {-134217728, "ff ff ff 7f"}, {134217728, "80 80 80 80 01"},
	{-134217729, "81 80 80 80 01"}, {math.MaxInt32, "fe ff ff ff 0f"}, {math.MinInt32, "ff ff ff ff 0f"},
}

var varlongOnlyVectors = []struct {
	v   int64
	hex string
}{
	{17179869183, "fe ff ff ff 7f"}, {-17179869184, "ff ff ff ff 7f"},
	{17179869184, "80 80 80 80 80 01"}, {-17179869185, "81 80 80 80 80 01"},
	{2199023255551, "fe ff ff ff ff 7f"}, {2199023255552, "80 80 80 80 80 80 01"},
	{281474976710655, "fe ff ff ff ff ff 7f"}, {281474976710656, "80 80 80 80 80 80 80 01"},
	{36028797018963967, "fe ff ff ff ff ff ff 7f"}, {36028797018963968, "80 80 80 80 80 80 80 80 01"},
	{4611686018427387903, "fe ff ff ff ff ff ff ff 7f"}, {-4611686018427387904, "ff ff ff ff ff ff ff ff 7f"},
	{4611686018427387904, "80 80 80 80 80 80 80 80 80 01"}, {-4611686018427387905, "81 80 80 80 80 80 80 80 80 01"},
	{math.MaxInt64, "fe ff ff ff ff ff ff ff ff 01"}, {math.MinInt64, "ff ff ff ff ff ff ff ff ff 01"},
}

var uvarintVectors = []struct {
	v   uint32
	hex string
}{
	{0, "00"}, {1, "01"}, {63, "3f"}, {64, "40"}, {8191, "ff 3f"}, {8192, "80 40"},
	{1048575, "ff ff 3f"}, {1048576, "80 80 40"}, {0xffffffff, "ff ff ff ff 0f"},
	{uint32(0xffffffc0), "c0 ff ff ff 0f"}, {uint32(0xffffe000), "80 c0 ff ff 0f"},
	{uint32(0xffffdfff), "ff bf ff ff 0f"}, {math.MaxInt32, "ff ff ff ff 07"}, {0x80000000, "80 80 80 80 08"},
}

type decoded[T any] struct {
	V T
	N int
}

func TestVarintKafkaVectors(t *testing.T) { // A1
	for _, tc := range varintVectors {
		want := mustHex(t, tc.hex)
		if diff := cmp.Diff(want, AppendVarint(nil, tc.v)); diff != "" {
			t.Errorf("AppendVarint(%d) (-want +got):\n%s", tc.v, diff)
		}
		if diff := cmp.Diff(decoded[int32]{tc.v, len(want)}, decodedOf(Varint(want))); diff != "" {
			t.Errorf("Varint(%x) (-want +got):\n%s", want, diff)
		}
		if got := VarintLen(tc.v); got != len(want) {
			t.Errorf("VarintLen(%d) = %d, want %d", tc.v, got, len(want))
		}
	}
}

func TestVarlongKafkaVectors(t *testing.T) { // A2: every varint pair is a varlong pair too
	type vec = struct {
		v   int64
		hex string
	}
	all := append([]vec(nil), varlongOnlyVectors...)
	for _, tc := range varintVectors {
		all = append(all, vec{int64(tc.v), tc.hex})
	}
	for _, tc := range all {
		want := mustHex(t, tc.hex)
		if diff := cmp.Diff(want, AppendVarlong(nil, tc.v)); diff != "" {
			t.Errorf("AppendVarlong(%d) (-want +got):\n%s", tc.v, diff)
		}
		if diff := cmp.Diff(decoded[int64]{tc.v, len(want)}, decodedOf(Varlong(want))); diff != "" {
			t.Errorf("Varlong(%x) (-want +got):\n%s", want, diff)
		}
		if got := VarlongLen(tc.v); got != len(want) {
			t.Errorf("VarlongLen(%d) = %d, want %d", tc.v, got, len(want))
		}
	}
}

func TestUvarintKafkaVectors(t *testing.T) { // A3
	for _, tc := range uvarintVectors {
		want := mustHex(t, tc.hex)
		if diff := cmp.Diff(want, AppendUvarint(nil, tc.v)); diff != "" {
			t.Errorf("AppendUvarint(%d) (-want +got):\n%s", tc.v, diff)
		}
		if diff := cmp.Diff(decoded[uint32]{tc.v, len(want)}, decodedOf(Uvarint(want))); diff != "" {
			t.Errorf("Uvarint(%x) (-want +got):\n%s", want, diff)
		}
		if got := UvarintLen(tc.v); got != len(want) {
			t.Errorf("UvarintLen(%d) = %d, want %d", tc.v, got, len(want))
		}
	}
}

func decodedOf[T any](v T, n int) decoded[T] { return decoded[T]{v, n} }

// TestVarintBadInput covers A4, A5, A9 and truncation: n == 0 means the input
// ended first, n < 0 an overflow after -n bytes.
func TestVarintBadInput(t *testing.T) {
	tests := []struct {
		name  string
		hex   string
		read  func([]byte) (any, int)
		wantV any
		wantN int
	}{
		{"A4 varint 5th byte continues", "ff ff ff ff ff 01", varintAny, int32(0), -5},
		{"A4 uvarint 5th byte continues", "ff ff ff ff ff 01", uvarintAny, uint32(0), -5},
		{"A5 varlong 10th byte continues", "ff ff ff ff ff ff ff ff ff ff 01", varlongAny, int64(0), -10},
		{"A9 uvarint 5th byte masked to 4 bits", "ff ff ff ff 7f", uvarintAny, uint32(0xffffffff), 5},
		{"A9 masked equals canonical", "ff ff ff ff 0f", uvarintAny, uint32(0xffffffff), 5},
		{"A9 varint masked", "fe ff ff ff 7f", varintAny, int32(math.MaxInt32), 5},
		{"varlong 10th byte keeps its low bit", "fe ff ff ff ff ff ff ff ff 7f", varlongAny, int64(math.MaxInt64), 10},
		{"varint empty", "", varintAny, int32(0), 0},
		{"varint truncated", "80 80", varintAny, int32(0), 0},
		{"uvarint truncated at 4", "ff ff ff ff", uvarintAny, uint32(0), 0},
		{"varlong empty", "", varlongAny, int64(0), 0},
		{"varlong truncated at 9", "ff ff ff ff ff ff ff ff ff", varlongAny, int64(0), 0},
		{"varint ignores trailing bytes", "02 ff", varintAny, int32(1), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, n := tc.read(mustHex(t, tc.hex))
			if diff := cmp.Diff(decoded[any]{tc.wantV, tc.wantN}, decoded[any]{v, n}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func varintAny(b []byte) (any, int)  { v, n := Varint(b); return v, n }
func uvarintAny(b []byte) (any, int) { v, n := Uvarint(b); return v, n }
func varlongAny(b []byte) (any, int) { v, n := Varlong(b); return v, n }

// TestUvarintLenSimpleLoop is A6: the size function agrees with a plain loop
// encoder for every 13th value.
func TestUvarintLenSimpleLoop(t *testing.T) {
	// Kafka walks all of [0, MaxInt32) in steps of 13 (3.6 s here); we walk the
	// same lattice densely around every 7-bit boundary and sparsely elsewhere.
	check := func(v uint32) {
		if got, want := UvarintLen(v), loopLen(uint64(v)); got != want {
			t.Fatalf("UvarintLen(%d) = %d, simple loop says %d", v, got, want)
		}
	}
	for _, edge := range []uint64{0, 1 << 7, 1 << 14, 1 << 21, 1 << 28} {
		lo := max(edge, 1<<16) - 1<<16
		for i := lo - lo%13; i < edge+1<<16; i += 13 {
			check(uint32(i))
		}
	}
	for i := uint64(0); i < math.MaxInt32; i += 13 * 4099 {
		check(uint32(i))
	}
}

// TestVarlongLenPowersOfTwo is A7.
func TestVarlongLenPowersOfTwo(t *testing.T) {
	for k := -1; k <= 62; k++ {
		v := int64(0)
		if k >= 0 {
			v = 1 << k
		}
		for _, x := range []int64{v, -v} {
			if got, want := VarlongLen(x), len(AppendVarlong(nil, x)); got != want {
				t.Errorf("VarlongLen(%d) = %d, but %d bytes are written", x, got, want)
			}
			if got, want := VarlongLen(x), loopLen(uint64(x<<1)^uint64(x>>63)); got != want {
				t.Errorf("VarlongLen(%d) = %d, simple loop says %d", x, got, want)
			}
		}
	}
}

func loopLen(u uint64) int {
	n := 1
	for ; u >= 0x80; u >>= 7 {
		n++
	}
	return n
}

func TestVarintRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, "prefix")
		v := rapid.Int32().Draw(t, "value")
		b := AppendVarint(bytes.Clone(prefix), v)
		if !bytes.Equal(b[:len(prefix)], prefix) {
			t.Fatalf("appending varint %d changed the %d bytes already in dst", v, len(prefix))
		}
		enc := b[len(prefix):]
		if len(enc) != VarintLen(v) {
			t.Fatalf("varint %d took %d bytes but VarintLen says %d", v, len(enc), VarintLen(v))
		}
		if want := binary.AppendVarint(nil, int64(v)); !bytes.Equal(enc, want) {
			t.Fatalf("varint %d encoded as %x; protobuf zigzag (Kafka's bytes) is %x", v, enc, want)
		}
		got, n := Varint(append(enc, 0xff))
		if got != v || n != len(enc) {
			t.Fatalf("varint %d encoded as %x decoded to %d after %d bytes", v, enc, got, n)
		}
	})
}

func TestVarlongRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, "prefix")
		v := rapid.Int64().Draw(t, "value")
		b := AppendVarlong(bytes.Clone(prefix), v)
		if !bytes.Equal(b[:len(prefix)], prefix) {
			t.Fatalf("appending varlong %d changed the %d bytes already in dst", v, len(prefix))
		}
		enc := b[len(prefix):]
		if len(enc) != VarlongLen(v) {
			t.Fatalf("varlong %d took %d bytes but VarlongLen says %d", v, len(enc), VarlongLen(v))
		}
		if want := binary.AppendVarint(nil, v); !bytes.Equal(enc, want) {
			t.Fatalf("varlong %d encoded as %x; protobuf zigzag (Kafka's bytes) is %x", v, enc, want)
		}
		got, n := Varlong(append(enc, 0xff))
		if got != v || n != len(enc) {
			t.Fatalf("varlong %d encoded as %x decoded to %d after %d bytes", v, enc, got, n)
		}
	})
}

func TestUvarintRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, "prefix")
		v := rapid.Uint32().Draw(t, "value")
		b := AppendUvarint(bytes.Clone(prefix), v)
		if !bytes.Equal(b[:len(prefix)], prefix) {
			t.Fatalf("appending uvarint %d changed the %d bytes already in dst", v, len(prefix))
		}
		enc := b[len(prefix):]
		if len(enc) != UvarintLen(v) {
			t.Fatalf("uvarint %d took %d bytes but UvarintLen says %d", v, len(enc), UvarintLen(v))
		}
		got, n := Uvarint(enc)
		if got != v || n != len(enc) {
			t.Fatalf("uvarint %d encoded as %x decoded to %d after %d bytes", v, enc, got, n)
		}
		for cut := 0; cut < len(enc); cut++ {
			if _, n := Uvarint(enc[:cut]); n != 0 {
				t.Fatalf("uvarint %x cut to %d bytes reported n=%d, want 0 (truncated)", enc, cut, n)
			}
		}
	})
}
