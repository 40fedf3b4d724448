package partitioner_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/partitioner"
)

// murmur2Vectors: the first six are Kafka's
// UtilsTest.testMurmur2, the rest were computed with a checked implementation.
var murmur2Vectors = []struct {
	key        string
	hash       int32
	pos        int32
	p3, p4, p6 int32
}{
	{"21", -973932308, 1173551340, 0, 0, 0},
	{"foobar", -790332482, 1357151166, 0, 2, 0},
	{"a-little-bit-long-string", -985981536, 1161502112, 2, 0, 2},
	{"a-little-bit-longer-string", -1486304829, 661178819, 2, 3, 5},
	{"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971, 2088585677, 2, 1, 5},
	{"abc", 479470107, 479470107, 0, 3, 3},
	{"key", -1079937367, 1067546281, 1, 1, 1},
	{"alice", 1951417749, 1951417749, 0, 1, 3},
	{"bob", -2048144690, 99338958, 0, 2, 0},
	{"carol", 271431602, 271431602, 2, 2, 2},
	{"dave", 1727131798, 1727131798, 1, 2, 4},
	{"user-1", 1404122828, 1404122828, 2, 0, 2},
	{"user-2", -324981792, 1822501856, 2, 0, 2},
	{"user-3", 1141442267, 1141442267, 2, 3, 5},
	{"order-42", 501153024, 501153024, 0, 0, 0},
}

func TestMurmur2KafkaVectors(t *testing.T) {
	for _, v := range murmur2Vectors {
		t.Run(v.key, func(t *testing.T) {
			if got := partitioner.Murmur2([]byte(v.key)); got != v.hash {
				t.Errorf("Murmur2(%q) = %d; want %d", v.key, got, v.hash)
			}
			if got := partitioner.ToPositive(partitioner.Murmur2([]byte(v.key))); got != v.pos {
				t.Errorf("ToPositive(Murmur2(%q)) = %d; want %d", v.key, got, v.pos)
			}
			want := []int32{v.p3, v.p4, v.p6}
			var got []int32
			for _, n := range []int32{3, 4, 6} {
				p, err := partitioner.Partition([]byte(v.key), n)
				if err != nil {
					t.Fatalf("Partition(%q, %d): %v", v.key, n, err)
				}
				got = append(got, p)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Partition(%q, 3|4|6) mismatch (-want +got):\n%s", v.key, diff)
			}
		})
	}
}

// TestPartitionJavaCompat holds the Java Partitioner results for 1000
// partitions recorded by kafka-python.
func TestPartitionJavaCompat(t *testing.T) {
	tests := []struct {
		key  []byte
		want int32
	}{
		{[]byte(""), 681},
		{[]byte("a"), 524},
		{[]byte("ab"), 434},
		{[]byte("abc"), 107},
		{[]byte("123456789"), 566},
		{[]byte{0x00, 0x20}, 742},
	}
	for _, tt := range tests {
		got, err := partitioner.Partition(tt.key, 1000)
		if err != nil {
			t.Fatalf("Partition(%x, 1000): %v", tt.key, err)
		}
		if got != tt.want {
			t.Errorf("Partition(%x, 1000) = %d; want %d", tt.key, got, tt.want)
		}
	}
}

// TestMurmur2DigitStrings holds kafkajs's Java-generated hashes; together
// they cover every tail length (len % 4 = 0, 1, 2, 3).
func TestMurmur2DigitStrings(t *testing.T) {
	want := map[string]int32{
		"0": 971027396, "1": -1993445489, "128": -326012175, "2187": -1508407203,
		"16384": -325739742, "78125": -1654490814, "279936": 1462227128, "823543": -2014198330,
	}
	got := make(map[string]int32, len(want))
	for k := range want {
		got[k] = partitioner.Murmur2([]byte(k))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Murmur2 of digit strings mismatch (-want +got):\n%s", diff)
	}
}

func TestToPositiveIsAMaskNotAbs(t *testing.T) {
	tests := []struct{ in, want int32 }{
		{0, 0}, {1, 1}, {-1, 0x7fffffff}, {-2147483648, 0}, {2147483647, 2147483647}, {-973932308, 1173551340},
	}
	for _, tt := range tests {
		if got := partitioner.ToPositive(tt.in); got != tt.want {
			t.Errorf("ToPositive(%d) = %d; want %d", tt.in, got, tt.want)
		}
	}
}

func TestPartitionRejectsNoPartitions(t *testing.T) {
	for _, n := range []int32{0, -1} {
		if _, err := partitioner.Partition([]byte("k"), n); !errors.Is(err, partitioner.ErrNoPartitions) {
			t.Errorf("Partition(k, %d) error = %v; want ErrNoPartitions", n, err)
		}
	}
}

func TestPartitionProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.SliceOf(rapid.Byte()).Draw(t, "key")
		n := rapid.Int32Range(1, 10000).Draw(t, "numPartitions")
		p, err := partitioner.Partition(key, n)
		if err != nil {
			t.Fatalf("key %x among %d partitions: %v", key, n, err)
		}
		if p < 0 || p >= n {
			t.Fatalf("key %x went to partition %d of a topic with %d partitions", key, p, n)
		}
		again, _ := partitioner.Partition(append([]byte(nil), key...), n)
		if again != p {
			t.Fatalf("key %x went to partition %d, then to %d: the same key must always land on the same partition", key, p, again)
		}
	})
}
