package cluster_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// TestIdempotentRetryIsWrittenOnce: the leader's answer to an acks=all
// produce is lost, the producer retries after request.timeout.ms. Without
// idempotence the record is written twice; with it the leader recognises
// the sequence and answers with the first offset, and the log holds it
// once, on every replica. In the new-leader cases the leader that wrote
// the record is killed before the retry: the new leader knows the sequence
// from the batches' producer fields.
func TestIdempotentRetryIsWrittenOnce(t *testing.T) {
	tests := []struct {
		name         string
		idempotence  bool
		leaderChange bool
		wantValues   []string
		wantOffset   int64
	}{
		{"without idempotence the retry is a duplicate", false, false, []string{"r0", "r0"}, 1},
		{"with idempotence the retry is recognised", true, false, []string{"r0"}, 0},
		{"without idempotence a new leader writes it again", false, true, []string{"r0", "r0"}, 1},
		{"with idempotence a new leader recognises it", true, true, []string{"r0"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := cluster.New(cluster.Config{Seed: 1})
			require.NoError(t, err)
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
			require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all", EnableIdempotence: cluster.Bool(tt.idempotence)}))
			require.NoError(t, w.Deliver(0))
			require.NoError(t, w.Produce("p", "", "r0", 0))
			require.NoError(t, w.Deliver(1))                          // the leader appends and parks the request
			require.NoError(t, w.Partition([]int32{1}, []int32{101})) // its answer will be lost
			require.NoError(t, w.RunFor(1000))                        // the followers copy r0, the HW passes it
			if tt.leaderChange {
				require.NoError(t, w.Kill(1))
			}
			require.NoError(t, w.Heal())
			require.NoError(t, w.RunFor(32000)) // request.timeout.ms, then the retry
			p := w.State().Partitions[0]
			if tt.leaderChange {
				require.NotEqual(t, int32(1), p.Leader, "broker 2 or 3 should lead after broker 1 died")
			}
			for _, l := range p.Logs {
				if l.Role == "down" {
					continue
				}
				var got []string
				for _, r := range l.Records {
					got = append(got, r.Value)
				}
				if diff := cmp.Diff(tt.wantValues, got); diff != "" {
					t.Errorf("broker %d's log after a retried produce (-want +got):\n%s", l.Broker, diff)
				}
			}
			res := w.Producers()[0].Results()[0]
			if !res.Acked || res.Offset != tt.wantOffset {
				t.Errorf("the producer was told acked=%v offset %d (%s), want acked at %d (%s)", res.Acked, res.Offset, res.Error, tt.wantOffset, tt.name)
			}
		})
	}
}

// TestProducerDefaultsFollowTheRules: a producer that leaves acks,
// enable.idempotence and the partitioner unset gets the defaults of its
// rule set's client (Kafka 3.7's ProducerConfig under modern rules, the
// pre-3.0 client under older ones); acks other than all quietly turn the
// default idempotence off, and an explicit enable.idempotence=true with
// them is refused, as postProcessAndValidateIdempotenceConfigs does.
func TestProducerDefaultsFollowTheRules(t *testing.T) {
	type got struct {
		Acks, Partitioner string
		Idempotence       bool
	}
	tests := []struct {
		rules replica.RuleSet
		acks  string
		idem  *bool
		want  got
		err   bool
	}{
		{replica.Modern, "", nil, got{"all", cluster.PartitionerUniformSticky, true}, false},
		{replica.Modern, "1", nil, got{"1", cluster.PartitionerUniformSticky, false}, false},
		{replica.Modern, "0", cluster.Bool(false), got{"0", cluster.PartitionerUniformSticky, false}, false},
		{replica.Modern, "all", cluster.Bool(false), got{"all", cluster.PartitionerUniformSticky, false}, false},
		{replica.Modern, "1", cluster.Bool(true), got{}, true},
		{replica.V2_1, "", nil, got{"1", cluster.PartitionerSticky, false}, false},
		{replica.V2_1, "all", nil, got{"all", cluster.PartitionerSticky, false}, false},
		{replica.V0_11, "all", cluster.Bool(true), got{"all", cluster.PartitionerSticky, true}, false},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("rules %d acks %q idempotence %v", tt.rules, tt.acks, tt.idem)
		if tt.idem != nil {
			name = fmt.Sprintf("rules %d acks %q idempotence %v", tt.rules, tt.acks, *tt.idem)
		}
		t.Run(name, func(t *testing.T) {
			w, err := cluster.New(cluster.Config{Seed: 1, Rules: tt.rules})
			require.NoError(t, err)
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1}))
			err = w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: tt.acks, EnableIdempotence: tt.idem})
			if tt.err {
				require.ErrorIs(t, err, cluster.ErrInvalidConfig)
				return
			}
			require.NoError(t, err)
			c := w.Producers()[0].Config()
			if diff := cmp.Diff(tt.want, got{c.Acks, c.Partitioner, *c.EnableIdempotence}); diff != "" {
				t.Errorf("producer defaults (-want +got):\n%s", diff)
			}
		})
	}
}

