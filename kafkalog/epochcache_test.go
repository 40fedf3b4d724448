package kafkalog

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/vfs"
)

func cacheWith(t *testing.T, entries ...EpochEntry) *LeaderEpochCache {
	t.Helper()
	c := NewLeaderEpochCache(nil)
	for _, e := range entries {
		require.NoError(t, c.Assign(e.Epoch, e.StartOffset))
	}
	return c
}

type epochAndOffset struct {
	Epoch  int32
	Offset int64
}

func endOffset(c *LeaderEpochCache, epoch int32, leo int64) epochAndOffset {
	e, o := c.EndOffsetFor(epoch, leo)
	return epochAndOffset{e, o}
}

func TestLeaderEpochCacheKnownAnswers(t *testing.T) {
	t.Run("H1 epoch below the first", func(t *testing.T) {
		c := cacheWith(t, EpochEntry{5, 11}, EpochEntry{6, 12}, EpochEntry{7, 13})
		require.Equal(t, epochAndOffset{4, 11}, endOffset(c, 4, 100))
	})
	t.Run("H2 non-monotonic entry removed", func(t *testing.T) {
		c := cacheWith(t, EpochEntry{5, 11}, EpochEntry{6, 12}, EpochEntry{7, 13})
		require.NoError(t, c.Assign(7, 12))
		require.Equal(t, []EpochEntry{{5, 11}, {7, 12}}, c.Entries())
		require.Equal(t, epochAndOffset{5, 12}, endOffset(c, 5, 100))
		require.Equal(t, epochAndOffset{5, 12}, endOffset(c, 6, 100))
	})
	t.Run("H3 repeated epochs keep their first offset", func(t *testing.T) {
		c := cacheWith(t, EpochEntry{1, 11}, EpochEntry{1, 12}, EpochEntry{2, 13}, EpochEntry{2, 14}, EpochEntry{3, 15}, EpochEntry{3, 16})
		require.Equal(t, []EpochEntry{{1, 11}, {2, 13}, {3, 15}}, c.Entries())
		require.Equal(t, epochAndOffset{2, 15}, endOffset(c, 2, 17))
	})
	t.Run("H4 gaps in epochs", func(t *testing.T) {
		c := cacheWith(t, EpochEntry{0, 10}, EpochEntry{2, 13}, EpochEntry{4, 17})
		for _, tc := range []struct {
			epoch int32
			want  epochAndOffset
		}{{1, epochAndOffset{0, 13}}, {2, epochAndOffset{2, 17}}, {3, epochAndOffset{2, 17}}, {5, epochAndOffset{-1, -1}}, {-1, epochAndOffset{-1, -1}}} {
			if diff := cmp.Diff(tc.want, endOffset(c, tc.epoch, 30)); diff != "" {
				t.Errorf("EndOffsetFor(%d) (-want +got):\n%s", tc.epoch, diff)
			}
		}
	})
	t.Run("H5 same epoch later offset is a no-op", func(t *testing.T) {
		c := cacheWith(t, EpochEntry{2, 6}, EpochEntry{2, 7})
		require.Equal(t, []EpochEntry{{2, 6}}, c.Entries())
	})
	t.Run("H6 latest epoch ends at the log end", func(t *testing.T) {
		c := cacheWith(t, EpochEntry{2, 6})
		require.Equal(t, epochAndOffset{2, 42}, endOffset(c, 2, 42))
		require.Equal(t, epochAndOffset{-1, -1}, endOffset(NewLeaderEpochCache(nil), 0, 42))
	})
	truncations := []struct {
		name string
		op   func(*LeaderEpochCache) error
		want []EpochEntry
	}{
		{"H7 from end inclusive", func(c *LeaderEpochCache) error { return c.TruncateFromEnd(8) }, []EpochEntry{{2, 6}}},
		{"H8 from end", func(c *LeaderEpochCache) error { return c.TruncateFromEnd(9) }, []EpochEntry{{2, 6}, {3, 8}}},
		{"from end past everything", func(c *LeaderEpochCache) error { return c.TruncateFromEnd(12) }, []EpochEntry{{2, 6}, {3, 8}, {4, 11}}},
		{"from end to zero", func(c *LeaderEpochCache) error { return c.TruncateFromEnd(0) }, nil},
		{"H9 from start keeps the epoch", func(c *LeaderEpochCache) error { return c.TruncateFromStart(9) }, []EpochEntry{{3, 9}, {4, 11}}},
		{"H10 from start before first", func(c *LeaderEpochCache) error { return c.TruncateFromStart(5) }, []EpochEntry{{2, 6}, {3, 8}, {4, 11}}},
		{"H10 from start at first", func(c *LeaderEpochCache) error { return c.TruncateFromStart(6) }, []EpochEntry{{2, 6}, {3, 8}, {4, 11}}},
		{"from start at an entry", func(c *LeaderEpochCache) error { return c.TruncateFromStart(11) }, []EpochEntry{{4, 11}}},
		{"from start past everything", func(c *LeaderEpochCache) error { return c.TruncateFromStart(20) }, []EpochEntry{{4, 20}}},
	}
	for _, tc := range truncations {
		t.Run(tc.name, func(t *testing.T) {
			c := cacheWith(t, EpochEntry{2, 6}, EpochEntry{3, 8}, EpochEntry{4, 11})
			require.NoError(t, tc.op(c))
			if diff := cmp.Diff(tc.want, c.Entries()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("H11 epoch for offset", func(t *testing.T) {
		c := cacheWith(t, EpochEntry{0, 10}, EpochEntry{1, 20}, EpochEntry{5, 30})
		type res struct {
			Epoch int32
			OK    bool
		}
		for _, tc := range []struct {
			offset int64
			want   res
		}{{25, res{1, true}}, {20, res{1, true}}, {30, res{5, true}}, {50, res{5, true}}, {5, res{0, false}}, {10, res{0, true}}} {
			var got res
			got.Epoch, got.OK = c.EpochForOffset(tc.offset)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("EpochForOffset(%d) (-want +got):\n%s", tc.offset, diff)
			}
		}
	})
	t.Run("negative assignment refused", func(t *testing.T) {
		c := NewLeaderEpochCache(nil)
		require.ErrorIs(t, c.Assign(-1, 0), ErrInvalidEpoch)
		require.ErrorIs(t, c.Assign(0, -1), ErrInvalidEpoch)
	})
}

func TestEndOffsetForKIP101(t *testing.T) {
	c := cacheWith(t, EpochEntry{0, 10}, EpochEntry{2, 13}, EpochEntry{4, 17})
	for _, tc := range []struct {
		epoch int32
		want  int64
	}{{4, 30}, {1, 13}, {3, 17}, {2, 17}, {5, -1}} {
		require.Equal(t, tc.want, c.EndOffsetForKIP101(tc.epoch, 30), "epoch %d", tc.epoch)
	}
	c = cacheWith(t, EpochEntry{5, 11})
	require.Equal(t, int64(-1), c.EndOffsetForKIP101(4, 30), "before KIP-279 an epoch below the first was unknown")
	require.Equal(t, epochAndOffset{4, 11}, endOffset(c, 4, 30), "KIP-279 answers the first epoch's start")
}

func TestLeaderEpochCachePersists(t *testing.T) {
	// H12: every change lands in the file; a new instance reads the same entries.
	fsys := vfs.NewMem()
	require.NoError(t, fsys.MkdirAll("t-0", 0o755))
	path := "t-0/" + LeaderEpochCheckpointFile
	c, err := OpenLeaderEpochCache(fsys, path)
	require.NoError(t, err)
	require.Empty(t, c.Entries())
	require.NoError(t, c.Assign(0, 0))
	require.NoError(t, c.Assign(1, 5))
	b, err := readWholeFile(fsys, path)
	require.NoError(t, err)
	require.Equal(t, "0\n2\n0 0\n1 5\n", string(b))
	require.NoError(t, c.TruncateFromStart(3))
	again, err := OpenLeaderEpochCache(fsys, path)
	require.NoError(t, err)
	require.Equal(t, []EpochEntry{{0, 3}, {1, 5}}, again.Entries())
}

func TestDecodeLeaderEpochCheckpoint(t *testing.T) {
	got, err := DecodeLeaderEpochCheckpoint([]byte("0\n2\n0 0\n1 5\n"))
	require.NoError(t, err)
	require.Equal(t, []EpochEntry{{0, 0}, {1, 5}}, got, "J7")
	for _, bad := range []string{"0\n1\n0\n", "0\n1\n0 1 2\n", "0\n1\nx 1\n", "1\n0\n", "0\n2\n0 0\n"} {
		if _, err := DecodeLeaderEpochCheckpoint([]byte(bad)); !errors.Is(err, ErrCorruptCheckpoint) {
			t.Errorf("decoding %q gave %v, want ErrCorruptCheckpoint", bad, err)
		}
	}
}

func TestLeaderEpochCheckpointRealFiles(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []EpochEntry
	}{
		{"donaldy-kafka-2.7.1/myTopic-0/leader-epoch-checkpoint", []EpochEntry{{0, 38}}},
		{"volodymyrzee-kafka/__consumer_offsets-12/leader-epoch-checkpoint", []EpochEntry{{0, 0}}},
		{"niloufar-ldi-poc-kraft/__cluster_metadata-0/leader-epoch-checkpoint", []EpochEntry{{1, 0}}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(realFile(t, tc.file))
			require.NoError(t, err)
			got, err := DecodeLeaderEpochCheckpoint(b)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	// myTopic-0: all data expired; truncateFromStart(38) moved epoch 0 from 0 to 38.
	c := cacheWith(t, EpochEntry{0, 0})
	require.NoError(t, c.TruncateFromStart(38))
	require.Equal(t, "0\n1\n0 38\n", string(AppendLeaderEpochCheckpoint(nil, c.Entries())))
}

// TestLeaderEpochCacheProperties: whatever is assigned, entries stay strictly
// increasing in both epoch and start offset, and the last assignment that
// changed anything is the latest entry.
func TestLeaderEpochCacheProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := NewLeaderEpochCache(nil)
		for i, n := 0, rapid.IntRange(1, 30).Draw(rt, "steps"); i < n; i++ {
			switch rapid.IntRange(0, 2).Draw(rt, "action") {
			case 0:
				epoch := rapid.Int32Range(0, 10).Draw(rt, "epoch")
				start := rapid.Int64Range(0, 100).Draw(rt, "startOffset")
				before, _ := c.LatestEntry()
				require.NoError(rt, c.Assign(epoch, start))
				if last, _ := c.LatestEntry(); last != (EpochEntry{epoch, start}) && !(before.Epoch == epoch && start >= before.StartOffset) {
					rt.Fatalf("assigning epoch %d at %d left latest entry %v", epoch, start, last)
				}
			case 1:
				require.NoError(rt, c.TruncateFromEnd(rapid.Int64Range(0, 100).Draw(rt, "endOffset")))
			case 2:
				require.NoError(rt, c.TruncateFromStart(rapid.Int64Range(0, 100).Draw(rt, "logStartOffset")))
			}
			es := c.Entries()
			if c.Len() != len(es) {
				rt.Fatalf("Len %d, Entries %v", c.Len(), es)
			}
			for j := range es {
				if c.At(j) != es[j] {
					rt.Fatalf("At(%d) = %v, Entries %v", j, c.At(j), es)
				}
			}
			for j := 1; j < len(es); j++ {
				if es[j].Epoch <= es[j-1].Epoch || es[j].StartOffset <= es[j-1].StartOffset {
					rt.Fatalf("leader epoch cache not monotonic: %v", es)
				}
			}
		}
	})
}

func FuzzDecodeLeaderEpochCheckpoint(f *testing.F) {
	f.Add([]byte("0\n1\n0 38\n"))
	f.Add([]byte("0\n2\n0 0\n1 5\n"))
	f.Add([]byte("0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		es, err := DecodeLeaderEpochCheckpoint(b)
		if err != nil {
			if !errors.Is(err, ErrCorruptCheckpoint) {
				t.Fatalf("error %v does not wrap ErrCorruptCheckpoint", err)
			}
			return
		}
		again, err := DecodeLeaderEpochCheckpoint(AppendLeaderEpochCheckpoint(nil, es))
		require.NoError(t, err)
		if len(es) > 0 && !cmp.Equal(es, again) {
			t.Fatalf("round trip changed %v into %v", es, again)
		}
		NewLeaderEpochCache(es).EndOffsetFor(1, 100)
	})
}

func ExampleLeaderEpochCache_EndOffsetFor() {
	c := NewLeaderEpochCache([]EpochEntry{{0, 10}, {2, 13}, {4, 17}})
	fmt.Println(c.EndOffsetFor(1, 30)) // epoch 1 never led here: epoch 0 ended at 13
	fmt.Println(c.EndOffsetFor(4, 30)) // the latest epoch ends at the log end
	fmt.Println(c.EndOffsetFor(5, 30)) // unknown
	// Output:
	// 0 13
	// 4 30
	// -1 -1
}
