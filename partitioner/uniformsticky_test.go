package partitioner_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/partitioner"
)

// TestUniformStickySwitchesAfterBatchSizeBytes: with batch.size 1000 and
// 300-byte records, the partition changes after the 4th record (1200 bytes)
// when batches are full, and only after the 7th (2100 ≥ 2000) when they never are.
func TestUniformStickySwitchesAfterBatchSizeBytes(t *testing.T) {
	for _, tt := range []struct {
		full      bool
		perSticky int
	}{{true, 4}, {false, 7}} {
		u := partitioner.NewUniformSticky(rand.New(rand.NewPCG(3, 4)), 1000)
		var got []int
		run := 0
		prev := int32(-1)
		for range 40 {
			p, err := u.Partition("t", 1000, nil)
			if err != nil {
				t.Fatal(err)
			}
			if prev >= 0 && p != prev {
				got = append(got, run)
				run = 0
			}
			run++
			prev = p
			u.Appended("t", p, 300, tt.full, 1000, nil)
		}
		want := []int{tt.perSticky, tt.perSticky, tt.perSticky, tt.perSticky, tt.perSticky}
		if diff := cmp.Diff(want, got[:5]); diff != "" {
			t.Errorf("allBatchesFull=%v: records per sticky run (-want +got):\n%s", tt.full, diff)
		}
	}
}

func TestUniformStickyIgnoresOtherPartitions(t *testing.T) {
	u := partitioner.NewUniformSticky(rand.New(rand.NewPCG(1, 1)), 100)
	p, _ := u.Partition("t", 8, nil)
	u.Appended("t", (p+1)%8, 1000, true, 8, nil)
	if again, _ := u.Partition("t", 8, nil); again != p {
		t.Errorf("bytes for partition %d moved the sticky partition from %d to %d", (p+1)%8, p, again)
	}
}

func TestUniformStickyProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.Int32Range(1, 12).Draw(t, "numPartitions")
		avail := rapid.SliceOfNDistinct(rapid.Int32Range(0, n-1), 0, -1, rapid.ID).Draw(t, "available")
		batch := rapid.IntRange(1, 5000).Draw(t, "batch.size")
		u := partitioner.NewUniformSticky(rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0)), batch)
		produced, prev, mayMove := 0, int32(-1), true
		for i := range rapid.IntRange(1, 50).Draw(t, "records") {
			p, err := u.Partition("t", n, avail)
			if err != nil {
				t.Fatalf("Partition: %v", err)
			}
			if len(avail) > 0 && !containsInt32(avail, p) {
				t.Fatalf("record %d went to partition %d, which has no leader (available %v)", i, p, avail)
			}
			if p != prev && !mayMove {
				t.Fatalf("record %d moved from partition %d to %d after only %d bytes (batch.size %d)", i, prev, p, produced, batch)
			}
			size := rapid.IntRange(1, 3000).Draw(t, "record bytes")
			full := rapid.Bool().Draw(t, "all batches full")
			u.Appended("t", p, size, full, n, avail)
			// The rule (KIP-794): switch at batch.size when batches are full, at twice it anyway.
			produced += size
			mayMove = produced >= batch && full || produced >= 2*batch
			if mayMove {
				produced = 0
			}
			prev = p
		}
	})
}
