package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

// TestIdempotentRetryIsWrittenOnce: the leader's answer to a produce is
// lost, the producer retries after request.timeout.ms. Without idempotence
// the record is written twice; with it the leader recognises the sequence
// and answers with the first offset, and the log holds it once, on every
// replica (the sequences travel in the batches' producer fields).
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
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1}))
			require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "1", EnableIdempotence: tt.idempotence}))
			require.NoError(t, w.Deliver(0))
			require.NoError(t, w.Produce("p", "", "r0", 0))
			require.NoError(t, w.Deliver(1))                     // the leader appends and answers
			require.NoError(t, w.Drop([]int32{1}, []int32{101})) // the answer is lost
			require.NoError(t, w.RunFor(32000))                  // request.timeout.ms, then the retry
			p := w.State().Partitions[0]
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
				t.Errorf("the producer was told acked=%v offset %d, want acked at %d (%s)", res.Acked, res.Offset, tt.wantOffset, tt.name)
			}
		})
	}
}
