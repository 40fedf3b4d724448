package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// playWith runs "kafkalive args..." with stdin as the player's input and
// renders it like runCommand, the input shown first.
func playWith(stdin string, args ...string) string {
	old := playInput
	playInput = strings.NewReader(stdin)
	defer func() { playInput = old }()
	out := runCommand(args...)
	if stdin == "" {
		return out
	}
	return fmt.Sprintf("--- stdin %q\n%s", stdin, out)
}

func TestPlayGolden(t *testing.T) {
	tests := []struct {
		name, stdin string
		args        []string
	}{
		{"list", "", []string{"play"}},
		{"list_json", "", []string{"play", "--json"}},
		{"kip101_part3_auto", "", []string{"play", "kip101-part3", "--auto"}},
		// Guesses: right, wrong, a word and an out-of-range number before a
		// right one, then end of input half-way: the rest plays on as --auto.
		{"kip101_part1_guesses", "2\n1\nm2\n9\n2\n", []string{"play", "kip101-part1"}},
		{"unclean_branches_auto", "", []string{"play", "--auto", "unclean-leader-election"}},
		{"eager_vs_cooperative_auto", "", []string{"play", "eager-vs-cooperative", "--auto"}},
		{"crash_is_not_a_goodbye_auto", "", []string{"play", "crash-is-not-a-goodbye", "--auto"}},
		{"unknown", "", []string{"play", "kip999"}},
		{"two_names", "", []string{"play", "kip101-part1", "kip101-part2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkGolden(t, "play/"+tc.name, playWith(tc.stdin, tc.args...))
		})
	}
}

// TestPlayAcceptance is the check: kip101-part3 --auto shows the
// two logs diverging.
func TestPlayAcceptance(t *testing.T) {
	out := playWith("", "play", "kip101-part3", "--auto")
	require.Contains(t, out, "b1 follower [0 m1, 1 m2!, 2 m4*] 3/3 EC []")
	require.Contains(t, out, "b2 leader [0 m1, 1 m3*, 2 m4*] 3/3 EC []")
	require.Contains(t, out, "log-matching: b1 and b2 differ at offset 1")
	require.Contains(t, out, "--- exit 0\n")
}

// uuidPattern matches a java.util.UUID, as a classic member id ends.
const uuidPattern = `[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`

// TestPlayGroupsAcceptance: eager-vs-cooperative
// --auto shows one group stopping and the other reading on, and
// crash-is-not-a-goodbye shows its duplicates.
func TestPlayGroupsAcceptance(t *testing.T) {
	out := playWith("", "play", "eager-vs-cooperative", "--auto")
	step2 := out[strings.Index(out, "--- Step 2:"):strings.Index(out, "--- Step 3-4:")]
	require.Contains(t, step2, "E1 revokes [orders-0 orders-2 orders-4]")
	// Member ids are the client.id and a UUID, as Kafka makes them.
	require.Regexp(t, `member E1-`+uuidPattern+` \(client E1\): no partitions \(rebalancing: gave up every partition \(eager\)`, step2)
	require.Regexp(t, `  member K1-`+uuidPattern+` \(client K1\): orders-0 orders-2 orders-4\n`, step2, "K1 reads on, unchanged")
	require.NotContains(t, step2, "K1 revokes")
	require.Contains(t, out, "--- exit 0\n")

	out = playWith("", "play", "crash-is-not-a-goodbye", "--auto")
	require.Contains(t, out, "W2 processed offsets 10-19 (10 processed before: duplicates)")
	require.Contains(t, out, "> consumer W2 (group workers, running): processed 30, duplicates 10")
	require.Contains(t, out, "--- exit 0\n")
}

// TestPlayEveryScenarioAgrees plays every scenario with --auto and requires
// exit 0: the simulation reached every reference fact not marked known.
func TestPlayEveryScenarioAgrees(t *testing.T) {
	list := playWith("", "play")
	for _, line := range strings.Split(list, "\n") {
		f := strings.Fields(line)
		if !strings.HasPrefix(line, "  ") || len(f) < 2 {
			continue
		}
		out := playWith("", "play", f[0], "--auto")
		require.Contains(t, out, "--- The end ---", f[0])
		require.True(t, strings.HasSuffix(out, "--- exit 0\n"), "%s:\n%s", f[0], out)
		require.NotContains(t, out, "! The simulation differs", f[0])
	}
}

func TestPlayJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"play", "kip101-part4", "--json"}, &stdout, &stderr), stderr.String())
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Len(t, lines, 9, "one line per step 0..8")
	var last struct {
		Step  string `json:"step"`
		State struct {
			Partitions []struct {
				ISR  []int32 `json:"isr"`
				Logs []struct {
					Records []struct {
						Value string `json:"value"`
					} `json:"records"`
				} `json:"logs"`
			} `json:"partitions"`
		} `json:"state"`
		Mismatches int `json:"reference_mismatches"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &last))
	require.Equal(t, "8", last.Step)
	require.Equal(t, 0, last.Mismatches)
	p := last.State.Partitions[0]
	require.Equal(t, []int32{1, 2}, p.ISR)
	for _, l := range p.Logs {
		require.Len(t, l.Records, 2)
		require.Equal(t, "m3", l.Records[1].Value, "offset 1 is m3 on both replicas")
	}
}

// TestPlaySeedIsDeterministic: the same seed twice gives the same output.
func TestPlaySeedIsDeterministic(t *testing.T) {
	a := playWith("", "play", "life-of-a-record", "--auto", "--seed", "7")
	b := playWith("", "play", "life-of-a-record", "--auto", "--seed", "7")
	require.Equal(t, a, b)
}

func TestPlayHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"play", "-h"}, &stdout, &stderr))
	require.Contains(t, stdout.String(), "--auto")
}
