package kafkalog

import (
	"flag"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

var (
	readStatsN    = flag.Int("readstats.n", 60, "random logs TestReadStatsFollowTheIndex reads")
	readStatsSeed = flag.Uint64("readstats.seed", 1, "seed of the first random log (replay one with -readstats.n=1)")
)

// modelBatch is one appended batch as the model of TestReadStatsFollowTheIndex
// keeps it: its offsets, its segment and its position there.
type modelBatch struct {
	base, last int64
	segment    int64
	pos, size  int64
}

// TestReadStatsFollowTheIndex: a producer appends batches of random sizes to a log
// with a random segment.bytes and index.interval.bytes, and a consumer reads at
// random offsets. What ReadStats counts for each read is what Kafka's read walks
// past, computed here from the appends alone: the index gets an entry (the
// append's last offset, its position) when more than index.interval.bytes were
// appended since the last one (LogSegment.append); a read looks up the largest
// entry at or below its offset and walks the batches from there whose last offset
// is below it, on to the next segment when the segment ends first.
func TestReadStatsFollowTheIndex(t *testing.T) {
	for i := range *readStatsN {
		seed := *readStatsSeed + uint64(i)
		if !t.Run("", func(t *testing.T) { readStatsCase(t, seed) }) {
			t.Logf("seed %d; replay: go test ./kafkalog -run TestReadStatsFollowTheIndex -readstats.seed=%d -readstats.n=1", seed, seed)
			return
		}
	}
}

func readStatsCase(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0))
	cfg := DefaultConfig()
	cfg.SegmentBytes = int64(1000 + rng.IntN(3000)) // above the largest batch drawn
	cfg.IndexIntervalBytes = int64(1 + rng.IntN(800))
	cfg.SegmentIndexBytes = 4096 // room for an entry per batch; the default 10 MiB is zeroed for each segment
	l, err := Open(vfs.NewMem(), testDir, cfg, 0)
	require.NoError(t, err)
	var batches []modelBatch
	entries := map[int64][][2]int64{} // segment base: (offset, position) entries
	sinceEntry := map[int64]int64{}
	next := int64(0)
	for range 20 + rng.IntN(80) {
		recs := make([]kv, 1+rng.IntN(12))
		for j := range recs {
			recs[j] = kv{value: string(make([]byte, rng.IntN(60)))}
		}
		raw := encodeBatch(0, 1000, recs...)
		_, err := l.AppendAsLeader(raw, 0, 1000)
		require.NoError(t, err, "seed %d", seed)
		segs := l.Segments()
		seg := segs[len(segs)-1].BaseOffset()
		b := modelBatch{base: next, last: next + int64(len(recs)) - 1, segment: seg, size: int64(len(raw))}
		if n := len(batches); n > 0 && batches[n-1].segment == seg {
			b.pos = batches[n-1].pos + batches[n-1].size
		}
		if sinceEntry[seg] > int64(cfg.IndexIntervalBytes) {
			entries[seg] = append(entries[seg], [2]int64{b.last, b.pos})
			sinceEntry[seg] = 0
		}
		sinceEntry[seg] += b.size
		batches = append(batches, b)
		next = b.last + 1
	}
	var want, got ReadStats
	for range 40 {
		offset := rng.Int64N(next + 1)
		before := l.ReadStats()
		out, err := l.Read(offset, 1)
		require.NoError(t, err, "seed %d: read at %d", seed, offset)
		after := l.ReadStats()
		got.Reads += after.Reads - before.Reads
		got.ScannedBatches += after.ScannedBatches - before.ScannedBatches
		got.ScannedBytes += after.ScannedBytes - before.ScannedBytes
		if offset == next {
			require.Empty(t, out, "seed %d: a read at the log end", seed)
			continue
		}
		want.Reads++
		walked, bytes := modelScan(batches, entries, offset)
		want.ScannedBatches += walked
		want.ScannedBytes += bytes
		if got != want {
			t.Fatalf("seed %d: after the read at %d (segment.bytes %d, index.interval.bytes %d) (-want +got):\n%s",
				seed, offset, cfg.SegmentBytes, cfg.IndexIntervalBytes, cmp.Diff(want, got))
		}
	}
}

