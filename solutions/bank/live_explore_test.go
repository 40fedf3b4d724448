package bank

import (
	"flag"
	"fmt"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/scenarios"
	"strings"
	"testing"

	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
)

var liveExplore = flag.String("live.explore", "", "print the reference outcome of this guided scenario, step by step, and each mutant of its part's first difference")

func TestLiveExplore(t *testing.T) {
	if *liveExplore == "" {
		t.Skip("-live.explore NAME plays one guided scenario")
	}
	g, err := kitlive.GetScenario(*liveExplore)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := kitlive.ReferenceOutcome(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range ref {
		t.Logf("step %s %s\n%s", st.ID, st.Title, strings.Join(st.Lines, "\n"))
	}
	for _, e := range exercises() {
		if e.name != g.Part {
			continue
		}
		for _, m := range append([]subject{e.solution}, e.mutants...) {
			c, err := kitlive.CompareAgainst(g, ref, m.live)
			if err != nil {
				t.Fatal(err)
			}
			d := "same"
			if c.Difference != nil {
				d = c.Difference.String()
			}
			t.Logf("%-24s %.300s", m.name, d)
		}
	}
}

var liveDump = flag.Bool("live.dump", false, "with -live.explore, print the batches of every .log at the end on the reference")

func TestLiveDump(t *testing.T) {
	if *liveExplore == "" || !*liveDump {
		t.Skip()
	}
	g, err := kitlive.GetScenario(*liveExplore)
	if err != nil {
		t.Fatal(err)
	}
	run, err := scenarios.NewRun(g.On(kitlive.ReferenceParts()), 0)
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := run.Next(); err != nil {
			break
		}
	}
	w := run.World()
	for id := int32(1); ; id++ {
		fsys, err := w.BrokerFS(id)
		if err != nil {
			return
		}
		dirs, _ := fsys.List(cluster.LogDir)
		for _, d := range dirs {
			names, _ := fsys.List(fsys.PathJoin(cluster.LogDir, d))
			for _, n := range names {
				if strings.HasPrefix(d, "__") {
					continue
				}
				if strings.HasSuffix(n, ".index") {
					f, _ := fsys.Open(fsys.PathJoin(cluster.LogDir, d, n))
					b := make([]byte, 64)
					f.ReadAt(b, 0)
					f.Close()
					t.Logf("b%d %s/%s: % x", id, d, n, b)
					continue
				}
				if !strings.HasSuffix(n, ".log") {
					continue
				}
				f, _ := fsys.Open(fsys.PathJoin(cluster.LogDir, d, n))
				size, _ := f.Size()
				b := make([]byte, size)
				f.ReadAt(b, 0)
				f.Close()
				var line []string
				for pos := 0; pos < len(b); {
					h, err := kafkalog.ReadBatchHeader(b[pos:])
					if err != nil {
						line = append(line, "bad")
						break
					}
					line = append(line, fmt.Sprintf("[%d-%d n%d @%d pid%d]", h.BaseOffset, h.LastOffset(), h.NumRecords, pos, h.ProducerID))
					pos += int(h.Size())
				}
				t.Logf("b%d %s/%s: %s", id, d, n, strings.Join(line, " "))
			}
		}
	}
}

var liveMutantName = flag.String("live.mutant", "", "with -live.explore, print the outcome of this mutant (part name) step by step")

func TestLiveMutant(t *testing.T) {
	if *liveExplore == "" || *liveMutantName == "" {
		t.Skip()
	}
	g, err := kitlive.GetScenario(*liveExplore)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exercises() {
		for _, m := range append([]subject{e.solution}, e.mutants...) {
			if e.name+" "+m.name != *liveMutantName {
				continue
			}
			live := kitlive.New(m.live)
			run, err := scenarios.NewRun(g.On(live.ClusterParts()), 0)
			if err != nil {
				t.Fatal(err)
			}
			out, err := kitlive.Outcome(run, live.Faults)
			for _, st := range out {
				t.Logf("step %s\n%s", st.ID, strings.Join(st.Lines, "\n"))
			}
			t.Log(err)
		}
	}
}
