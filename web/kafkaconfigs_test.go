package web

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestKafkaConfigsAltersOnTheTimeline alters a topic's configs with
// kafka-configs: the alteration is an alter-configs action of the world,
// which a moment rebuilt from the timeline replays; from a moment of the
// past it forks a new future, and a refused one (as a refused kafka-topics
// --create) leaves the future as it was.
func TestKafkaConfigsAltersOnTheTimeline(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	require.NoError(t, live.Advance(5000))
	term := NewTerminal(live)
	var out bytes.Buffer
	require.NoError(t, term.Exec("kafka-configs --alter --topic orders --add-config retention.ms=60000,cleanup.policy=[compact,delete]", nil, &out), out.String())
	require.NoError(t, live.Advance(3000))
	w := world(t, live)
	acts := w.Actions()
	var altered *cluster.Action
	for i := range acts {
		if acts[i].Kind == cluster.ActAlterConfigs {
			altered = &acts[i]
		}
	}
	require.NotNil(t, altered, "no alter-configs action on the timeline")
	if altered.Name != "orders" || altered.Value != "cleanup.policy=compact,delete,retention.ms=60000" {
		t.Errorf("the action is %s", altered)
	}
	want, err := w.TopicConfigs("orders")
	require.NoError(t, err)
	replayed, err := w.AtTime(w.NowMs())
	require.NoError(t, err)
	got, err := replayed.TopicConfigs("orders")
	require.NoError(t, err)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("orders' configs rebuilt from the timeline (-want +got):\n%s", diff)
	}

	past := int64(6000)
	for _, line := range []string{
		"kafka-configs --alter --topic orders --add-config retention.ms=soon",
		"kafka-configs --alter --topic orders --delete-config segment.bytes",
		"kafka-topics --create --topic orders",
	} {
		out.Reset()
		f, err := live.ExecLine(context.Background(), term, line, &past, &out)
		if err == nil || f != nil || world(t, live).NowMs() != 8000 {
			t.Errorf("%s from t=6000, refused: error %v, fork %v, the world now at %d ms, want 8000\n%s", line, err, f, world(t, live).NowMs(), out.String())
		}
	}
	out.Reset()
	f, err := live.ExecLine(context.Background(), term, "kafka-configs --alter --topic profiles --add-config retention.ms=90000", &past, &out)
	require.NoError(t, err, out.String())
	if f == nil || world(t, live).NowMs() != 6000 {
		t.Errorf("an alter from t=6000 forks no future: fork %v, the world at %d ms\n%s", f, world(t, live).NowMs(), out.String())
	}
	configs, err := world(t, live).TopicConfigs("profiles")
	require.NoError(t, err)
	for _, e := range configs {
		if e.Name == "retention.ms" && (e.Value != "90000" || e.Source != "DYNAMIC_TOPIC_CONFIG") {
			t.Errorf("after the alter from the past, profiles' retention.ms=%s from %s", e.Value, e.Source)
		}
	}
}
