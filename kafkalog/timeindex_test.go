package kafkalog

import (
	"encoding/binary"
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/vfs"
)

func newTimeIndex(t *testing.T, base int64, maxEntries int) (*TimeIndex, *vfs.MemFS) {
	t.Helper()
	fsys := vfs.NewMem()
	f, err := fsys.Create(SegmentFileName(base, TimeIndexSuffix))
	require.NoError(t, err)
	ti, err := OpenTimeIndex(f, base, maxEntries*TimeIndexEntrySize, true)
	require.NoError(t, err)
	return ti, fsys
}

// appendTimeEntries is Kafka's TimeIndexTest helper: (10·i, 45+10·i) for i = 1..n.
func appendTimeEntries(t *testing.T, ti *TimeIndex, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		require.NoError(t, ti.MaybeAppend(int64(10*i), int64(45+10*i), false))
	}
}

func TestTimeIndexKnownAnswers(t *testing.T) {
	t.Run("E1 empty lookup", func(t *testing.T) {
		ti, _ := newTimeIndex(t, 45, 30)
		require.Equal(t, TimestampOffset{-1, 45}, ti.Lookup(100))
	})
	t.Run("E2 to E5 lookups and entries", func(t *testing.T) {
		ti, _ := newTimeIndex(t, 45, 30)
		appendTimeEntries(t, ti, 29)
		tests := []struct {
			ts   int64
			want TimestampOffset
		}{{9, TimestampOffset{-1, 45}}, {25, TimestampOffset{20, 65}}, {30, TimestampOffset{30, 75}}, {1000, TimestampOffset{290, 335}}}
		for _, tc := range tests {
			if diff := cmp.Diff(tc.want, ti.Lookup(tc.ts)); diff != "" {
				t.Errorf("Lookup(%d) (-want +got):\n%s", tc.ts, diff)
			}
		}
		got := []TimestampOffset{ti.Entry(0), ti.Entry(1), ti.Entry(2), ti.Entry(3)}
		if diff := cmp.Diff([]TimestampOffset{{10, 55}, {20, 65}, {30, 75}, {40, 85}}, got); diff != "" {
			t.Errorf("entries 0..3 (-want +got):\n%s", diff)
		}
	})
	t.Run("E6 truncate to the first entry's offset empties", func(t *testing.T) {
		ti, _ := newTimeIndex(t, 45, 30)
		appendTimeEntries(t, ti, 29)
		require.NoError(t, ti.TruncateTo(55))
		require.Equal(t, 0, ti.Entries())
	})
	t.Run("truncate drops every entry of a repeated offset", func(t *testing.T) {
		ti, _ := newTimeIndex(t, 0, 30)
		for _, e := range []TimestampOffset{{0, 0}, {1, 1}, {2, 1}, {3, 1}} {
			require.NoError(t, ti.MaybeAppend(e.Timestamp, e.Offset, false))
		}
		require.NoError(t, ti.TruncateTo(1))
		got := make([]TimestampOffset, ti.Entries())
		for i := range got {
			got[i] = ti.Entry(i)
		}
		if diff := cmp.Diff([]TimestampOffset{{0, 0}}, got); diff != "" {
			t.Errorf("entries after TruncateTo(1) (-want +got):\n%s", diff)
		}
	})
	t.Run("E7 E8 the reserved last slot", func(t *testing.T) {
		ti, _ := newTimeIndex(t, 45, 30)
		require.False(t, ti.IsFull())
		appendTimeEntries(t, ti, 29)
		require.True(t, ti.IsFull(), "29 of 30 entries leaves only the reserved slot")
		if err := ti.MaybeAppend(10000, 1000, false); !errors.Is(err, ErrIndexFull) {
			t.Errorf("append to a full time index gave %v, want ErrIndexFull", err)
		}
		if err := ti.MaybeAppend(10000, 280, true); !errors.Is(err, ErrInvalidOffset) {
			t.Errorf("append of offset 280 after 335 gave %v, want ErrInvalidOffset", err)
		}
		require.NoError(t, ti.MaybeAppend(10000, 1000, true))
		require.Equal(t, 30, ti.Entries())
		if err := ti.MaybeAppend(20000, 2000, true); !errors.Is(err, ErrIndexFull) {
			t.Errorf("append with no slot left at all gave %v, want ErrIndexFull", err)
		}
	})
	t.Run("E9 last entry", func(t *testing.T) {
		ti, _ := newTimeIndex(t, 45, 30)
		require.Equal(t, TimestampOffset{-1, 45}, ti.LastEntry())
		require.NoError(t, ti.MaybeAppend(1, 46, false))
		require.Equal(t, TimestampOffset{1, 46}, ti.LastEntry())
	})
	t.Run("E10 resize", func(t *testing.T) {
		ti, _ := newTimeIndex(t, 45, 30)
		for _, tc := range []struct {
			size int
			want bool
		}{{30 * 12, false}, {15 * 12, true}, {60 * 12, true}} {
			got, err := ti.Resize(tc.size)
			require.NoError(t, err)
			require.Equal(t, tc.want, got, "Resize(%d)", tc.size)
		}
	})
	t.Run("equal or smaller timestamps", func(t *testing.T) {
		ti, _ := newTimeIndex(t, 0, 30)
		require.NoError(t, ti.MaybeAppend(100, 5, false))
		require.NoError(t, ti.MaybeAppend(100, 6, false))
		require.Equal(t, 1, ti.Entries(), "an equal timestamp is skipped")
		if err := ti.MaybeAppend(99, 7, false); !errors.Is(err, ErrInvalidTimestamp) {
			t.Errorf("a smaller timestamp gave %v, want ErrInvalidTimestamp", err)
		}
		empty, _ := newTimeIndex(t, 0, 30)
		require.NoError(t, empty.MaybeAppend(NoTimestamp, 0, false))
		require.Equal(t, 0, empty.Entries(), "a batch without timestamps adds nothing")
	})
}

