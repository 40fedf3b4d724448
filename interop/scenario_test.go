package interop

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/scenarios"
	"github.com/kafkalive/kafkalive/web"
)

// scenarioOps are the matrix cells of TestScenarioYourProducer.
var scenarioOps = []string{"scenario: your-producer-power-cut"}

// TestScenarioYourProducer plays the guided scenario
// your-producer-power-cut as the page does, with kcat as the user's
// client: the step that waits refuses to be played (ErrWaiting) while
// kcat has sent nothing, kcat runs the one-liner the narration gives (the
// address swapped for this test's listener) and is acknowledged, the step
// then plays without its stand-in producer, and every step's facts hold
// with kcat's records: broker 1 had the five records, the new leader has
// none, and kcat -C reads nothing back.
func TestScenarioYourProducer(t *testing.T) {
	t.Parallel()
	const name = "your-producer-power-cut"
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		missing(t, "kcat", "kcat", scenarioOps)
	}
	sc, err := scenarios.Get(name)
	require.NoError(t, err)
	var oneLiner string
	for _, st := range sc.Steps {
		if st.Wait == nil {
			continue
		}
		for _, n := range st.Narration {
			if strings.HasPrefix(n, "printf ") && strings.Contains(n, "| kcat ") {
				oneLiner = n
			}
		}
	}
	require.NotEmpty(t, oneLiner, "the waiting step's narration gives a kcat one-liner")

	lc := startLive(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	op(t, "kcat", scenarioOps[0], func(t *testing.T) {
		_, err := lc.live.StartScenario(name, 0, nil)
		require.NoError(t, err)
		play := func(answer int) *web.PlayedStep {
			t.Helper()
			s, err := lc.live.PlayStep(web.StepRequest{Answer: answer})
			require.NoError(t, err)
			p := s.Play.Played
			require.Empty(t, p.Failed, "step %s: facts the world did not reach", p.ID)
			if p.Answer != 0 {
				require.Equal(t, p.Answer, p.Chosen, "step %s", p.ID)
			}
			return p
		}
		play(0) // the topic, the cut

		// kcat talks to the scenario's world: the step that waits refuses
		// to be played until its records are there
		out, err := exec.CommandContext(ctx, kcat, "-b", lc.bootstrap(1), "-L").CombinedOutput()
		require.NoError(t, err, "kcat -L:\n%s", out)
		require.Contains(t, string(out), `topic "clicks" with 1 partitions`, "the scenario's world")
		require.Eventually(t, func() bool {
			var n int
			require.NoError(t, lc.live.Look(nil, func(w *cluster.World) error { n = len(w.ExternalClients()); return nil }))
			return n > 0
		}, 10*time.Second, 20*time.Millisecond)
		_, err = lc.live.PlayStep(web.StepRequest{})
		require.True(t, errors.Is(err, scenarios.ErrWaiting), "a step played before the client's records: %v", err)

		line := scenarios.Fill(oneLiner, lc.bootstrap(1))
		line = strings.Replace(line, "| kcat ", "| "+kcat+" ", 1)
		out, err = exec.CommandContext(ctx, "bash", "-c", line).CombinedOutput()
		require.NoError(t, err, "%s:\n%s", line, out)
		require.Empty(t, strings.TrimSpace(string(out)), "kcat says nothing when every record is acknowledged")

		p := play(2) // can a consumer read them? no: the high watermark is 0
		require.Equal(t, "1", p.ID)
		var st cluster.State
		var clients []cluster.ExternalClient
		require.NoError(t, lc.live.Look(nil, func(w *cluster.World) error {
			st, clients = w.State(), w.ExternalClients()
			return nil
		}))
		require.Empty(t, st.Producers, "the stand-in producer did not play: kcat's records are the ones in the log")
		var acked int
		for _, c := range clients {
			acked += c.Acked
		}
		require.Equal(t, 5, acked, "records acknowledged to kcat, as the brokers answered")
		var values []string
		for _, pi := range st.Partitions {
			if pi.Topic == "clicks" {
				for _, r := range pi.Logs[0].Records {
					values = append(values, r.Value)
				}
			}
		}
		if diff := cmp.Diff([]string{"r1", "r2", "r3", "r4", "r5"}, values); diff != "" {
			t.Errorf("broker 1's log (-want +got):\n%s", diff)
		}

		play(2) // the power cut: the new leader has none of them
		play(2) // broker 1 back: it has none either
		out, err = exec.CommandContext(ctx, kcat, "-b", lc.bootstrap(2), "-C", "-t", "clicks", "-e", "-q").CombinedOutput()
		require.NoError(t, err, "kcat -C:\n%s", out)
		require.Empty(t, strings.TrimSpace(string(out)), "kcat reads back none of the records it was told were stored")
	})
}