// TestIdempotenceFollowsSetProducerAcks: a default idempotence goes off
// with acks=1 and on again with acks=all; an explicit one refuses acks=1.
func TestIdempotenceFollowsSetProducerAcks(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "d", Topic: "t"}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "e", Topic: "t", EnableIdempotence: cluster.Bool(true)}))
	var seen []bool
	for _, acks := range []string{"1", "all"} {
		require.NoError(t, w.SetProducer("d", 0, acks, nil))
		seen = append(seen, *w.Producers()[0].Config().EnableIdempotence)
	}
	if diff := cmp.Diff([]bool{false, true}, seen); diff != "" {
		t.Errorf("default idempotence after set-producer acks=1, then all (-want +got):\n%s", diff)
	}
	require.ErrorIs(t, w.SetProducer("e", 0, "1", nil), cluster.ErrInvalidConfig)
}

// TestIdempotentProducerSurvivesFaults: for any schedule of produces,
// crashes, power cuts and restarts, an idempotent acks=all producer's
// records are never duplicated in the leader's log (each value at most
// once), and after a failed record (a gap in its sequence) later records
// are still acknowledged (the producer bumps its epoch).
func TestIdempotentProducerSurvivesFaults(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		w, err := cluster.New(cluster.Config{Seed: seed, Rules: replica.Modern, UncleanLeaderElectionEnable: seed%2 == 0})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
		require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t"}))
		var script []string
		up := map[int32]bool{1: true, 2: true, 3: true}
		for i := range 40 {
			b := int32(rng.IntN(3) + 1)
			switch k := rng.IntN(6); {
			case k == 0 && up[b]:
				script = append(script, fmt.Sprintf("kill %d", b))
				require.NoError(t, w.Kill(b))
				up[b] = false
			case k == 1 && up[b]:
				script = append(script, fmt.Sprintf("power-cut %d", b))
				require.NoError(t, w.PowerCut(b, false))
				up[b] = false
			case k < 3 && !up[b]:
				script = append(script, fmt.Sprintf("start %d", b))
				require.NoError(t, w.Start(b))
				up[b] = true
			default:
				script = append(script, fmt.Sprintf("produce v%d", i))
				require.NoError(t, w.Produce("p", "", fmt.Sprintf("v%d", i), 0))
			}
			ms := int64(rng.IntN(20000))
			script = append(script, fmt.Sprintf("run %d", ms))
			require.NoError(t, w.RunFor(ms))
		}
		for b := int32(1); b <= 3; b++ {
			if !up[b] {
				require.NoError(t, w.Start(b))
			}
		}
		require.NoError(t, w.RunFor(200000))
		require.NoError(t, w.Produce("p", "", "last", 0))
		require.NoError(t, w.RunFor(5000))
		p := w.State().Partitions[0]
		for _, l := range p.Logs {
			if l.Role != "leader" {
				continue
			}
			count := map[string]int{}
			for _, r := range l.Records {
				if count[r.Value]++; count[r.Value] == 2 {
					t.Errorf("seed %d: %s is twice in the leader's log %v\nscript: %v\nreplay: go test ./cluster -run TestIdempotentProducerSurvivesFaults", seed, r.Value, l.Records, script)
				}
			}
		}
		res := w.Producers()[0].Results()
		if last := res[len(res)-1]; !last.Acked {
			t.Errorf("seed %d: the last record, sent with every broker up, ended %+v\nscript: %v", seed, last, script)
		}
	}
}
