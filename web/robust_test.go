package web

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
)

// These tests replay, verbatim, command lines users typed in
// "kafkalive shell" on the default world that stopped or broke the
// cluster. Nothing a user types may stop the clock.

// script runs lines in the terminal of a fresh default world; every line
// must succeed. It returns the live world and what each line printed.
func script(t *testing.T, lines ...string) (*Live, []string) {
	t.Helper()
	l, err := NewLive()
	if err != nil {
		t.Fatal(err)
	}
	term := NewTerminal(l)
	var outs []string
	for _, line := range lines {
		var out strings.Builder
		if err := term.Exec(line, nil, &out); err != nil {
			t.Fatalf("%s: %v\n%s", shorten(line), err, out.String())
		}
		outs = append(outs, out.String())
	}
	return l, outs
}

func shorten(line string) string {
	if len(line) > 60 {
		return fmt.Sprintf("%s... (%d bytes)", line[:60], len(line))
	}
	return line
}

// world returns the live world (for the checks).
func world(t *testing.T, l *Live) *cluster.World {
	t.Helper()
	var w *cluster.World
	if err := l.Look(nil, func(x *cluster.World) error { w = x; return nil }); err != nil {
		t.Fatal(err)
	}
	return w
}

// noInternalErrors fails the test with the world's internal errors.
func noInternalErrors(t *testing.T, w *cluster.World) {
	t.Helper()
	for _, ie := range w.InternalErrors() {
		t.Errorf("internal error at t=%d (step %d): %s; replay: %s", ie.TimeMs, ie.Step, ie.Error, ie.Replay)
	}
}

// TestShellRestartAfterPowerCutDoesNotFreeze: a follower restarted after a
// power cut refetched, within one tick, an offset the leader's cleaner had
// compacted away in __consumer_offsets, forever; the network was never
// quiet and the world stopped for good.
func TestShellRestartAfterPowerCutDoesNotFreeze(t *testing.T) {
	l, _ := script(t, "run 200000", "stop 2", "start 2", "power-cut 1", "run 15000", "start 1", "run 5000")
	w := world(t, l)
	noInternalErrors(t, w)
	if diff := cmp.Diff(int64(220000), w.NowMs()); diff != "" {
		t.Errorf("the clock after the script (-want +got):\n%s", diff)
	}
	// And the clock goes on moving.
	if err := w.RunFor(1000); err != nil || w.NowMs() != 221000 {
		t.Errorf("run 1000 after the script: %v, clock at %d, want 221000", err, w.NowMs())
	}
}

// TestShellLargeValueIsAnError: a value larger than segment.bytes (16 KiB
// in the default world) was answered "ok", then the leader's append failed
// and the world stopped. The leader answers RECORD_LIST_TOO_LARGE, as
// Kafka 3.7's UnifiedLog.append does, and everything goes on.
func TestShellLargeValueIsAnError(t *testing.T) {
	l, _ := script(t, "produce checkout "+strings.Repeat("v", 17000), "run 5000")
	w := world(t, l)
	noInternalErrors(t, w)
	var got []string
	for _, r := range w.Producers()[0].Results() {
		if len(r.Value) == 17000 {
			got = append(got, r.Error)
		}
	}
	if diff := cmp.Diff([]string{"RECORD_LIST_TOO_LARGE"}, got); diff != "" {
		t.Errorf("what checkout was told about the large value (-want +got):\n%s", diff)
	}
	if w.NowMs() != 5000 {
		t.Errorf("clock at %d, want 5000", w.NowMs())
	}
}