func TestTimeIndexSanityCheck(t *testing.T) {
	entry := func(ts int64, rel int32) []byte {
		b := make([]byte, 12)
		for i := 0; i < 8; i++ {
			b[i] = byte(ts >> (56 - 8*i))
		}
		b[8], b[9], b[10], b[11] = byte(rel>>24), byte(rel>>16), byte(rel>>8), byte(rel)
		return b
	}
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name  string
		bytes []byte
		base  int64
		ok    bool
	}{
		{"empty", nil, 0, true},
		{"two entries", cat(entry(10, 1), entry(20, 2)), 0, true},
		{"E11 last timestamp below first", cat(entry(20, 1), entry(10, 2)), 0, false},
		{"E11 last offset below base", cat(entry(20, -5)), 3, false},
		{"E11 length not a multiple of 12", cat(entry(20, 1), []byte{0}), 0, false},
		{"zero padding after entries", cat(entry(1587580883405, 35), make([]byte, 24)), 0, false},
		{"offsets going down in the middle", cat(entry(10, 5), entry(20, 3), entry(30, 6)), 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			f, err := fsys.Create("x.timeindex")
			require.NoError(t, err)
			_, err = f.WriteAt(tc.bytes, 0)
			require.NoError(t, err)
			ti, err := OpenTimeIndex(f, tc.base, 0, false)
			require.NoError(t, err)
			if err := ti.SanityCheck(); (err == nil) != tc.ok {
				t.Fatalf("SanityCheck = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestTimeIndexRealFixtures(t *testing.T) {
	tests := []struct {
		file        string
		entries     int
		first, last TimestampOffset
	}{
		{"volodymyrzee-kafka/__consumer_offsets-12/00000000000000000000.timeindex", 11,
			TimestampOffset{1587580883405, 35}, TimestampOffset{1587581641137, 469}},
		{"niloufar-ldi-poc-kraft/__consumer_offsets-6/00000000000000000000.timeindex", 3,
			TimestampOffset{1769791783399, 3}, TimestampOffset{1769793578176, 12}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(realFile(t, tc.file))
			require.NoError(t, err)
			got, err := DecodeTimeIndex(b, 0)
			require.NoError(t, err)
			require.Len(t, got, tc.entries)
			if diff := cmp.Diff([]TimestampOffset{tc.first, tc.last}, []TimestampOffset{got[0], got[len(got)-1]}); diff != "" {
				t.Errorf("first and last entries (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTimeIndexMaybeAppendOnFullIndex: with skipFullCheck (the final entry on
// roll and close) a full index still skips an entry that is not newer, as Kafka's
// TimeIndex.maybeAppend does; only an entry that needs a slot fails.
func TestTimeIndexMaybeAppendOnFullIndex(t *testing.T) {
	tests := []struct {
		name          string
		timestamp     int64
		offset        int64
		skipFullCheck bool
		wantErr       error
	}{
		{"same timestamp, skipFullCheck: skipped", 200, 120, true, nil},
		{"older offset and timestamp, skipFullCheck: refused as Kafka does", 150, 105, true, ErrInvalidOffset},
		{"newer timestamp, skipFullCheck: no slot left", 300, 130, true, ErrIndexFull},
		{"same timestamp, no skipFullCheck: full", 200, 120, false, ErrIndexFull},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			f, err := fsys.Create("x.timeindex")
			require.NoError(t, err)
			ti, err := OpenTimeIndex(f, 100, 2*TimeIndexEntrySize, true)
			require.NoError(t, err)
			require.NoError(t, ti.MaybeAppend(100, 110, false))
			require.NoError(t, ti.MaybeAppend(200, 120, true)) // the reserved last slot
			err = ti.MaybeAppend(tc.timestamp, tc.offset, tc.skipFullCheck)
			if !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) {
				t.Fatalf("MaybeAppend(%d, %d, %v) on a full index = %v, want %v", tc.timestamp, tc.offset, tc.skipFullCheck, err, tc.wantErr)
			}
			want := []TimestampOffset{{100, 110}, {200, 120}}
			got := []TimestampOffset{ti.Entry(0), ti.Entry(1)}
			if diff := cmp.Diff(want, got); diff != "" || ti.Entries() != 2 {
				t.Errorf("entries after the refused or skipped append (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTimeIndexModel checks MaybeAppend, Lookup, TruncateTo and trim-and-reopen
// against a slice.
func TestTimeIndexModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		base := rapid.Int64Range(0, 1<<40).Draw(rt, "baseOffset")
		maxEntries := rapid.IntRange(2, 30).Draw(rt, "maxEntries")
		fsys := vfs.NewMem()
		name := SegmentFileName(base, TimeIndexSuffix)
		f, err := fsys.Create(name)
		require.NoError(rt, err)
		ti, err := OpenTimeIndex(f, base, maxEntries*12, true)
		require.NoError(rt, err)
		var model []TimestampOffset
		last := func() TimestampOffset {
			if len(model) == 0 {
				return TimestampOffset{-1, base}
			}
			return model[len(model)-1]
		}
		for i, n := 0, rapid.IntRange(1, 50).Draw(rt, "steps"); i < n; i++ {
			switch rapid.IntRange(0, 4).Draw(rt, "action") {
			case 0:
				ts := last().Timestamp + rapid.Int64Range(0, 100).Draw(rt, "timestampGap")
				off := last().Offset + rapid.Int64Range(0, 20).Draw(rt, "offsetGap")
				skip := rapid.Bool().Draw(rt, "skipFullCheck")
				err := ti.MaybeAppend(ts, off, skip)
				// skipFullCheck lets the entry take the reserved last slot, and an
				// entry that would be skipped is skipped even on a full index (Kafka).
				full := (!skip && len(model) >= maxEntries-1) || (ts > last().Timestamp && len(model) >= maxEntries)
				switch {
				case full:
					if !errors.Is(err, ErrIndexFull) {
						rt.Fatalf("append (%d, %d) with %d of %d entries (skip %v) gave %v, want ErrIndexFull", ts, off, len(model), maxEntries, skip, err)
					}
				case err != nil:
					rt.Fatalf("append (%d, %d) after %v failed: %v", ts, off, model, err)
				case ts > last().Timestamp:
					model = append(model, TimestampOffset{ts, off})
				}
			case 1:
				ts := rapid.Int64Range(-2, 3000).Draw(rt, "lookupTimestamp")
				want := TimestampOffset{-1, base}
				for _, e := range model {
					if e.Timestamp <= ts {
						want = e
					}
				}
				if got := ti.Lookup(ts); got != want {
					rt.Fatalf("Lookup(%d) on %v gave %v, want %v", ts, model, got, want)
				}
			case 2:
				to := base + rapid.Int64Range(0, 500).Draw(rt, "truncateTo")
				require.NoError(rt, ti.TruncateTo(to))
				k := 0
				for k < len(model) && model[k].Offset < to {
					k++
				}
				model = model[:k]
			case 3:
				require.NoError(rt, ti.Close())
				f, err := fsys.OpenReadWrite(name)
				require.NoError(rt, err)
				ti, err = OpenTimeIndex(f, base, maxEntries*12, true)
				require.NoError(rt, err)
				require.NoError(rt, ti.SanityCheck())
			case 4:
				require.NoError(rt, ti.Sync())
				checkIndexFileWritten(rt, fsys, name, TimeIndexEntrySize, encodeTimeEntries(model, base), true)
			}
			checkIndexFileWritten(rt, fsys, name, TimeIndexEntrySize, encodeTimeEntries(model, base), false)
			if ti.Entries() != len(model) {
				rt.Fatalf("time index holds %d entries, model %v", ti.Entries(), model)
			}
			for j, e := range model {
				if ti.Entry(j) != e {
					rt.Fatalf("entry %d is %v, model says %v", j, ti.Entry(j), e)
				}
			}
		}
	})
}

func FuzzDecodeTimeIndex(f *testing.F) {
	f.Add([]byte{}, int64(0))
	f.Add([]byte{0, 0, 1, 0x71, 0xa4, 0x5d, 0x8d, 0xcd, 0, 0, 0, 35}, int64(0))
	f.Add(make([]byte, 25), int64(7))
	f.Fuzz(func(t *testing.T, b []byte, base int64) {
		entries, err := DecodeTimeIndex(b, base)
		if len(entries) != len(b)/12 || (err != nil) != (len(b)%12 != 0) {
			t.Fatalf("%d bytes gave %d entries and error %v", len(b), len(entries), err)
		}
		fsys := vfs.NewMem()
		fl, ferr := fsys.Create("f.timeindex")
		require.NoError(t, ferr)
		_, ferr = fl.WriteAt(b, 0)
		require.NoError(t, ferr)
		ti, ferr := OpenTimeIndex(fl, base, 1<<16, true)
		require.NoError(t, ferr)
		if ti.SanityCheck() == nil {
			for i := 1; i < len(entries); i++ {
				if entries[i].Timestamp < entries[i-1].Timestamp {
					t.Fatalf("SanityCheck passed timestamps going down: %v", entries)
				}
			}
		}
		ti.Lookup(12345)
		_ = ti.TruncateTo(base + 3)
	})
}

func encodeTimeEntries(es []TimestampOffset, base int64) [][]byte {
	out := make([][]byte, len(es))
	for i, e := range es {
		out[i] = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint64(nil, uint64(e.Timestamp)), uint32(e.Offset-base))
	}
	return out
}
