package cluster_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

var (
	powerCutN    = flag.Int("powercut.n", 5, "schedules of TestPowerCutLosesOnlyUnsyncedBytes")
	powerCutSeed = flag.Uint64("powercut.seed", 0, "run only this seed of TestPowerCutLosesOnlyUnsyncedBytes")
)

// durableOf maps "topic-partition@offset" to the value of every record of
// broker id that is on its disk (not only in the page cache).
func durableOf(st cluster.State, id int32) map[string]string {
	out := map[string]string{}
	for _, p := range st.Partitions {
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

// TestPowerCutLosesOnlyUnsyncedBytes: under random schedules of produce
// load, runs, crashes, restarts, OS writebacks and power cuts (torn or
// not), a broker that loses its power keeps, when it starts again, every
// record that was on its disk: a power cut loses only bytes that were
// never synced. (Start recovers the logs; nothing is fetched before the
// next tick, so the logs read right after are what recovery kept.)
func TestPowerCutLosesOnlyUnsyncedBytes(t *testing.T) {
	first, n := uint64(1), uint64(*powerCutN)
	if *powerCutSeed != 0 {
		first, n = *powerCutSeed, 1
	}
	cuts := 0
	for seed := first; seed < first+n; seed++ {
		r := rand.New(rand.NewPCG(seed, 0xc0ffee))
		log := cluster.DefaultLogConfig()
		log.SegmentBytes = int64(1024 + r.IntN(4)*1024)
		w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		must := func(what string, err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("seed %d: %s: %v\nreplay: go test ./cluster -run TestPowerCutLosesOnlyUnsyncedBytes -powercut.seed=%d -v", seed, what, err, seed)
			}
		}
		must("create-topic", w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 2, ReplicationFactor: 3}))
		must("add-producer", w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all", RecordsPerSec: 10 + r.IntN(40)}))
		var did []string
		for range 25 {
			id := int32(r.IntN(3) + 1)
			running := w.State().Brokers[id-1].State == "running"
			switch k := r.IntN(10); {
			case k < 4:
				ms := int64(r.IntN(30)+1) * 500
				did = append(did, fmt.Sprintf("run %d", ms))
				must(did[len(did)-1], w.RunFor(ms))
			case k < 5 && running:
				did = append(did, fmt.Sprintf("writeback %d", id))
				must(did[len(did)-1], w.Writeback(id))
			case k < 6 && running:
				did = append(did, fmt.Sprintf("kill %d", id))
				must(did[len(did)-1], w.Kill(id))
			case k < 8:
				torn := r.IntN(2) == 0
				before := durableOf(w.State(), id)
				did = append(did, fmt.Sprintf("power-cut %d torn=%v", id, torn))
				must(did[len(did)-1], w.PowerCut(id, torn))
				if running {
					did = append(did, fmt.Sprintf("start %d", id))
					must(did[len(did)-1], w.Start(id))
					after := w.State()
					got := map[string]string{}
					for _, p := range after.Partitions {
						for _, lg := range p.Logs {
							if lg.Broker == id {
								for _, rec := range lg.Records {
									got[fmt.Sprintf("%s-%d@%d", p.Topic, p.Partition, rec.Offset)] = rec.Value
								}
							}
						}
					}
					cuts++
					for k, v := range before {
						if got[k] != v {
							t.Fatalf("seed %d: broker %d lost durable record %s=%q in a power cut (now %q); schedule %v\n"+
								"replay: go test ./cluster -run TestPowerCutLosesOnlyUnsyncedBytes -powercut.seed=%d -v", seed, id, k, v, got[k], did, seed)
						}
					}
				}
			case !running:
				did = append(did, fmt.Sprintf("start %d", id))
				must(did[len(did)-1], w.Start(id))
			}
		}
		for _, ie := range w.InternalErrors() {
			t.Errorf("seed %d: internal error %s\nreplay: go test ./cluster -run TestPowerCutLosesOnlyUnsyncedBytes -powercut.seed=%d -v", seed, ie.Error, seed)
		}
	}
	t.Logf("%d schedules, %d power cuts of a running broker checked", n, cuts)
	if cuts == 0 {
		t.Fatal("no power cut of a running broker was checked")
	}
}
