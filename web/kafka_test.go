package web

import (
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
)

// TestCutClient: "cut client N" cuts client N from every broker (or those
// listed), Kafka's State answers Silent on a cut link and Serving again
// after "heal"; a stopped broker refuses.
func TestCutClient(t *testing.T) {
	l, err := NewLive()
	require.NoError(t, err)
	k := NewKafka(l)
	term := NewTerminal(l)
	conn := kafkawire.ConnInfo{ID: 1, Broker: 1, ClientID: "kgo"}
	req := kmsg.NewPtrMetadataRequest()
	k.Submit(1, conn, req, req.AppendTo(nil)) // numbers client "kgo" 1
	states := func() []kafkawire.State {
		k.pump()
		var out []kafkawire.State
		for id := int32(1); id <= 3; id++ {
			c := conn
			c.Broker = id
			out = append(out, k.State(id, c))
		}
		return out
	}
	require.Equal(t, []kafkawire.State{kafkawire.Serving, kafkawire.Serving, kafkawire.Serving}, states())
	require.NoError(t, term.Exec("cut client 1 2", nil, io.Discard))
	if diff := cmp.Diff([]kafkawire.State{kafkawire.Serving, kafkawire.Silent, kafkawire.Serving}, states()); diff != "" {
		t.Errorf("after cut client 1 2 (-want +got):\n%s", diff)
	}
	require.NoError(t, term.Exec("cut client 1", nil, io.Discard))
	require.Equal(t, []kafkawire.State{kafkawire.Silent, kafkawire.Silent, kafkawire.Silent}, states())
	require.NoError(t, term.Exec("heal", nil, io.Discard))
	require.NoError(t, term.Exec("stop 3", nil, io.Discard))
	require.Equal(t, []kafkawire.State{kafkawire.Serving, kafkawire.Serving, kafkawire.Refusing}, states())
	require.ErrorIs(t, term.Exec("cut client x", nil, io.Discard), ErrUsage)
	require.NoError(t, l.Look(nil, func(w *cluster.World) error {
		require.False(t, w.LinkCut(1, cluster.ExternalNode(1)))
		return nil
	}))
}
