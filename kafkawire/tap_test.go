package kafkawire_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// recordingTap records the exchanges of the clients it is asked for.
type recordingTap struct {
	mu     sync.Mutex
	client string
	lines  []string
	done   chan struct{}
}

func (r *recordingTap) Tapping(ci kafkawire.ConnInfo) bool { return ci.ClientID == r.client }

func (r *recordingTap) Exchanged(x kafkawire.Exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line := fmt.Sprintf("%s v%d by %s:", kmsg.NameForKey(x.Header.APIKey), x.Header.APIVersion, x.Conn.ClientID)
	switch {
	case x.Response != nil:
		line += " answered " + kmsg.NameForKey(x.Response.Key())
	case x.Closed != "":
		line += " closed: " + x.Closed
	default:
		line += " no response"
	}
	if x.Latency() < 0 || x.Received.IsZero() {
		line += fmt.Sprintf(" (bad times %s %s)", x.Received, x.Answered)
	}
	r.lines = append(r.lines, line)
	select {
	case r.done <- struct{}{}:
	default:
	}
}

func (r *recordingTap) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

// TestTapSeesTheExchangesAskedFor: a tap sees each request of the clients
// it asks for with how it ended (a response, none for acks=0, the
// connection closed), and nothing of the others.
func TestTapSeesTheExchangesAskedFor(t *testing.T) {
	tap := &recordingTap{client: "raw-client", done: make(chan struct{}, 100)}
	srv, mem, _ := serve(t, kafkawire.Config{Tap: tap})
	mem.CreateTopic("w")
	other := dial(t, srv, 1)
	other.f = kmsg.NewRequestFormatter(kmsg.FormatterClientID("someone-else"))
	other.roundTrip(metadata(12, "w"))
	c := dial(t, srv, 1)
	c.roundTrip(apiVersions(3))
	c.roundTrip(metadata(12, "w"))
	c.roundTrip(produce(9, -1, "w", batch("a")))
	require.NoError(t, c.write(c.frame(produce(9, 0, "w", batch("b")))))
	c.sent = c.sent[:0]
	c.roundTrip(apiVersions(3))
	mem.FailProduce("w", 7)
	c.send(produce(9, 0, "w", batch("lost")))
	c.requireClosed()
	want := []string{
		"ApiVersions v3 by raw-client: answered ApiVersions",
		"Metadata v12 by raw-client: answered Metadata",
		"Produce v9 by raw-client: answered Produce",
		"Produce v9 by raw-client: no response",
		"ApiVersions v3 by raw-client: answered ApiVersions",
		"Produce v9 by raw-client: closed: ",
	}
	deadline := time.After(patience)
	for len(tap.seen()) < len(want) {
		select {
		case <-tap.done:
		case <-deadline:
			t.Fatalf("the tap saw %q", tap.seen())
		}
	}
	got := tap.seen()
	// the close's reason is the server's log's wording, not this test's
	last := want[len(want)-1]
	require.Greater(t, len(got[len(got)-1]), len(last), "a reason for the close")
	got[len(got)-1] = got[len(got)-1][:len(last)]
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("exchanges (-want +got):\n%s", diff)
	}
}
