package web

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/scenarios"
)

// TestJourneyTellsTheState follows random records at random moments of
// random scenarios and of random live runs, and holds every line of their
// journey to the world's full state at that moment: what each replica has
// at the offset, whether the leader holds the record below its high
// watermark ("committed"), and whether its producer's result says it was
// lost after its acknowledgement. The text says what the line claims.
func TestJourneyTellsTheState(t *testing.T) {
	all, err := scenarios.All()
	require.NoError(t, err)
	rapid.Check(t, func(t *rapid.T) {
		var w *cluster.World
		if rapid.Bool().Draw(t, "a scenario (else a live run)") {
			sc := rapid.SampledFrom(all).Draw(t, "scenario")
			run, err := scenarios.NewRun(sc, 0)
			if err != nil {
				t.Fatalf("%s: %v", sc.Name, err)
			}
			for range rapid.IntRange(0, 14).Draw(t, "steps") {
				if _, err := run.Next(); errors.Is(err, scenarios.ErrDone) {
					break
				} else if err != nil {
					t.Fatalf("%s: %v", sc.Name, err)
				}
			}
			w = run.World()
		} else {
			w = liveRun(t)
		}
		if now := w.NowMs(); now > w.StartMs() && rapid.Bool().Draw(t, "a past moment") {
			at := rapid.Int64Range(w.StartMs(), now-1).Draw(t, "at")
			pw, err := w.AtTime(at)
			if err != nil {
				t.Fatalf("AtTime(%d): %v", at, err)
			}
			w = pw
		}
		for i := range 5 {
			topic, partition, offset, value, ok := someRecord(t, w, i)
			if !ok {
				return
			}
			checkJourney(t, w, topic, partition, offset, value)
		}
	})
}

// liveRun is the default world after random actions of a user's: crashes,
// power cuts, restarts, acks changed, time run.
func liveRun(t *rapid.T) *cluster.World {
	w, err := defaultworld.New(defaultworld.Seed)
	if err != nil {
		t.Fatalf("default world: %v", err)
	}
	kinds := []cluster.ActionKind{cluster.ActRun, cluster.ActRun, cluster.ActKill, cluster.ActPowerCut, cluster.ActStart, cluster.ActStart, cluster.ActSetProducer}
	for i := range rapid.IntRange(1, 8).Draw(t, "live actions") {
		a := cluster.Action{Kind: rapid.SampledFrom(kinds).Draw(t, fmt.Sprintf("kind %d", i)), Broker: rapid.Int32Range(1, 3).Draw(t, fmt.Sprintf("broker %d", i)),
			Ms: rapid.Int64Range(100, 12000).Draw(t, fmt.Sprintf("ms %d", i))}
		if a.Kind == cluster.ActSetProducer {
			p := w.Producers()[rapid.IntRange(0, len(w.Producers())-1).Draw(t, fmt.Sprintf("producer %d", i))]
			cfg := p.Config()
			cfg.Acks = rapid.SampledFrom([]string{"0", "1", "all"}).Draw(t, fmt.Sprintf("acks %d", i))
			a.Name, a.Producer = cfg.Name, cfg
		}
		_ = w.Do(a) // a refused action (start a running broker) changes nothing
		if err := w.Err(); err != nil {
			t.Fatalf("after %s the world failed: %v", a, err)
		}
	}
	return w
}

// someRecord picks a record to follow: a producer's result (acknowledged,
// lost or not) or a record of some replica's log.
func someRecord(t *rapid.T, w *cluster.World, i int) (string, int32, int64, string, bool) {
	st := w.State()
	type rec struct {
		topic     string
		partition int32
		offset    int64
		value     string
	}
	var recs []rec
	cfgs := producerConfigs(w)
	for _, p := range st.Producers {
		for _, r := range p.Results {
			if r.Offset != nil {
				recs = append(recs, rec{cfgs[p.Name].Topic, r.Partition, *r.Offset, preview(r.Value, PreviewBytes)})
			}
		}
	}
	for _, p := range st.Partitions {
		for _, l := range p.Logs {
			for _, r := range l.Records {
				recs = append(recs, rec{p.Topic, p.Partition, r.Offset, preview(r.Value, PreviewBytes)})
			}
		}
	}
	if len(recs) == 0 {
		return "", 0, 0, "", false
	}
	r := rapid.SampledFrom(recs).Draw(t, fmt.Sprintf("record %d", i))
	return r.topic, r.partition, r.offset, r.value, true
}

