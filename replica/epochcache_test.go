package replica

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

type endOffset struct {
	Epoch int32
	End   int64
	OK    bool
}

// Known answers H1-H11 (from Kafka's LeaderEpochFileCacheTest).
func TestEpochCacheKnownAnswers(t *testing.T) {
	assign := func(t *testing.T, c *EpochCache, pairs ...[2]int64) {
		t.Helper()
		for _, p := range pairs {
			must(t, c.Assign(int32(p[0]), p[1]))
		}
	}
	end := func(c *EpochCache, epoch int32, leo int64) endOffset {
		e, o, ok := c.EndOffsetFor(epoch, leo)
		return endOffset{e, o, ok}
	}
	t.Run("H1 epoch below every entry", func(t *testing.T) {
		var c EpochCache
		assign(t, &c, [2]int64{5, 11}, [2]int64{6, 12}, [2]int64{7, 13})
		if diff := cmp.Diff(endOffset{4, 11, true}, end(&c, 4, 20)); diff != "" {
			t.Errorf("endOffsetFor(4) (-want +got):\n%s", diff)
		}
		assign(t, &c, [2]int64{7, 12}) // H2
		if diff := cmp.Diff([]EpochEntry{{5, 11}, {7, 12}}, c.Entries()); diff != "" {
			t.Errorf("H2 entries (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(endOffset{5, 12, true}, end(&c, 5, 20)); diff != "" {
			t.Errorf("H2 endOffsetFor(5) (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(endOffset{5, 12, true}, end(&c, 6, 20)); diff != "" {
			t.Errorf("H2 endOffsetFor(6) (-want +got):\n%s", diff)
		}
	})
	t.Run("H3 repeated epochs keep the first start", func(t *testing.T) {
		var c EpochCache
		assign(t, &c, [2]int64{1, 11}, [2]int64{1, 12}, [2]int64{2, 13}, [2]int64{2, 14}, [2]int64{3, 15}, [2]int64{3, 16})
		if diff := cmp.Diff([]EpochEntry{{1, 11}, {2, 13}, {3, 15}}, c.Entries()); diff != "" {
			t.Errorf("entries (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(endOffset{2, 15, true}, end(&c, 2, 17)); diff != "" {
			t.Errorf("endOffsetFor(2) (-want +got):\n%s", diff)
		}
	})
	t.Run("H4 H6 gaps between epochs", func(t *testing.T) {
		var c EpochCache
		assign(t, &c, [2]int64{0, 10}, [2]int64{2, 13}, [2]int64{4, 17})
		got := []endOffset{end(&c, 1, 20), end(&c, 2, 20), end(&c, 3, 20), end(&c, 4, 20), end(&c, 5, 20)}
		want := []endOffset{{0, 13, true}, {2, 17, true}, {2, 17, true}, {4, 20, true}, {NoEpoch, UndefinedOffset, false}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("endOffsetFor(1..5) (-want +got):\n%s", diff)
		}
	})
	t.Run("H5 same epoch later start is ignored", func(t *testing.T) {
		var c EpochCache
		assign(t, &c, [2]int64{2, 6}, [2]int64{2, 7})
		if diff := cmp.Diff([]EpochEntry{{2, 6}}, c.Entries()); diff != "" {
			t.Errorf("entries (-want +got):\n%s", diff)
		}
	})
	three := func(t *testing.T) *EpochCache {
		c, err := NewEpochCache([]EpochEntry{{2, 6}, {3, 8}, {4, 11}})
		must(t, err)
		return c
	}
	tests := []struct {
		name string
		op   func(c *EpochCache)
		want []EpochEntry
	}{
		{"H7 truncateFromEnd(8) is inclusive", func(c *EpochCache) { c.TruncateFromEnd(8) }, []EpochEntry{{2, 6}}},
		{"H8 truncateFromEnd(9)", func(c *EpochCache) { c.TruncateFromEnd(9) }, []EpochEntry{{2, 6}, {3, 8}}},
		{"H9 truncateFromStart(9) moves epoch 3", func(c *EpochCache) { c.TruncateFromStart(9) }, []EpochEntry{{3, 9}, {4, 11}}},
		{"H10 truncateFromStart(5) before first", func(c *EpochCache) { c.TruncateFromStart(5) }, []EpochEntry{{2, 6}, {3, 8}, {4, 11}}},
		{"H10 truncateFromStart(6) at first", func(c *EpochCache) { c.TruncateFromStart(6) }, []EpochEntry{{2, 6}, {3, 8}, {4, 11}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := three(t)
			tt.op(c)
			if diff := cmp.Diff(tt.want, c.Entries()); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("H11 epochForOffset", func(t *testing.T) {
		var c EpochCache
		assign(t, &c, [2]int64{0, 10}, [2]int64{1, 20}, [2]int64{5, 30})
		type found struct {
			Epoch int32
			OK    bool
		}
		var got []found
		for _, off := range []int64{25, 20, 30, 50, 5} {
			e, ok := c.EpochForOffset(off)
			got = append(got, found{e, ok})
		}
		want := []found{{1, true}, {1, true}, {5, true}, {5, true}, {0, false}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("epochForOffset(25,20,30,50,5) (-want +got):\n%s", diff)
		}
	})
}

// H12, in memory: a cache rebuilt from its entries (as from a reloaded
// leader-epoch-checkpoint; the file format is kafkalog's) answers the same.
func TestEpochCacheReload(t *testing.T) {
	var c EpochCache
	for _, e := range []EpochEntry{{0, 10}, {2, 13}, {4, 17}} {
		must(t, c.Assign(e.Epoch, e.StartOffset))
	}
	reloaded, err := NewEpochCache(c.Entries())
	must(t, err)
	for epoch := int32(0); epoch <= 5; epoch++ {
		e1, o1, ok1 := c.EndOffsetFor(epoch, 20)
		e2, o2, ok2 := reloaded.EndOffsetFor(epoch, 20)
		if diff := cmp.Diff(endOffset{e1, o1, ok1}, endOffset{e2, o2, ok2}); diff != "" {
			t.Errorf("endOffsetFor(%d) after reload (-before +after):\n%s", epoch, diff)
		}
	}
}

// Before 2.1 an epoch older than every entry has no answer (LeaderEpochFileCache.endOffsetFor at 2.0.0).
func TestEndOffsetForBefore21(t *testing.T) {
	entries := []EpochEntry{{5, 11}, {6, 12}}
	e, end, ok := endOffsetFor(entries, 20, 4, true)
	if ok {
		t.Fatalf("pre-2.1 endOffsetFor(4) over %v = (%d,%d), want undefined", entries, e, end)
	}
}

func TestEpochCacheRefusesBadInput(t *testing.T) {
	var c EpochCache
	mustFailWith(t, c.Assign(-1, 0), ErrInvalidConfig, "assign epoch -1")
	mustFailWith(t, c.Assign(0, -1), ErrInvalidConfig, "assign offset -1")
	_, err := NewEpochCache([]EpochEntry{{1, 5}, {1, 6}})
	mustFailWith(t, err, ErrInvalidConfig, "repeated epoch")
	_, err = NewEpochCache([]EpochEntry{{1, 5}, {2, 5}})
	mustFailWith(t, err, ErrInvalidConfig, "repeated start offset")
}