// modelScan is what a read at offset walks past in the model: the batches of the
// segment holding offset from the index entry at or below it, up to the first
// whose last offset reaches it.
func modelScan(batches []modelBatch, entries map[int64][][2]int64, offset int64) (walked, bytes int64) {
	i := sort.Search(len(batches), func(i int) bool { return batches[i].last >= offset })
	seg := batches[i].segment
	start := int64(0)
	for _, e := range entries[seg] {
		if e[0] <= offset {
			start = e[1]
		}
	}
	for _, b := range batches {
		if b.segment == seg && b.pos >= start && b.pos < batches[i].pos {
			walked++
		}
	}
	return walked, batches[i].pos - start
}

// The reads a lookup part decides are counted by what the part answered: a
// lookup that always answers the start of the segment walks past every batch
// before the one read, a lookup like the reference's walks what the reference
// walks, and Locate counts as the read it stands for, pointing where it begins.
func TestReadStatsWithParts(t *testing.T) {
	oneSegment := func(p Parts) *Log {
		cfg := DefaultConfig()
		cfg.IndexIntervalBytes = 1
		l, err := Open(vfs.NewMem(), testDir, cfg, 0, WithParts(p))
		require.NoError(t, err)
		for i := range 10 {
			_, err := l.AppendAsLeader(encodeBatch(0, int64(i)*100, kv{value: "v"}), 0, int64(i)*100)
			require.NoError(t, err)
		}
		return l
	}
	ref := oneSegment(Parts{})
	fromStart := oneSegment(Parts{LookupIndex: func(_ []byte, _ int, base, _ int64) (int64, int32, bool) { return base, 0, true }})
	batchSize := ref.Segments()[0].Size() / 10
	for _, off := range []int64{0, 3, 9} {
		_, err := ref.Read(off, 1)
		require.NoError(t, err)
		_, err = fromStart.Read(off, 1)
		require.NoError(t, err)
	}
	_, err := ref.Read(10, 1) // the log end: no read
	require.NoError(t, err)
	// One-record batches with an index entry for every batch but the first: the
	// reference lands on the batch itself; from the start, offset N walks past N.
	want := []ReadStats{{Reads: 3}, {Reads: 3, ScannedBatches: 0 + 3 + 9, ScannedBytes: (0 + 3 + 9) * batchSize}}
	got := []ReadStats{ref.ReadStats(), fromStart.ReadStats()}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadStats of the reference and of a lookup that answers position 0 (-want +got):\n%s", diff)
	}
	at, ok, err := fromStart.Locate(7, 10)
	require.NoError(t, err)
	require.True(t, ok)
	lastOffset, last, lastOK := fromStart.LastRead()
	want2 := []any{FetchStart{Position: 7 * batchSize, BaseOffset: 7, LastOffset: 7}, int64(4), int64(19), int64(7), true}
	if diff := cmp.Diff(want2, []any{at, fromStart.ReadStats().Reads, fromStart.ReadStats().ScannedBatches, lastOffset, lastOK && last == at}); diff != "" {
		t.Errorf("Locate(7): where, reads, scanned batches, LastRead (-want +got):\n%s", diff)
	}
	if _, ok, _ := ref.Locate(5, 5); ok {
		t.Errorf("Locate(5) up to 5 found a batch: a read up to an offset returns nothing at it")
	}
	if off, _, ok := ref.LastRead(); off != 9 || !ok {
		t.Errorf("LastRead after reads at 0, 3, 9 and the log end = %d, %v; want 9, true (a read at the end reads nothing)", off, ok)
	}
}

// A fetch read on the reference path counts its scan without allocating: Locate
// allocates nothing, ReadUpTo only the bytes it returns.
func TestReadStatsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	cfg := DefaultConfig()
	cfg.IndexIntervalBytes = 500
	l, err := Open(vfs.NewMem(), testDir, cfg, 0)
	require.NoError(t, err)
	for i := range 200 {
		_, err := l.AppendAsLeader(encodeBatch(0, int64(i), kv{value: "some value"}, kv{value: "another"}), 0, int64(i))
		require.NoError(t, err)
	}
	if _, _, err := l.Locate(301, 400); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, ok, err := l.Locate(301, 400); err != nil || !ok {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Locate allocates %v times per read, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := l.ReadUpTo(301, 100, 400); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Errorf("ReadUpTo allocates %v times per read, want 1 (the bytes it returns)", n)
	}
}
