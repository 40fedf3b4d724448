package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/vfs"
)

// newOffsetIndex opens a fresh writable offset index in a MemFS.
func newOffsetIndex(t *testing.T, base int64, maxEntries int) (*OffsetIndex, *vfs.MemFS) {
	t.Helper()
	fsys := vfs.NewMem()
	f, err := fsys.Create(SegmentFileName(base, IndexSuffix))
	require.NoError(t, err)
	ix, err := OpenOffsetIndex(f, base, maxEntries*OffsetIndexEntrySize, true)
	require.NoError(t, err)
	return ix, fsys
}

func TestOffsetIndexKnownAnswers(t *testing.T) {
	t.Run("D1 empty lookup gives the base", func(t *testing.T) {
		ix, _ := newOffsetIndex(t, 45, 30)
		if diff := cmp.Diff(OffsetPosition{45, 0}, ix.Lookup(92)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("D2 D3 exact and in-between lookups", func(t *testing.T) {
		ix, _ := newOffsetIndex(t, 45, 30)
		entries := []OffsetPosition{{47, 10}, {52, 31}, {60, 77}, {61, 90}, {75, 200}}
		for _, e := range entries {
			require.NoError(t, ix.Append(e.Offset, e.Position))
		}
		for _, e := range entries {
			if diff := cmp.Diff(e, ix.Lookup(e.Offset)); diff != "" {
				t.Errorf("Lookup(%d) (-want +got):\n%s", e.Offset, diff)
			}
		}
		tests := []struct {
			target int64
			want   OffsetPosition
		}{{46, OffsetPosition{45, 0}}, {45, OffsetPosition{45, 0}}, {48, OffsetPosition{47, 10}}, {59, OffsetPosition{52, 31}}, {74, OffsetPosition{61, 90}}, {1000, OffsetPosition{75, 200}}}
		for _, tc := range tests {
			if diff := cmp.Diff(tc.want, ix.Lookup(tc.target)); diff != "" {
				t.Errorf("Lookup(%d) (-want +got):\n%s", tc.target, diff)
			}
		}
	})
	t.Run("D4 the 31st append fails full", func(t *testing.T) {
		ix, _ := newOffsetIndex(t, 45, 30)
		for o := int64(46); o <= 75; o++ {
			require.NoError(t, ix.Append(o, o-45))
		}
		require.True(t, ix.IsFull())
		err := ix.Append(76, 31)
		if !errors.Is(err, ErrIndexFull) {
			t.Fatalf("appending to a full index of 30 entries gave %v, want ErrIndexFull", err)
		}
	})
	t.Run("D5 offsets must increase", func(t *testing.T) {
		ix, _ := newOffsetIndex(t, 45, 30)
		require.NoError(t, ix.Append(51, 0))
		for _, o := range []int64{50, 51} {
			if err := ix.Append(o, 1); !errors.Is(err, ErrInvalidOffset) {
				t.Errorf("Append(%d) after 51 gave %v, want ErrInvalidOffset", o, err)
			}
		}
		if err := ix.Append(45+1<<31, 1); !errors.Is(err, ErrInvalidOffset) {
			t.Errorf("relative offset 2^31 gave %v, want ErrInvalidOffset", err)
		}
	})
	t.Run("D6 fetch upper bound", func(t *testing.T) {
		ix, _ := newOffsetIndex(t, 45, 30)
		type res struct {
			E  OffsetPosition
			OK bool
		}
		e, ok := ix.FetchUpperBoundOffset(0, 5)
		require.False(t, ok, "empty index gave %v", e)
		for _, p := range []OffsetPosition{{45, 0}, {46, 10}, {47, 23}, {48, 37}} {
			require.NoError(t, ix.Append(p.Offset, p.Position))
		}
		tests := []struct {
			start, size int64
			want        res
		}{
			{0, 5, res{OffsetPosition{46, 10}, true}},
			{0, 10, res{OffsetPosition{46, 10}, true}},
			{0, 23, res{OffsetPosition{47, 23}, true}},
			{0, 22, res{OffsetPosition{47, 23}, true}},
			{10, 24, res{OffsetPosition{48, 37}, true}},
			{37, 1, res{}},
			{0, 200, res{}},
			{10, 200, res{}},
		}
		for _, tc := range tests {
			var got res
			got.E, got.OK = ix.FetchUpperBoundOffset(tc.start, tc.size)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("FetchUpperBoundOffset(%d, %d) (-want +got):\n%s", tc.start, tc.size, diff)
			}
		}
	})
	t.Run("D7 truncation", func(t *testing.T) {
		ix, _ := newOffsetIndex(t, 0, 10)
		for i := int64(1); i < 10; i++ {
			require.NoError(t, ix.Append(i, i))
		}
		step := func(truncate int64, wantLookup10 OffsetPosition, wantLast int64) {
			t.Helper()
			require.NoError(t, ix.TruncateTo(truncate))
			if diff := cmp.Diff(wantLookup10, ix.Lookup(10)); diff != "" {
				t.Errorf("after TruncateTo(%d), Lookup(10) (-want +got):\n%s", truncate, diff)
			}
			if ix.LastOffset() != wantLast {
				t.Errorf("after TruncateTo(%d), last offset %d, want %d", truncate, ix.LastOffset(), wantLast)
			}
		}
		step(12, OffsetPosition{9, 9}, 9)
		require.NoError(t, ix.Append(10, 10))
		step(10, OffsetPosition{9, 9}, 9)
		require.NoError(t, ix.Append(10, 10))
		step(9, OffsetPosition{8, 8}, 8)
		require.NoError(t, ix.Append(9, 9))
		step(5, OffsetPosition{4, 4}, 4)
		require.NoError(t, ix.Reset())
		require.Equal(t, 0, ix.Entries())
	})
	t.Run("D8 reopen read-only", func(t *testing.T) {
		ix, fsys := newOffsetIndex(t, 45, 30)
		require.NoError(t, ix.Append(46, 10))
		require.NoError(t, ix.Append(50, 40))
		require.NoError(t, ix.Close())
		f, err := fsys.Open(SegmentFileName(45, IndexSuffix))
		require.NoError(t, err)
		ro, err := OpenOffsetIndex(f, 45, 30*8, false)
		require.NoError(t, err)
		if diff := cmp.Diff(OffsetPosition{46, 10}, ro.Lookup(47)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		require.Equal(t, int64(50), ro.LastOffset())
		require.Equal(t, 2, ro.Entries())
		require.True(t, ro.IsFull(), "a read-only index has no room")
	})
	t.Run("D9 last offset equal to base is sane", func(t *testing.T) {
		ix, _ := newOffsetIndex(t, 20, 30)
		require.NoError(t, ix.Append(20, 0))
		require.NoError(t, ix.SanityCheck())
	})
	t.Run("D10 entry out of range panics", func(t *testing.T) {
		ix, _ := newOffsetIndex(t, 20, 30)
		require.NoError(t, ix.Append(21, 0))
		require.Panics(t, func() { ix.Entry(1) })
		require.Equal(t, OffsetPosition{21, 0}, ix.Entry(0))
	})
}

func TestOffsetIndexFileLifecycle(t *testing.T) {
	ix, fsys := newOffsetIndex(t, 100, 30)
	name := SegmentFileName(100, IndexSuffix)
	size := func() int64 {
		st, err := fsys.Stat(name)
		require.NoError(t, err)
		return st.Size()
	}
	require.Equal(t, int64(240), size(), "a new writable index is preallocated to maxIndexSize")
	require.NoError(t, ix.Append(101, 0))
	require.NoError(t, ix.Append(150, 4096))
	require.NoError(t, ix.TrimToValidSize())
	require.Equal(t, int64(16), size(), "trimmed to its two entries")
	require.True(t, ix.IsFull())
	changed, err := ix.Resize(30 * 8)
	require.NoError(t, err)
	require.True(t, changed)
	require.Equal(t, int64(240), size())
	changed, err = ix.Resize(30*8 + 5)
	require.NoError(t, err)
	require.False(t, changed, "rounded down to the same length")
	_, err = ix.Resize(8)
	require.ErrorIs(t, err, ErrIndexFull)
	require.NoError(t, ix.Reset())
	require.Equal(t, int64(240), size())
	require.NoError(t, ix.Close())
	require.Equal(t, int64(0), size(), "an empty index closes to zero bytes")
}

// TestOffsetIndexZeroPadded shows the trap of a preallocated index left untrimmed
// by a crash: every 8 zero bytes read as an entry (base, 0). Kafka's own sanity
// check passes such a file; ours fails it on the order of the entries.
func TestOffsetIndexZeroPadded(t *testing.T) {
	fsys := vfs.NewMem()
	name := SegmentFileName(0, IndexSuffix)
	f, err := fsys.Create(name)
	require.NoError(t, err)
	ix, err := OpenOffsetIndex(f, 0, 80, true)
	require.NoError(t, err)
	require.NoError(t, ix.Append(37, 4295))
	require.NoError(t, ix.Append(82, 8540))
	fsys.Crash() // no Close: the file stays 80 bytes, 6 of its 10 slots zero

	f, err = fsys.Open(name)
	require.NoError(t, err)
	ro, err := OpenOffsetIndex(f, 0, 80, false)
	require.NoError(t, err)
	require.Equal(t, 10, ro.Entries(), "Kafka takes every 8 bytes of an existing file as an entry")
	if got := ro.Lookup(100); got != (OffsetPosition{0, 0}) {
		t.Errorf("a lookup past the real entries lands in the zero padding: got %v", got)
	}
	if err := ro.SanityCheck(); !errors.Is(err, ErrCorruptIndex) {
		t.Fatalf("a zero-padded index passed SanityCheck (err %v): recovery would trust it", err)
	}
}

func TestOffsetIndexSanityCheck(t *testing.T) {
	tests := []struct {
		name  string
		bytes []byte
		base  int64
		ok    bool
	}{
		{"empty", nil, 0, true},
		{"one entry", []byte{0, 0, 0, 5, 0, 0, 0, 9}, 0, true},
		{"length not a multiple of 8", []byte{0, 0, 0, 5, 0, 0, 0, 9, 1}, 0, false},
		{"last offset below base", []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 9}, 10, false},
		{"offsets going down", []byte{0, 0, 0, 5, 0, 0, 0, 9, 0, 0, 0, 4, 0, 0, 0, 10}, 0, false},
		{"positions going down", []byte{0, 0, 0, 5, 0, 0, 0, 9, 0, 0, 0, 6, 0, 0, 0, 8}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			f, err := fsys.Create("x.index")
			require.NoError(t, err)
			_, err = f.WriteAt(tc.bytes, 0)
			require.NoError(t, err)
			ix, err := OpenOffsetIndex(f, tc.base, 1024, true)
			require.NoError(t, err)
			if err := ix.SanityCheck(); (err == nil) != tc.ok {
				t.Fatalf("SanityCheck of %x with base %d = %v, want ok=%v", tc.bytes, tc.base, err, tc.ok)
			}
		})
	}
}

func TestOffsetIndexRealFixtures(t *testing.T) {
	tests := []struct {
		file               string
		entries            int
		first, second, end OffsetPosition
	}{
		{"volodymyrzee-kafka/__consumer_offsets-12/00000000000000000000.index", 10,
			OffsetPosition{37, 4295}, OffsetPosition{82, 8540}, OffsetPosition{438, 42464}},
		{"niloufar-ldi-poc-kraft/__consumer_offsets-6/00000000000000000000.index", 2,
			OffsetPosition{3, 4730}, OffsetPosition{7, 9571}, OffsetPosition{7, 9571}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(realFile(t, tc.file))
			require.NoError(t, err)
			got, err := DecodeOffsetIndex(b, 0)
			require.NoError(t, err)
			require.Len(t, got, tc.entries)
			if diff := cmp.Diff([]OffsetPosition{tc.first, tc.second, tc.end}, []OffsetPosition{got[0], got[1], got[len(got)-1]}); diff != "" {
				t.Errorf("first, second, last entries (-want +got):\n%s", diff)
			}
			fsys := vfs.NewMem()
			f, err := fsys.Create("i")
			require.NoError(t, err)
			_, err = f.WriteAt(b, 0)
			require.NoError(t, err)
			ix, err := OpenOffsetIndex(f, 0, len(b), false)
			require.NoError(t, err)
			require.NoError(t, ix.SanityCheck())
			if tc.entries == 10 {
				require.Equal(t, OffsetPosition{37, 4295}, ix.Lookup(40), "lookup(40) starts the scan at the batch before 38..40")
				require.Equal(t, OffsetPosition{0, 0}, ix.Lookup(10))
			}
		})
	}
}

