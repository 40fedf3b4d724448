package live

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
)

// notStarted is what an exercise's stub panics with.
type notStarted struct{}

func (notStarted) NotStarted() bool { return true }

func referencePoint(own []replica.EpochEntry, leo, hw int64, a replica.EpochEndOffset) (int64, bool) {
	return replica.TruncationPoint(replica.Modern, own, leo, leo, a)
}

// The ch05 part's Truncate runs only when it is written: a stub leaves the
// v2.1 rounds to the reference, TruncationPoint running where it is used.
func TestTruncateIsPluggedInOnlyWhenWritten(t *testing.T) {
	stub := func(replicakit.Follower, func(int32) replica.EpochEndOffset) replicakit.Follower { panic(notStarted{}) }
	written := func(f replicakit.Follower, _ func(int32) replica.EpochEndOffset) replicakit.Follower { return f }
	got := map[string][2]bool{}
	for name, tr := range map[string]replicakit.Truncation{
		"TruncationPoint only": {TruncationPoint: referencePoint},
		"Truncate a stub":      {TruncationPoint: referencePoint, Truncate: stub},
		"both written":         {TruncationPoint: referencePoint, Truncate: written},
	} {
		p := New(Code{Truncation: tr}).ClusterParts()
		got[name] = [2]bool{p.TruncationPoint != nil, p.Truncate != nil}
	}
	want := map[string][2]bool{"TruncationPoint only": {true, false}, "Truncate a stub": {true, false}, "both written": {true, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TruncationPoint, Truncate plugged in (-want +got):\n%s", diff)
	}
}

// A Truncate that asks more questions than the follower has epochs plus one
// is refused with what it asked, and the reference runs from then on; one
// that stays within them gets its answers and its result through.
func TestTruncateRefusesEndlessQuestions(t *testing.T) {
	again := func(f replicakit.Follower, ask func(int32) replica.EpochEndOffset) replicakit.Follower {
		for {
			ask(f.Epochs[len(f.Epochs)-1].Epoch)
		}
	}
	l := New(Code{Truncation: replicakit.Truncation{TruncationPoint: referencePoint, Truncate: again}})
	f := replica.FollowerState{Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 2}}, LogEndOffset: 3, HighWatermark: 3}
	asked := 0
	_, ok := l.ClusterParts().Truncate(f, func(int32) replica.EpochEndOffset { asked++; return replica.EpochEndOffset{Epoch: 1, EndOffset: 4} })
	faults := l.Faults()
	if ok || asked != 3 || len(faults) != 1 || faults[0].Kind != "refused" || !strings.Contains(faults[0].Value, "asked about epochs [2 2 2 2]") {
		t.Fatalf("ok %v after %d answers, faults %v; want refused after 3, naming the epochs asked", ok, asked, faults)
	}
	if l.Runs(PartTruncation) {
		t.Errorf("the part still runs the learner's code after the refusal")
	}

	cut := func(f replicakit.Follower, ask func(int32) replica.EpochEndOffset) replicakit.Follower {
		a := ask(f.Epochs[len(f.Epochs)-1].Epoch)
		return replicakit.Follower{Epochs: f.Epochs[:1], LogEndOffset: a.EndOffset, HighWatermark: a.EndOffset}
	}
	l = New(Code{Truncation: replicakit.Truncation{TruncationPoint: referencePoint, Truncate: cut}})
	got, ok := l.ClusterParts().Truncate(f, func(int32) replica.EpochEndOffset { return replica.EpochEndOffset{Epoch: 0, EndOffset: 1} })
	want := replica.FollowerState{Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, LogEndOffset: 1, HighWatermark: 1}
	if diff := cmp.Diff(want, got); !ok || diff != "" {
		t.Errorf("ok %v, the follower state (-want +got):\n%s", ok, diff)
	}
}