// TestShellPowerCutKeepsSyncedSegments: the log directory was created at
// broker start without syncing its parent, so a power cut took it and
// everything in it: broker 1 came back with every partition at LEO 0
// although its first segments had rolled and been flushed. Every record
// durable before the cut must be there after the restart (a partition
// whose first segment never rolled had nothing durable).
func TestShellPowerCutKeepsSyncedSegments(t *testing.T) {
	l, _ := script(t, "run 150000")
	durable := durableRecords(world(t, l), 1)
	if len(durable) == 0 {
		t.Fatal("after 150 s broker 1 has no durable record; the test needs a rolled segment")
	}
	term := NewTerminal(l)
	for _, line := range []string{"power-cut 1", "start 1"} {
		if err := term.Exec(line, nil, io.Discard); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	after := map[string]string{}
	for _, p := range world(t, l).State().Partitions {
		for _, lg := range p.Logs {
			if lg.Broker == 1 {
				for _, r := range lg.Records {
					after[fmt.Sprintf("%s-%d@%d", p.Topic, p.Partition, r.Offset)] = r.Value
				}
			}
		}
	}
	lost := 0
	for k, v := range durable {
		if after[k] != v {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("the power cut lost %d of broker 1's %d durable records", lost, len(durable))
	}
}

// durableRecords maps "topic-partition@offset" to the value of each record
// of broker id that is on its disk.
func durableRecords(w *cluster.World, id int32) map[string]string {
	out := map[string]string{}
	for _, p := range w.State().Partitions {
		for _, lg := range p.Logs {
			if lg.Broker != id {
				continue
			}
			for _, r := range lg.Records {
				if r.Durable {
					out[fmt.Sprintf("%s-%d@%d", p.Topic, p.Partition, r.Offset)] = r.Value
				}
			}
		}
	}
	return out
}

// TestShellGroupRecoversAfterUnknownMemberID: after these restarts billing
// stayed in PreparingRebalance with "no active members" while its
// consumers said "running": they had got UNKNOWN_MEMBER_ID at t=12020 and
// never rejoined. A Kafka consumer that loses its member id rejoins
// (AbstractCoordinator).
func TestShellGroupRecoversAfterUnknownMemberID(t *testing.T) {
	l, _ := script(t, "run 10900", "stop 2", "run 3700", "start 2", "run 3100", "kill 3", "run 3100", "start 3", "run 300000")
	w := world(t, l)
	noInternalErrors(t, w)
	for _, g := range w.State().Groups {
		if g.State != "Stable" || len(g.Members) == 0 {
			t.Errorf("group %s is %s with %d members after 300 s with every broker running, want Stable with its members", g.Name, g.State, len(g.Members))
		}
	}
}

// TestShellDiskDamageBelowTheRecoveryPoint: a byte of a batch's CRC
// flipped on the disk of a stopped broker made its clean start fail with
// an internal error (the mirror of its log refused the batch), and the
// broker halted. Kafka 3.7 does not check the segments below the recovery
// point on a clean start (LogLoader): broker 3 starts with the damaged
// batch on its disk, follows as before (it fetches from its log end) and
// is back in the ISR; its log shows the records that read; the damaged
// batch is still there for kafka-dump-log, which says it is not valid.
func TestShellDiskDamageBelowTheRecoveryPoint(t *testing.T) {
	l, _ := script(t, "run 100000", "stop 3", "corrupt 3 /kafka-logs/orders-0/00000000000000000000.log 17 --flip", "start 3", "run 5000")
	w := world(t, l)
	noInternalErrors(t, w)
	type outcome struct {
		Clock   int64
		ISR     []int32
		Offset0 map[int32]bool // which replicas show offset 0
		// Batch0 is what kafka-dump-log says of broker 3's first batch.
		Batch0 string
	}
	got := outcome{Clock: w.NowMs(), Offset0: map[int32]bool{}}
	for _, p := range w.State().Partitions {
		if p.Topic != "orders" || p.Partition != 0 {
			continue
		}
		got.ISR = p.ISR
		for _, lg := range p.Logs {
			got.Offset0[lg.Broker] = len(lg.Records) > 0 && lg.Records[0].Offset == 0
		}
	}
	var out strings.Builder
	_ = NewTerminal(l).Exec("kafka-dump-log --files /kafka-logs/orders-0/00000000000000000000.log --broker 3", nil, &out)
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "baseOffset: 0 ") {
			got.Batch0 = line[strings.LastIndex(line, " isvalid: ")+1:]
		}
	}
	want := outcome{Clock: 105000, ISR: []int32{1, 2, 3}, Offset0: map[int32]bool{1: true, 2: true, 3: false}, Batch0: "isvalid: false"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after the damage and the clean start (-want +got):\n%s\ndump-log:\n%.600s", diff, out.String())
	}
}