// TestOffsetIndexModel runs random appends, lookups, truncations, trims and
// reopens against a sorted slice of entries.
func TestOffsetIndexModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		base := rapid.Int64Range(0, 1<<40).Draw(rt, "baseOffset")
		maxEntries := rapid.IntRange(1, 40).Draw(rt, "maxEntries")
		fsys := vfs.NewMem()
		name := SegmentFileName(base, IndexSuffix)
		f, err := fsys.Create(name)
		if err != nil {
			rt.Fatal(err)
		}
		ix, err := OpenOffsetIndex(f, base, maxEntries*8, true)
		if err != nil {
			rt.Fatal(err)
		}
		var model []OffsetPosition
		lastOffset := func() int64 {
			if len(model) == 0 {
				return base - 1
			}
			return model[len(model)-1].Offset
		}
		steps := rapid.IntRange(1, 60).Draw(rt, "steps")
		for i := 0; i < steps; i++ {
			switch rapid.IntRange(0, 6).Draw(rt, "action") {
			case 0:
				off := lastOffset() + rapid.Int64Range(1, 50).Draw(rt, "offsetGap")
				pos := int64(0)
				if len(model) > 0 {
					pos = model[len(model)-1].Position
				}
				pos += rapid.Int64Range(0, 5000).Draw(rt, "positionGap")
				err := ix.Append(off, pos)
				if len(model) >= maxEntries {
					if !errors.Is(err, ErrIndexFull) {
						rt.Fatalf("appending to a full index of %d entries gave %v", maxEntries, err)
					}
					continue
				}
				if err != nil {
					rt.Fatalf("append of (%d, %d) after %v failed: %v", off, pos, model, err)
				}
				model = append(model, OffsetPosition{off, pos})
			case 1:
				target := base + rapid.Int64Range(-5, 2000).Draw(rt, "lookupTarget")
				want := OffsetPosition{base, 0}
				for _, e := range model {
					if e.Offset <= target {
						want = e
					}
				}
				if got := ix.Lookup(target); got != want {
					rt.Fatalf("Lookup(%d) on %v gave %v, want the largest entry at or below it, %v", target, model, got, want)
				}
			case 2:
				to := base + rapid.Int64Range(0, 2000).Draw(rt, "truncateTo")
				require.NoError(rt, ix.TruncateTo(to))
				k := sort.Search(len(model), func(i int) bool { return model[i].Offset >= to })
				model = model[:k]
			case 3:
				require.NoError(rt, ix.Close())
				f, err := fsys.OpenReadWrite(name)
				require.NoError(rt, err)
				ix, err = OpenOffsetIndex(f, base, maxEntries*8, true)
				require.NoError(rt, err)
				require.NoError(rt, ix.SanityCheck())
			case 5:
				// A crash before the index is trimmed: reopened, every slot of the
				// preallocated file reads as an entry. SanityCheck must refuse it
				// (unless the file is genuinely full, or one zero slot that reads as
				// a legitimate (base, 0) entry), and recovery rebuilds it.
				fsys.Crash()
				f, err := fsys.OpenReadWrite(name)
				require.NoError(rt, err)
				ix, err = OpenOffsetIndex(f, base, maxEntries*8, true)
				require.NoError(rt, err)
				ambiguous := len(model) == maxEntries || (len(model) == 0 && maxEntries == 1)
				if err := ix.SanityCheck(); err == nil && !ambiguous {
					rt.Fatalf("after a crash the untrimmed index %v of %d slots passed SanityCheck with %d entries", model, maxEntries, ix.Entries())
				}
				require.NoError(rt, ix.Reset())
				for _, e := range model {
					require.NoError(rt, ix.Append(e.Offset, e.Position))
				}
			case 6:
				require.NoError(rt, ix.Sync())
				checkIndexFileWritten(rt, fsys, name, OffsetIndexEntrySize, encodeOffsetEntries(model, base), true)
			case 4:
				// An offset not above the last entry (or below the base) is refused.
				if len(model) < maxEntries {
					if err := ix.Append(lastOffset(), 0); !errors.Is(err, ErrInvalidOffset) {
						rt.Fatalf("appending offset %d after %v gave %v, want ErrInvalidOffset", lastOffset(), model, err)
					}
				}
			}
			checkIndexFileWritten(rt, fsys, name, OffsetIndexEntrySize, encodeOffsetEntries(model, base), false)
			if ix.Entries() != len(model) {
				rt.Fatalf("index holds %d entries, model %d: %v", ix.Entries(), len(model), model)
			}
			for j, e := range model {
				if got := ix.Entry(j); got != e {
					rt.Fatalf("entry %d is %v, model says %v", j, got, e)
				}
			}
		}
	})
}