// checkJourney holds the journey of value at offset to the full state.
func checkJourney(t *rapid.T, w *cluster.World, topic string, partition int32, offset int64, value string) {
	j := journey(w, topic, partition, offset, value)
	st := w.State() // every record of every log
	var part *cluster.PartitionInfo
	for i := range st.Partitions {
		if st.Partitions[i].Topic == topic && st.Partitions[i].Partition == partition {
			part = &st.Partitions[i]
		}
	}
	where := fmt.Sprintf("t=%d journey of %s at %s-%d offset %d", w.NowMs(), value, topic, partition, offset)
	if part == nil {
		return
	}
	holds := map[int32]string{}
	for _, l := range part.Logs {
		holds[l.Broker] = "none"
		for _, r := range l.Records {
			if r.Offset == offset {
				holds[l.Broker] = "other"
				if preview(r.Value, PreviewBytes) == value {
					holds[l.Broker] = "it"
				}
			}
		}
	}
	lost := false
	cfgs := producerConfigs(w)
	for _, p := range st.Producers {
		for _, r := range p.Results {
			if cfgs[p.Name].Topic == topic && r.Partition == partition && r.Offset != nil && *r.Offset == offset && preview(r.Value, PreviewBytes) == value && r.Status == "lost" {
				lost = true
			}
		}
	}
	sawLost, sawCommitted := false, false
	for _, l := range j.Lines {
		switch l.Kind {
		case "replica":
			if l.Holds != holds[l.Broker] && l.Holds != "unknown" {
				t.Fatalf("%s: %q claims %s, the log holds %s", where, l.Text, l.Holds, holds[l.Broker])
			}
			if !strings.HasPrefix(l.Text, fmt.Sprintf("b%d ", l.Broker)) || (l.Holds == "it") != strings.Contains(l.Text, ": has it") {
				t.Fatalf("%s: the text %q does not say what it claims (%s)", where, l.Text, l.Holds)
			}
		case "committed":
			sawCommitted = true
			want := part.Leader > 0 && holds[part.Leader] == "it" && part.HighWatermark > offset
			if l.Committed != want || strings.Contains(l.Text, "committed, consumers may read it") != want {
				t.Fatalf("%s: %q (committed %v), but the leader b%d holds %s with HW %d", where, l.Text, l.Committed, part.Leader, holds[part.Leader], part.HighWatermark)
			}
		case "lost":
			sawLost = true
		}
	}
	if sawLost != lost {
		t.Fatalf("%s: the journey says lost %v, the producer's result %v\n%v", where, sawLost, lost, j.Lines)
	}
	if !sawCommitted {
		t.Fatalf("%s: no line says whether it is committed\n%v", where, j.Lines)
	}
}

// TestJourneyOfALostWrite: at the end of "acks=1 loses acked writes" the
// journey of b says when and why it was lost, that another record holds
// its offset on every replica, and that it is not committed.
func TestJourneyOfALostWrite(t *testing.T) {
	sc, err := scenarios.Get("acks1-loses-acked-writes")
	require.NoError(t, err)
	run, err := scenarios.NewRun(sc, 0)
	require.NoError(t, err)
	for {
		if _, err := run.Next(); errors.Is(err, scenarios.ErrDone) {
			break
		} else {
			require.NoError(t, err)
		}
	}
	j := journey(run.World(), "clicks", 0, 1, "b")
	var got []string
	for _, l := range j.Lines {
		got = append(got, l.Text)
	}
	require.Equal(t, []string{
		"producer p sent it to the leader (acks=1): acknowledged at offset 1",
		"lost after its acknowledgement: broker 2 leads epoch 1 from offset 1 (t=9010 ms); the partition no longer holds it",
		"b1 (follower): holds another record at offset 1 (c)",
		"b2 (leader): holds another record at offset 1 (c)",
		"b3 (follower): holds another record at offset 1 (c)",
		"the leader, b2, does not hold it: no consumer will read it from here on",
		"consumer c: position 1 (not past offset 1)",
	}, got)
}
