package scenarios

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

const waitHead = "name w\ngroup basics\ntitle t\nsummary s\nsource Kafka 3.7\nstep 0 topic\ndo create-topic name=t replicas=1,2,3\n"

func TestWaitSyntax(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"no stand-in", "step 1 w\nwait external topic=t records=2\n", "needs standin"},
		{"stand-in without wait", "step 1 w\nstandin run ms=10\n", "standin without a wait"},
		{"unknown topic", "step 1 w\nwait external topic=u records=2\nstandin run ms=10\n", "no create-topic"},
		{"no count", "step 1 w\nwait external topic=t\nstandin run ms=10\n", "records=N"},
		{"twice", "step 1 w\nwait external topic=t records=1\nwait external topic=t records=1\n", "waits once"},
		{"after an action", "step 1 w\ndo run ms=10\nwait external topic=t records=1\n", "waits once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.txt", waitHead+tc.text)
			require.ErrorIs(t, err, ErrSyntax)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestWait: a step that waits plays its stand-in when no external client
// has spoken to the world; once one has, it refuses with ErrWaiting (and
// plays nothing) until the topic holds its records, then plays without
// the stand-in.
func TestWait(t *testing.T) {
	sc, err := Parse("f.txt", waitHead+"do run ms=600\nstep 1 w\nwait external topic=t records=2\n"+
		"standin add-producer name=you topic=t acks=1\nstandin produce-many you count=2\nstandin run ms=100\nexpect t-0 2/2\n")
	require.NoError(t, err)
	require.Equal(t, &Wait{Topic: "t", Records: 2, StandIn: sc.Steps[1].Wait.StandIn}, sc.Steps[1].Wait)
	require.Len(t, sc.Steps[1].Wait.StandIn, 4, "add-producer, two produce lines, run")
	require.Empty(t, sc.Steps[1].Actions)

	// no client: the stand-in plays
	r, err := NewRun(sc, 0)
	require.NoError(t, err)
	_, err = r.Next()
	require.NoError(t, err)
	wt, have := r.Waiting()
	require.Equal(t, sc.Steps[1].Wait, wt)
	require.Equal(t, int64(0), have)
	o, err := r.Next()
	require.NoError(t, err)
	require.Empty(t, o.Failed())
	require.Len(t, o.After.Producers, 1, "the stand-in producer")

	// a client: the step waits for its records
	r, err = NewRun(sc, 0)
	require.NoError(t, err)
	_, err = r.Next()
	require.NoError(t, err)
	external(t, r.World(), kmsg.NewPtrMetadataRequest())
	_, err = r.Next()
	require.True(t, errors.Is(err, ErrWaiting), "%v", err)
	st, _ := r.Peek()
	require.Equal(t, "1", st.ID, "nothing was played")
	produce(t, r.World(), "t", "a", "b")
	wt, have = r.Waiting()
	require.Nil(t, wt)
	require.Equal(t, int64(2), have)
	o, err = r.Next()
	require.NoError(t, err)
	require.Empty(t, o.After.Producers, "no stand-in")
	var got []string
	for _, p := range o.After.Partitions {
		for _, rec := range p.Logs[0].Records {
			got = append(got, rec.Value)
		}
	}
	if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
		t.Errorf("the client's records (-want +got):\n%s", diff)
	}
}

// external hands req to w as external client 1's request to broker 1 and
// runs the world until it is answered.
func external(t *testing.T, w *cluster.World, req kmsg.Request) kmsg.Response {
	t.Helper()
	req.SetVersion(req.MaxVersion())
	if p, ok := req.(*kmsg.ProduceRequest); ok {
		p.SetVersion(9)
	}
	id, err := w.External(cluster.ExternalRequest{Client: 1, ClientID: "test", Broker: 1, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
	require.NoError(t, err)
	for range 100 {
		for _, a := range w.ExternalAnswers() {
			if a.ID == id {
				return a.Response
			}
		}
		require.NoError(t, w.RunFor(10))
	}
	t.Fatalf("no answer to %T", req)
	return nil
}

// produce sends values to topic's partition 0 as one acks=1 batch.
func produce(t *testing.T, w *cluster.World, topic string, values ...string) {
	t.Helper()
	var b kafkalog.RecordBatch
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
	for i, v := range values {
		b.AppendRecord(int64(i), w.NowMs(), nil, []byte(v))
	}
	req := kmsg.NewPtrProduceRequest()
	req.Acks, req.TimeoutMillis = 1, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Records = b.AppendTo(nil)
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp := external(t, w, req).(*kmsg.ProduceResponse)
	require.Equal(t, int16(0), resp.Topics[0].Partitions[0].ErrorCode)
}

// TestHoldForClients: a page with listeners waits for the user's client
// even before it has spoken (ErrWaiting, nothing played), and plays the
// stand-in only when asked to (NextStandIn).
func TestHoldForClients(t *testing.T) {
	sc, err := Parse("f.txt", waitHead+"do run ms=600\nstep 1 w\nwait external topic=t records=2\n"+
		"standin add-producer name=you topic=t acks=1\nstandin produce-many you count=2\nstandin run ms=100\nexpect t-0 2/2\n")
	require.NoError(t, err)
	r, err := NewRun(sc, 0)
	require.NoError(t, err)
	r.HoldForClients = true
	_, err = r.Next()
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, r.World().RunFor(100))
		_, err = r.Next()
		require.ErrorIs(t, err, ErrWaiting, "no client has spoken, and the page holds the step for one")
	}
	st, _ := r.Peek()
	require.Equal(t, "1", st.ID, "nothing was played")
	o, err := r.NextStandIn()
	require.NoError(t, err)
	require.Empty(t, o.Failed())
	require.Len(t, o.After.Producers, 1, "the stand-in producer, asked for")
}