// TestOffsetIndexLookupWarmAndCold checks Lookup on indexes larger than the warm
// tail (1024 entries), with targets on both sides of the warm boundary, against a
// plain search of the entries.
func TestOffsetIndexLookupWarmAndCold(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		base := rapid.Int64Range(0, 1<<40).Draw(rt, "baseOffset")
		n := rapid.IntRange(1, 3000).Draw(rt, "entries")
		f, err := vfs.NewMem().Create("x.index")
		require.NoError(rt, err)
		ix, err := OpenOffsetIndex(f, base, n*OffsetIndexEntrySize, true)
		require.NoError(rt, err)
		entries := make([]OffsetPosition, n)
		off := base + rapid.Int64Range(0, 3).Draw(rt, "firstOffset")
		for i := range entries {
			entries[i] = OffsetPosition{Offset: off, Position: int64(i) * 100}
			require.NoError(rt, ix.Append(off, int64(i)*100))
			off += rapid.Int64Range(1, 3).Draw(rt, "offsetGap")
		}
		boundary := entries[max(0, n-1-warmIndexBytes/OffsetIndexEntrySize)].Offset
		for k := 0; k < 20; k++ {
			target := rapid.OneOf(
				rapid.Int64Range(base-2, off+2),
				rapid.Int64Range(boundary-2, boundary+2),
			).Draw(rt, "target")
			want := OffsetPosition{Offset: base, Position: 0}
			if i := sort.Search(n, func(i int) bool { return entries[i].Offset > target }); i > 0 {
				want = entries[i-1]
			}
			if got := ix.Lookup(target); got != want {
				rt.Fatalf("Lookup(%d) in an index of %d entries (warm tail from offset %d) gave %v, want the largest entry at or below it, %v", target, n, boundary, got, want)
			}
		}
	})
}

