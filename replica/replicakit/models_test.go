package replicakit

import (
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// These tests check the suite's oracle against answers written down by hand
// from the scenarios and Kafka's tests, and against the records themselves,
// so that the suite cannot be wrong the way a solution is.

func TestMain(m *testing.M) {
	flag.Parse()
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestPointOracleMatchesHandAnswers(t *testing.T) {
	want := []pointOutput{
		{11, true}, {15, true}, {13, false}, {15, true}, {17, false}, {20, true},
		{2, false}, {1, true}, {1, true}, {2, true}, {6, true},
		{102, true}, {4, true}, {6, true}, // answers newer than every own epoch
		{3, true}, {6, true}, {2, true},
	}
	cases := pointKnownAnswers()
	if len(cases) != len(want) {
		t.Fatalf("%d point cases, %d hand answers", len(cases), len(want))
	}
	for i, c := range cases {
		if diff := cmp.Diff(want[i], kafkaPoint(c.in)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestTruncateOracleMatchesHandAnswers(t *testing.T) {
	want := []Follower{
		{epochs(0, 0), 1, 1},
		{epochs(0, 0), 2, 1},
		{epochs(0, 0), 2, 2},
		{epochs(0, 0), 1, 1},
		{epochs(0, 0), 1, 1},
		{epochs(2, 6), 8, 8},
		{epochs(2, 6, 3, 8), 9, 9},
		{epochs(0, 0), 1, 1},
		{nil, 0, 0},
		{epochs(1, 0, 2, 5), 8, 8},
		{nil, 0, 0},
		{nil, 2, 2},
		{nil, 0, 0},
		{epochs(0, 0, 5, 3), 6, 3},
	}
	cases := truncateKnownAnswers()
	if len(cases) != len(want) {
		t.Fatalf("%d truncate cases, %d hand answers", len(cases), len(want))
	}
	for i, c := range cases {
		got, _ := kafkaTruncate(c.follower, c.leader)
		if diff := cmp.Diff(want[i], got, cmp.Comparer(func(a, b Follower) bool {
			return a.LogEndOffset == b.LogEndOffset && a.HighWatermark == b.HighWatermark && formatEpochs(a.Epochs) == formatEpochs(b.Epochs)
		})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestOracleKeepsTheCommonPrefix is log matching, checked on records: in
// every history the suite draws, Kafka's truncation keeps exactly the longest
// common prefix of the follower's and the leader's logs.
func TestOracleKeepsTheCommonPrefix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		for _, fi := range w.followers() {
			r := w.reps[fi]
			got, _ := kafkaTruncate(Follower{Epochs: r.epochs, LogEndOffset: r.leo()}, w.leaderLog())
			logs := twoLogs{follower: r.recs, leader: w.reps[w.leader].recs}
			if got.LogEndOffset != logs.commonPrefix() {
				t.Fatalf("the follower %s truncates to %d, but its log and the leader's %s share %d records", r.recs, got.LogEndOffset, logs.leader, logs.commonPrefix())
			}
		}
	})
}

// TestMultiRoundHistoriesAreDrawn keeps the generator honest: a fair share of
// histories need KIP-279's second round.
func TestMultiRoundHistoriesAreDrawn(t *testing.T) {
	multi, total := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		total++
		for _, fi := range w.followers() {
			r := w.reps[fi]
			if _, asked := kafkaTruncate(Follower{Epochs: r.epochs, LogEndOffset: r.leo()}, w.leaderLog()); len(asked) > 1 {
				multi++
				break
			}
		}
	})
	if multi*20 < total {
		t.Fatalf("only %d of %d drawn histories needed a second round of truncation, want at least 5%%", multi, total)
	}
	t.Logf("%d of %d histories need two or more rounds", multi, total)
}

// TestEveryKindOfAnswerHasItsRule checks that a wrong round is explained by
// the rule of its kind of answer, for each kind the leader can give.
func TestEveryKindOfAnswerHasItsRule(t *testing.T) {
	own := epochs(0, 0, 2, 3, 4, 5)
	cases := []struct {
		name string
		in   pointInput
		got  pointOutput
		want string
	}{
		{"undefined, cut at the HW", pointInput{own, 7, 2, undefinedAnswer}, pointOutput{2, true}, "T7"},
		{"no epoch, kept past the end", pointInput{own, 7, 2, answer(-1, 4)}, pointOutput{7, true}, "T1"},
		{"an older epoch the follower never had, done too early", pointInput{own, 7, 2, answer(3, 6)}, pointOutput{5, true}, "T4"},
		{"an older epoch the follower holds, kept past its end", pointInput{own, 7, 2, answer(2, 4)}, pointOutput{5, true}, "T1"},
		{"the follower's latest epoch, cut too early", pointInput{own, 7, 2, answer(4, 6)}, pointOutput{5, true}, "T2"},
		{"an epoch newer than every own one, asked again", pointInput{own, 7, 2, answer(6, 6)}, pointOutput{7, false}, "T9"},
		{"an epoch newer than every own one, log kept", pointInput{own, 7, 2, answer(6, 6)}, pointOutput{7, true}, "T9"},
		{"an empty cache, log kept", pointInput{nil, 7, 2, answer(1, 3)}, pointOutput{7, true}, "T9"},
	}
	for _, c := range cases {
		rule, why := pointWhy(c.in, kafkaPoint(c.in), c.got)
		if diff := cmp.Diff(c.want, rule.ID); diff != "" || why == "" {
			t.Errorf("%s: %s: rule (-want +got):\n%s%s", c.name, c.in, diff, why)
		}
	}
}
