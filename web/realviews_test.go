package web

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// node returns the path of node, or skips the test without it (unless
// KAFKALIVE_REQUIRE_NODE is set, as CI sets it).
func node(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("KAFKALIVE_REQUIRE_NODE") != "" {
			t.Fatal("node is not installed (KAFKALIVE_REQUIRE_NODE is set)")
		}
		t.Skip("node is not installed: the page's modules are not run")
	}
	return p
}

// TestPageRendersRealUpdates renders every panel of the server's real
// updates with the page's own modules (under node): the default world
// running, with a broker killed, seen from the past, and a guided
// scenario played step by step. A field the modules read that the server
// no longer sends shows as "undefined" and fails it.
func TestPageRendersRealUpdates(t *testing.T) {
	bin := node(t)
	live, err := NewLive()
	require.NoError(t, err)
	var updates []Update
	add := func(at *int64) {
		u, err := live.Update(Focus{Topic: "orders"}, at)
		require.NoError(t, err)
		updates = append(updates, u)
	}
	for i := 0; i < 5; i++ {
		require.NoError(t, live.Advance(700))
		add(nil)
	}
	// a record followed: the update carries its journey
	u, err := live.Update(Focus{Topic: "orders"}, nil)
	require.NoError(t, err)
	require.NotEmpty(t, u.Detail.Logs[0].Records)
	r := u.Detail.Logs[0].Records[0]
	u, err = live.Update(Focus{Topic: "orders", Offset: r.Offset, Value: r.Value}, nil)
	require.NoError(t, err)
	require.NotNil(t, u.Journey)
	updates = append(updates, u)
	require.NoError(t, live.Do(nil, func(w *cluster.World) error { return w.Kill(2) }))
	require.NoError(t, live.Advance(10000))
	add(nil)
	past := int64(1000)
	add(&past)
	_, err = live.StartScenario("kip101-part1", 0, nil)
	require.NoError(t, err)
	add(nil)
	for i := 0; i < 10; i++ {
		if _, err := live.PlayStep(StepRequest{}); err != nil {
			break
		}
		add(nil)
	}
	b, err := json.Marshal(updates)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "updates.json")
	require.NoError(t, os.WriteFile(file, b, 0o644))
	out, err := exec.Command(bin, "jstest/realviews.mjs", file).CombinedOutput()
	require.NoError(t, err, "the page's modules on the server's updates:\n%s", out)
	t.Logf("%s", out)
}
