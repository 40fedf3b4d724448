package cluster

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// TestInternalErrorHaltsOneBrokerAndTheWorldGoesOn: a disk that fails
// under broker 2 is an internal error: recorded with a replay hint,
// broker 2 halts, the clock goes on, and broker 2 starts again once its
// disk works.
func TestInternalErrorHaltsOneBrokerAndTheWorldGoesOn(t *testing.T) {
	w, err := New(Config{Seed: 3, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.CreateTopic(TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	must(w.AddProducer(ProducerConfig{Name: "p", Topic: "t", Acks: "all", RecordsPerSec: 5}))
	must(w.RunFor(2000))
	broken := errors.New("the disk is on fire")
	w.brokers[1].FS().SetHook(func(op vfs.Op) error {
		if op.Kind == vfs.OpWrite {
			return broken
		}
		return nil
	})
	must(w.RunFor(3000))
	if diff := cmp.Diff(int64(5000), w.NowMs()); diff != "" {
		t.Errorf("clock (-want +got):\n%s", diff)
	}
	ies := w.InternalErrors()
	if len(ies) == 0 {
		t.Fatal("a failing disk under broker 2 recorded no internal error")
	}
	if ie := ies[0]; ie.Broker != 2 || !strings.Contains(ie.Error, "the disk is on fire") || !strings.HasPrefix(ie.Replay, "World.At(") {
		t.Errorf("internal error %+v: want broker 2, the disk's error and a replay hint", ie)
	}
	if !errors.Is(w.Err(), ErrInternal) {
		t.Errorf("Err() = %v, want ErrInternal", w.Err())
	}
	if got := w.brokers[1].State(); got != BrokerCrashed {
		t.Errorf("broker 2 is %s, want crashed (halted)", got)
	}
	acked := w.State().Producers[0].Acked
	w.brokers[1].FS().SetHook(nil)
	must(w.Start(2))
	must(w.RunFor(20000))
	st := w.State()
	if diff := cmp.Diff([]int32{1, 2, 3}, st.Partitions[0].ISR); diff != "" {
		t.Errorf("ISR once broker 2 is back (-want +got):\n%s", diff)
	}
	if st.Producers[0].Acked <= acked {
		t.Errorf("the producer got no acknowledgement after broker 2 came back (%d before, %d after)", acked, st.Producers[0].Acked)
	}
	if n := len(w.InternalErrors()); n != len(ies) {
		t.Errorf("internal errors after the disk healed: %d, want %d", n, len(ies))
	}
}

// TestMessageStormIsAnInternalError: a network that is not quiet within
// the bound is recorded, its messages dropped, and the world goes on.
func TestMessageStormIsAnInternalError(t *testing.T) {
	w, err := New(Config{Seed: 3, Brokers: 3})
	if err != nil {
		t.Fatal(err)
	}
	for range DefaultMaxDeliveriesPerQuiet + 10 {
		w.send(netsim.Envelope{From: 1, To: 2, Kind: netsim.KindHeartbeat})
	}
	if err := w.RunFor(1000); err != nil {
		t.Fatal(err)
	}
	ies := w.InternalErrors()
	if len(ies) != 1 || !strings.Contains(ies[0].Error, "network not quiet") || ies[0].Broker != 0 {
		t.Fatalf("internal errors %+v: want one, the storm", ies)
	}
	if w.net.Len() != 0 || w.NowMs() != 1000 {
		t.Errorf("after the storm: %d messages in flight at t=%d, want 0 at 1000", w.net.Len(), w.NowMs())
	}
}
