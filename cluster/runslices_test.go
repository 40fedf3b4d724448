package cluster

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/replica"
)

// liveLikeWorld builds a world like the live page's default one: KRaft
// combined mode, three brokers, small segments, a bounded timeline with
// snapshots, keyed and keyless producers and two consumer groups.
func liveLikeWorld(t *testing.T, seed uint64) *World {
	t.Helper()
	log := DefaultLogConfig()
	log.SegmentBytes = 16 << 10
	log.RetentionMs = 5 * 60 * 1000
	w, err := New(Config{CombinedControllers: true, Seed: seed, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2,
		Log: log, LogRetentionCheckIntervalMs: 60000, OffsetsTopicNumPartitions: 3,
		Timeline: TimelineConfig{SnapshotEveryMs: 10_000, DenseMs: 60_000, SparseEveryMs: 120_000, KeepMs: 10 * 60_000}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Action{
		{Kind: ActCreateTopic, Topic: TopicSpec{Name: "orders", Partitions: 3, ReplicationFactor: 3}},
		{Kind: ActCreateTopic, Topic: TopicSpec{Name: "profiles", Partitions: 1, ReplicationFactor: 3}},
		{Kind: ActAddProducer, Producer: ProducerConfig{Name: "checkout", Topic: "orders", Acks: "all", Keys: []string{"alice", "bob", "carol", "dave"}, RecordsPerSec: 3}},
		{Kind: ActAddProducer, Producer: ProducerConfig{Name: "clicks", Topic: "orders", Acks: "1", RecordsPerSec: 2}},
		{Kind: ActAddProducer, Producer: ProducerConfig{Name: "profile-svc", Topic: "profiles", Acks: "all", Keys: []string{"u1", "u2", "u3"}, Rate: 1.5}},
		{Kind: ActAddConsumer, Consumer: ConsumerConfig{Name: "billing-1", Group: "billing", Topics: []string{"orders"}, PollIntervalMs: 1000, MaxPollRecords: 3}},
		{Kind: ActAddConsumer, Consumer: ConsumerConfig{Name: "billing-2", Group: "billing", Topics: []string{"orders"}, PollIntervalMs: 1000, MaxPollRecords: 3}},
		{Kind: ActAddConsumer, Consumer: ConsumerConfig{Name: "indexer", Group: "search-index", Topics: []string{"profiles"}, PollIntervalMs: 1000, MaxPollRecords: 8}},
	} {
		if err := w.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// nonActionEvents are a world's events without the actions and their step
// numbers: what happened, whatever the actions were cut into.
func nonActionEvents(w *World) []string {
	var out []string
	for _, e := range w.Events() {
		if e.Kind != EventAction {
			e.Step, e.Seq = 0, 0
			out = append(out, e.String())
		}
	}
	return out
}

// TestRunInSlicesIsOneRun: RunFor in slices of a second (what the live page
// does, releasing its lock between slices) gives the same world as one
// long RunFor, faults included: the same state and the same events.
func TestRunInSlicesIsOneRun(t *testing.T) {
	for _, seed := range []uint64{7} {
		whole, sliced := liveLikeWorld(t, seed), liveLikeWorld(t, seed)
		plan := []struct {
			act Action
			ms  int64
		}{{ms: 25_000}, {act: Action{Kind: ActKill, Broker: 2}}, {ms: 12_000}, {act: Action{Kind: ActStart, Broker: 2}}, {ms: 40_000},
			{act: Action{Kind: ActPowerCut, Broker: 1}}, {ms: 7_000}, {act: Action{Kind: ActStart, Broker: 1}}, {ms: 30_000}}
		for _, step := range plan {
			if step.ms == 0 {
				for _, w := range []*World{whole, sliced} {
					if err := w.Do(step.act); err != nil {
						t.Fatal(err)
					}
				}
				continue
			}
			if err := whole.RunFor(step.ms); err != nil {
				t.Fatal(err)
			}
			for done := int64(0); done < step.ms; done += 1000 {
				if err := sliced.RunFor(min(1000, step.ms-done)); err != nil {
					t.Fatal(err)
				}
			}
		}
		a, _ := whole.State().JSON()
		b, _ := sliced.State().JSON()
		if diff := cmp.Diff(string(a), string(b)); diff != "" {
			t.Errorf("seed %d: the state after one run and after runs of a second (-one +sliced):\n%s", seed, diff)
		}
		// The bounded timeline forgets events by snapshot; compare what both kept.
		ea, eb := nonActionEvents(whole), nonActionEvents(sliced)
		n := min(len(ea), len(eb))
		if diff := cmp.Diff(ea[len(ea)-n:], eb[len(eb)-n:]); diff != "" {
			t.Errorf("seed %d: events (-one +sliced):\n%s", seed, diff)
		}
		if len(whole.InternalErrors())+len(sliced.InternalErrors()) > 0 {
			t.Errorf("seed %d: internal errors %v %v", seed, whole.InternalErrors(), sliced.InternalErrors())
		}
		if fmt.Sprint(whole.NowMs()) != fmt.Sprint(sliced.NowMs()) {
			t.Errorf("clocks %d and %d", whole.NowMs(), sliced.NowMs())
		}
	}
}

// TestCheckConverged: a world with a broker down is not converged (and
// says why); once it runs again and the world settles, every partition
// has its leader and full ISR, both groups are Stable with every
// partition assigned, and their committed offsets move on.
func TestCheckConverged(t *testing.T) {
	w := liveLikeWorld(t, 9)
	for _, a := range []Action{{Kind: ActRun, Ms: 20_000}, {Kind: ActKill, Broker: 3}, {Kind: ActRun, Ms: 15_000}} {
		if err := w.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"broker 3 is crashed"}, w.CheckConverged()); diff != "" {
		t.Errorf("with broker 3 down (-want +got):\n%s", diff)
	}
	if err := w.Start(3); err != nil {
		t.Fatal(err)
	}
	if got := w.CheckConverged(); len(got) == 0 {
		t.Errorf("broker 3 just started: the ISR cannot be full yet, but the world says it converged")
	}
	if err := w.RunFor(60_000); err != nil {
		t.Fatal(err)
	}
	if got := w.CheckConverged(); len(got) != 0 {
		t.Errorf("60 s after the restart: %v", got)
	}
	before := w.State()
	if err := w.RunFor(20_000); err != nil {
		t.Fatal(err)
	}
	if got := CheckCommitsMoved(before, w.State()); len(got) != 0 {
		t.Errorf("commits: %v", got)
	}
	if got := CheckCommitsMoved(before, before); len(got) == 0 {
		t.Errorf("a state compared with itself shows commits moving; the check cannot fail")
	}
}
