package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTheTerminalTakesQuotedValues types produce with a quoted value on
// the page: the record's value is the two words, the replay quotes it
// again, and an unclosed quote is a clear error that does nothing.
func TestTheTerminalTakesQuotedValues(t *testing.T) {
	hs, live := newTestServer(t)
	require.NoError(t, live.Advance(3000))
	code, body := post(t, hs, "/api/exec", map[string]any{"line": `produce checkout "hello world" --key alice`})
	require.Equal(t, http.StatusOK, code, body)
	if r := decode[ExecResult](t, body); !r.OK {
		t.Fatalf("produce with a quoted value: %s", r.Output)
	}
	require.NoError(t, live.Advance(500))
	found := false
	for p := int32(0); p < 3 && !found; p++ {
		u := getUpdate(t, hs.URL, fmt.Sprintf("?topic=orders&partition=%d", p))
		for _, l := range u.Detail.Logs {
			for _, r := range l.Records {
				found = found || r.Value == "hello world" && r.Key == "alice"
			}
		}
	}
	if !found {
		t.Errorf("no record alice=\"hello world\" in orders after the produce")
	}
	live.mu.Lock()
	script := live.replayCommand()
	live.mu.Unlock()
	if want := `echo 'produce checkout '\''hello world'\'' --key alice'; `; !strings.Contains(script, want) {
		t.Errorf("the replay %q does not hold %q", script, want)
	}
	code, body = post(t, hs, "/api/exec", map[string]any{"line": `produce checkout "hello`})
	require.Equal(t, http.StatusOK, code, body)
	if r := decode[ExecResult](t, body); r.OK || r.Output != "Error: unclosed quote: the \" at column 18 is never closed\n" {
		t.Errorf("an unclosed quote: ok %v, printed %q", r.OK, r.Output)
	}
}