func encodeOffsetEntries(es []OffsetPosition, base int64) [][]byte {
	out := make([][]byte, len(es))
	for i, e := range es {
		out[i] = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(e.Offset-base)), uint32(e.Position))
	}
	return out
}

func TestDecodeOffsetIndexTrailing(t *testing.T) {
	got, err := DecodeOffsetIndex([]byte{0, 0, 0, 1, 0, 0, 0, 2, 9, 9, 9}, 100)
	require.ErrorIs(t, err, ErrCorruptIndex)
	if diff := cmp.Diff([]OffsetPosition{{101, 2}}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzDecodeOffsetIndex(f *testing.F) {
	f.Add([]byte{}, int64(0))
	f.Add([]byte{0, 0, 0, 37, 0, 0, 0x10, 0xc7, 0, 0, 0, 82, 0, 0, 0x21, 0x5c}, int64(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, 0, 1}, int64(1<<62))
	f.Fuzz(func(t *testing.T, b []byte, base int64) {
		entries, err := DecodeOffsetIndex(b, base)
		if len(entries) != len(b)/8 {
			t.Fatalf("%d bytes decoded to %d entries", len(b), len(entries))
		}
		if (err != nil) != (len(b)%8 != 0) {
			t.Fatalf("%d bytes gave error %v", len(b), err)
		}
		fsys := vfs.NewMem()
		fl, ferr := fsys.Create("f.index")
		require.NoError(t, ferr)
		_, ferr = fl.WriteAt(b, 0)
		require.NoError(t, ferr)
		ix, ferr := OpenOffsetIndex(fl, base, 1<<16, true)
		require.NoError(t, ferr)
		if ix.SanityCheck() == nil && len(entries) > 1 {
			for i := 1; i < len(entries); i++ {
				if entries[i].Offset <= entries[i-1].Offset {
					t.Fatalf("SanityCheck passed entries out of order: %v", entries)
				}
			}
		}
		ix.Lookup(base + 10)
		ix.FetchUpperBoundOffset(0, 100)
	})
}

func ExampleDecodeOffsetIndex() {
	// The first two entries of volodymyrzee-kafka/__consumer_offsets-12's .index:
	// relative offset 37 at position 4295, 82 at 8540.
	b := []byte{0, 0, 0, 37, 0, 0, 0x10, 0xc7, 0, 0, 0, 82, 0, 0, 0x21, 0x5c}
	entries, err := DecodeOffsetIndex(b, 0)
	fmt.Println(entries, err)
	// Output: [{37 4295} {82 8540}] <nil>
}

func ExampleOffsetIndex_Lookup() {
	fsys := vfs.NewMem()
	f, _ := fsys.Create(SegmentFileName(100, IndexSuffix))
	ix, _ := OpenOffsetIndex(f, 100, 10*OffsetIndexEntrySize, true)
	_ = ix.Append(137, 4295)
	_ = ix.Append(182, 8540)
	fmt.Println(ix.Lookup(99), ix.Lookup(140), ix.Lookup(182), ix.Lookup(1000))
	// Output: {100 0} {137 4295} {182 8540} {182 8540}
}

// BenchmarkOffsetIndexLookup compares Lookup (warm-section search, as Kafka)
// with a plain binary search over the same entries, for targets near the tail
// (caught-up readers) and spread over the whole index.
func BenchmarkOffsetIndexLookup(b *testing.B) {
	const n = 100_000
	fsys := vfs.NewMem()
	f, err := fsys.Create("b.index")
	require.NoError(b, err)
	ix, err := OpenOffsetIndex(f, 0, n*OffsetIndexEntrySize, true)
	require.NoError(b, err)
	plain := make([]OffsetPosition, 0, n)
	for i := int64(0); i < n; i++ {
		require.NoError(b, ix.Append(i*37+5, i*4096))
		plain = append(plain, OffsetPosition{i*37 + 5, i * 4096})
	}
	targets := map[string]func(i int) int64{
		"tail":   func(i int) int64 { return (n-1-int64(i%512))*37 + 9 },
		"spread": func(i int) int64 { return int64(i*7919%n)*37 + 9 },
	}
	for _, name := range []string{"tail", "spread"} {
		target := targets[name]
		b.Run(name+"/Lookup", func(b *testing.B) {
			var sink OffsetPosition
			for i := 0; i < b.N; i++ {
				sink = ix.Lookup(target(i))
			}
			_ = sink
		})
		b.Run(name+"/sort.Search", func(b *testing.B) {
			var sink OffsetPosition
			for i := 0; i < b.N; i++ {
				t := target(i)
				k := sort.Search(len(plain), func(j int) bool { return plain[j].Offset > t })
				if k > 0 {
					sink = plain[k-1]
				}
			}
			_ = sink
		})
	}
}
