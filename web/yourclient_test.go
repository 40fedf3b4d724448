package web

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/scenarios"
)

// externalProduce hands the world shown an acks=1 produce of values to
// topic's partition 0 from external client 1, as a user's kcat sends it.
func externalProduce(t *testing.T, l *Live, topic string, values ...string) {
	t.Helper()
	var b kafkalog.RecordBatch
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
	for i, v := range values {
		b.AppendRecord(int64(i), 0, nil, []byte(v))
	}
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(9)
	req.Acks, req.TimeoutMillis = 1, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Records = b.AppendTo(nil)
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	require.NoError(t, l.Do(nil, func(w *cluster.World) error {
		_, err := w.External(cluster.ExternalRequest{Client: 1, ClientID: "kcat", Remote: "127.0.0.1:5555", Broker: 1, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
		return err
	}))
}

// TestYourProducerWaitsForYourClient: on a page with Kafka listeners the
// step of "Your producer" that waits for the user's client waits for it,
// even before any client has spoken: a guess made meanwhile is held (the
// request answers ErrWaiting, nothing is played), the step says which
// clients the brokers have seen, and once the client's five records are
// there the step plays by itself with the held guess, no simulated
// producer in its place. A simulated producer plays only when asked.
func TestYourProducerWaitsForYourClient(t *testing.T) {
	for _, standIn := range []bool{false, true} {
		l, err := NewLive()
		require.NoError(t, err)
		NewKafka(l)
		_, err = l.StartScenario("your-producer-power-cut", 1, nil)
		require.NoError(t, err)
		s, err := l.PlayStep(StepRequest{Answer: 2, Hold: true})
		require.ErrorIs(t, err, scenarios.ErrWaiting)
		require.Equal(t, 1, s.Step, "nothing was played")
		require.Equal(t, 2, s.Play.Next.Wait.Held, "the guess is held")
		for range 5 {
			require.NoError(t, l.Advance(100))
		}
		s = l.Session()
		require.Equal(t, 1, s.Step, "the step still waits: no simulated producer sent for the user")
		require.Empty(t, s.Play.Next.Wait.Clients)
		if standIn {
			s, err = l.PlayStep(StepRequest{Answer: 2, StandIn: true})
			require.NoError(t, err)
			require.Equal(t, 2, s.Step)
			require.True(t, s.Play.Played.StandIn, "a simulated producer sent the records, as asked")
			continue
		}
		externalProduce(t, l, "clicks", "r1", "r2", "r3")
		require.NoError(t, l.Advance(100))
		s = l.Session()
		require.Equal(t, 1, s.Step, "three of five records: the step waits")
		require.Equal(t, []string{"kcat from 127.0.0.1:5555"}, s.Play.Next.Wait.Clients, "the page says it has seen the client")
		require.Equal(t, int64(3), s.Play.Next.Wait.Have)
		externalProduce(t, l, "clicks", "r4", "r5")
		for i := 0; i < 10 && l.Session().Step == 1; i++ {
			require.NoError(t, l.Advance(100))
		}
		s = l.Session()
		require.Equal(t, 2, s.Step, "the held step played once the records were there")
		p := s.Play.Played
		require.Equal(t, 2, p.Chosen, "with the held guess")
		require.False(t, p.StandIn, "the user's records, no simulated producer")
		require.Empty(t, p.Failed, "the scenario's facts hold with the user's records")
	}
}

// TestThePastShowsOnlyTheClientsSeenByThen: a moment of the timeline before
// a Kafka client's first request does not list it.
func TestThePastShowsOnlyTheClientsSeenByThen(t *testing.T) {
	l, err := NewLive()
	require.NoError(t, err)
	NewKafka(l)
	require.NoError(t, l.Advance(2000))
	before := int64(1000)
	require.NoError(t, l.Do(nil, func(w *cluster.World) error {
		return w.CreateTopic(cluster.TopicSpec{Name: "clicks", Partitions: 1, ReplicationFactor: 3})
	}))
	require.NoError(t, l.Advance(500))
	externalProduce(t, l, "clicks", "r1")
	require.NoError(t, l.Advance(500))
	now, err := l.View(Focus{}, nil)
	require.NoError(t, err)
	require.Len(t, now.Kafka.Clients, 1, "the client that produced")
	past, err := l.View(Focus{}, &before)
	require.NoError(t, err)
	require.True(t, past.Past)
	require.Empty(t, past.Kafka.Clients, "at t=1000 ms no client had spoken")
}

// TestKafkaClientsNoticeSaysWhatHappened: when the world shown is
// replaced the Kafka clients' panel says why their connections closed: a
// scenario started, the scenario was left for the live cluster, a reset.
func TestKafkaClientsNoticeSaysWhatHappened(t *testing.T) {
	l, err := NewLive()
	require.NoError(t, err)
	k := NewKafka(l)
	notice := func() string {
		k.pump()
		v, err := l.View(Focus{}, nil)
		require.NoError(t, err)
		return v.Kafka.Notice
	}
	require.Empty(t, notice())
	_, err = l.StartScenario("life-of-a-record", 0, nil)
	require.NoError(t, err)
	require.Contains(t, notice(), "a guided scenario started")
	l.LeaveScenario()
	require.Contains(t, notice(), "the scenario was left for the live cluster")
	require.NoError(t, l.Reset())
	require.Contains(t, notice(), "reset")
}
