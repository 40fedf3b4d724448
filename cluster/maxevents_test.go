package cluster

import (
	"testing"
)

// A world's history keeps the newest MaxEvents events at most, numbered
// on from the first; a snapshot older than what is kept restores with no
// events before it, and the world goes on.
func TestEventsFallOffPastMaxEvents(t *testing.T) {
	w, err := New(Config{Seed: 1, Timeline: TimelineConfig{SnapshotEveryMs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.RunFor(10); err != nil {
		t.Fatal(err)
	}
	snapAt := w.NowMs()
	for range MaxEvents + 10 {
		w.record(EventBroker, 1, nil, "filler")
	}
	evs := w.Events()
	if len(evs) > MaxEvents || len(evs) == 0 {
		t.Fatalf("%d events kept, want 1..%d", len(evs), MaxEvents)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq != evs[i-1].Seq+1 {
			t.Fatalf("event %d has seq %d after %d", i, evs[i].Seq, evs[i-1].Seq)
		}
	}
	if evs[0].Seq == 0 {
		t.Fatalf("the oldest events did not fall off")
	}
	old, err := w.At(0)
	if err != nil {
		t.Fatalf("back to the first step: %v", err)
	}
	if err := old.RunFor(100); err != nil {
		t.Fatalf("the world from a snapshot older than its kept events: %v", err)
	}
	if old.NowMs() <= snapAt {
		t.Fatalf("the restored world did not run")
	}
}
