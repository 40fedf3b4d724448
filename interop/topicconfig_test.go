package interop

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestKadmTopicMinInsyncReplicas: kadm creates a topic with the topic
// config min.insync.replicas=2 and one with min.insync.replicas=1 (the
// world's brokers say 2), one partition on brokers 1, 2 and 3 each;
// DescribeConfigs reports both values as DYNAMIC_TOPIC_CONFIG; with
// brokers 2 and 3 stopped the ISR is the leader alone, and a kgo
// producer's acks=all record is refused with NOT_ENOUGH_REPLICAS on the
// first topic and acknowledged on the second (its own 1 overriding the
// brokers' 2).
func TestKadmTopicMinInsyncReplicas(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	adm := kadm.NewClient(lc.kgoClient(t))
	for topic, minISR := range map[string]string{"mis2": "2", "mis1": "1"} {
		resp, err := adm.CreateTopic(ctx, 1, 3, map[string]*string{"min.insync.replicas": kadm.StringPtr(minISR)}, topic)
		require.NoError(t, err)
		require.NoError(t, resp.Err, "create %s", topic)
	}
	_, err := adm.CreateTopic(ctx, 1, 3, map[string]*string{"min.insync.replicas": kadm.StringPtr("0")}, "mis0")
	require.ErrorIs(t, err, kerr.InvalidConfig)

	rcs, err := adm.DescribeTopicConfigs(ctx, "mis2", "mis1")
	require.NoError(t, err)
	got := map[string]string{}
	for _, rc := range rcs {
		require.NoError(t, rc.Err, rc.Name)
		for _, c := range rc.Configs {
			if c.Key == "min.insync.replicas" {
				got[rc.Name] = c.MaybeValue() + " " + c.Source.String()
			}
		}
	}
	want := map[string]string{"mis2": "2 DYNAMIC_TOPIC_CONFIG", "mis1": "1 DYNAMIC_TOPIC_CONFIG"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("min.insync.replicas (-want +got):\n%s", diff)
	}

	lc.world(t, func(w *cluster.World) error {
		if err := w.Stop(2); err != nil {
			return err
		}
		return w.Stop(3)
	})
	isr := func() map[string][]int32 {
		out := map[string][]int32{}
		lc.world(t, func(w *cluster.World) error {
			for _, topic := range []string{"mis2", "mis1"} {
				out[topic] = w.TopicPartitions(topic)[0].ISR
			}
			return nil
		})
		return out
	}
	shrunk := map[string][]int32{"mis2": {1}, "mis1": {1}}
	require.Eventually(t, func() bool { return cmp.Equal(shrunk, isr()) }, 30*time.Second, 50*time.Millisecond, "ISR: %v", isr())

	// seeded with broker 1, the one running; not idempotent, so that the
	// record fails after its one retry instead of waiting for the delivery
	// timeout
	p := lc.kgoClient(t, kgo.SeedBrokers(lc.bootstrap(1)), kgo.RequiredAcks(kgo.AllISRAcks()), kgo.DisableIdempotentWrite(), kgo.RecordRetries(1))
	errs := map[string]error{}
	for _, topic := range []string{"mis2", "mis1"} {
		errs[topic] = p.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: []byte("v")}).FirstErr()
	}
	require.True(t, errors.Is(errs["mis2"], kerr.NotEnoughReplicas), "acks=all to mis2 under ISR [1]: %v", errs["mis2"])
	require.NoError(t, errs["mis1"], "acks=all to mis1 under ISR [1]")
}
