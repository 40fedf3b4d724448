package kafkalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Known answers of Kafka's Crc32CTest and the standard CRC-32C check values.
func TestCRC32CKnownAnswers(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want uint32
	}{
		{"B1 Kafka's Crc32CTest", []byte("Some String"), 608512271},
		{"B3 standard check value", []byte("123456789"), 0xE3069283},
		{"4 zero bytes, the empty producer snapshot", make([]byte, 4), 0x48674BC7},
		{"empty", nil, 0},
	}
	for _, tc := range tests {
		if got := CRC32C(tc.in); got != tc.want {
			t.Errorf("%s: CRC32C(%q) = 0x%08x, want 0x%08x", tc.name, tc.in, got, tc.want)
		}
	}
}

// TestCRC32CIncremental is B2: one call, byte by byte, and two halves agree.
func TestCRC32CIncremental(t *testing.T) {
	in := []byte("Any String you want")
	one := CRC32C(in)
	var byByte uint32
	for i := range in {
		byByte = UpdateCRC32C(byByte, in[i:i+1])
	}
	halves := UpdateCRC32C(CRC32C(in[:len(in)/2]), in[len(in)/2:])
	if diff := cmp.Diff([]uint32{one, one}, []uint32{byByte, halves}); diff != "" {
		t.Errorf("byte-by-byte and halves differ from one call (-want +got):\n%s", diff)
	}
}
