package partitioner_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/partitioner"
)

// stickyRun produces keyless records into topic "t" with numPartitions
// partitions, closing a batch every batchRecords records, and returns the
// partition of each record.
func stickyRun(t testing.TB, seed uint64, numPartitions int32, records, batchRecords int) []int32 {
	s := partitioner.NewSticky(rand.New(rand.NewPCG(seed, seed)))
	var out []int32
	inBatch := 0
	for range records {
		p, err := s.Partition("t", numPartitions, nil)
		if err != nil {
			t.Fatalf("Partition: %v", err)
		}
		out = append(out, p)
		inBatch++
		if inBatch == batchRecords {
			if _, err := s.OnNewBatch("t", p, numPartitions, nil); err != nil {
				t.Fatalf("OnNewBatch: %v", err)
			}
			inBatch = 0
		}
	}
	return out
}

func TestStickyStaysUntilBatchCloses(t *testing.T) {
	got := stickyRun(t, 7, 6, 12, 4)
	for batch := range 3 {
		b := got[4*batch : 4*batch+4]
		for _, p := range b {
			if p != b[0] {
				t.Fatalf("batch %d spread over partitions %v; a batch of keyless records must stay on one partition", batch, b)
			}
		}
		if batch > 0 && b[0] == got[4*batch-1] {
			t.Errorf("batch %d stayed on partition %d after the batch closed (all: %v)", batch, b[0], got)
		}
	}
}

func TestStickySameSeedSamePartitions(t *testing.T) {
	a := stickyRun(t, 42, 5, 40, 3)
	b := stickyRun(t, 42, 5, 40, 3)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed gave different partitions (-first +second):\n%s", diff)
	}
}

func TestStickyIgnoresOtherPartitionsBatches(t *testing.T) {
	s := partitioner.NewSticky(rand.New(rand.NewPCG(1, 2)))
	p, err := s.Partition("t", 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.OnNewBatch("t", (p+1)%4, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != p {
		t.Errorf("a batch closing on partition %d moved the sticky partition from %d to %d", (p+1)%4, p, got)
	}
}

func TestStickyOnlyAvailable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		n := rapid.Int32Range(1, 12).Draw(t, "numPartitions")
		avail := rapid.SliceOfNDistinct(rapid.Int32Range(0, n-1), 1, -1, rapid.ID).Draw(t, "available")
		batches := rapid.IntRange(1, 20).Draw(t, "batches")
		s := partitioner.NewSticky(rand.New(rand.NewPCG(seed, 0)))
		prev := int32(-1)
		for i := range batches {
			p, err := s.Partition("t", n, avail)
			if err != nil {
				t.Fatalf("Partition: %v", err)
			}
			if !containsInt32(avail, p) {
				t.Fatalf("batch %d went to partition %d, which has no leader (available %v)", i, p, avail)
			}
			if len(avail) > 1 && p == prev {
				t.Fatalf("batch %d went to partition %d again although %v were available", i, p, avail)
			}
			prev = p
			if _, err := s.OnNewBatch("t", p, n, avail); err != nil {
				t.Fatalf("OnNewBatch: %v", err)
			}
		}
	})
}

func containsInt32(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
