package scenarios

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

const tiny = `# a comment
name     tiny
group    basics
title    A tiny
  scenario
summary  One step.
cluster  brokers=2 rules=v0.11 min-isr=1 unclean seed=9
partition t-0
marks    page-cache
intro    First paragraph
  continued.

step 0 create
narrate Something happens.
do create-topic name=t replicas=1,2
do add-producer name=p topic=t acks=all keys=alice,bob
do produce p value=m1 key=alice
do run ms=600
question Which?
choice one
choice two
answer 2
why Because.
expect b1 leader [0 m1·e0*] 1/1 EC [(0,0)]
shows ctl leader=1 isr={1,2}
expect p m1=ACK(0)
known reason

branch A after=0 unclean=false min-isr=2
intro Back.

step A1 more
do kill 2
expect violations none
`

func TestParseTiny(t *testing.T) {
	sc, err := Parse("tiny.txt", tiny)
	require.NoError(t, err)
	want := &Scenario{
		Name: "tiny", Group: "basics", Title: "A tiny scenario", Summary: "One step.",
		Intro:  []string{"First paragraph continued."},
		Config: cluster.Config{Seed: 9, Brokers: 2, Rules: replica.V0_11, MinInsyncReplicas: 1, UncleanLeaderElectionEnable: true},
		Topic:  "t", PageCacheMarks: true,
		Steps: []Step{{
			ID: "0", Title: "create", Narration: []string{"Something happens."}, Line: 13,
			Actions: []cluster.Action{
				{Kind: cluster.ActCreateTopic, Partition: -1, Topic: cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2}}}},
				{Kind: cluster.ActAddProducer, Partition: -1, Producer: cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all", Keys: []string{"alice", "bob"}}},
				{Kind: cluster.ActProduce, Partition: -1, Name: "p", Key: "alice", Value: "m1"},
				{Kind: cluster.ActRun, Partition: -1, Ms: 600},
			},
			Question: &Question{Text: "Which?", Choices: []string{"one", "two"}, Answer: 2, Why: "Because."},
			Expect: []Fact{
				{Kind: FactLog, Subject: "b1", Text: "leader [0 m1·e0*] 1/1 EC [(0,0)]"},
				{Kind: FactController, Subject: "ctl", Text: "leader=1 isr={1,2}", Shows: true},
				{Kind: FactClient, Subject: "p", Text: "m1=ACK(0)", Known: "reason"},
			},
		}},
		Branches: []Branch{{
			Name: "A", After: "0", Overrides: "unclean=false min-isr=2", Intro: []string{"Back."},
			Config: cluster.Config{Seed: 9, Brokers: 2, Rules: replica.V0_11, MinInsyncReplicas: 2},
			Steps: []Step{{ID: "A1", Title: "more", Line: 32,
				Actions: []cluster.Action{{Kind: cluster.ActKill, Partition: -1, Broker: 2}},
				Expect:  []Fact{{Kind: FactViolations, Subject: "violations", Text: "none"}},
			}},
		}},
	}
	if diff := cmp.Diff(want, sc, cmpopts.IgnoreUnexported(Fact{})); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	head := "name x\ngroup basics\ntitle x\nsummary x\npartition t-0\n"
	tests := []struct {
		name, text, want string
	}{
		{"no header", "step 0 a\n", "name, group, title and summary are required"},
		{"no steps", head, "at least one step"},
		{"unknown keyword", head + "step 0 a\nfrobnicate x\n", `unknown keyword "frobnicate"`},
		{"outside step", head + "do kill 1\n", "outside a step"},
		{"unknown action", head + "step 0 a\ndo explode 1\n", `unknown action "explode"`},
		{"bad broker", head + "step 0 a\ndo kill one\n", "broker id"},
		{"bad fact subject", head + "step 0 a\nexpect zz 1/1\n", `fact about "zz"`},
		{"bad ctl key", head + "step 0 a\nexpect ctl boss=1\n", `"boss=1" is not a known key=value`},
		{"unknown client", head + "step 0 a\nexpect p m1=ACK(0)\n", `fact about "p"`},
		{"marks without page-cache", head + "step 0 a\nexpect b1 [0 m1*]\n", "page-cache marks"},
		{"bad offsets", head + "step 0 a\nexpect b1 [0 m1] 2-1\n", "is not LEO/HW"},
		{"answer out of range", head + "step 0 a\nquestion q\nchoice a\nchoice b\nanswer 3\nwhy w\n", "an answer among them"},
		{"question without why", head + "step 0 a\nquestion q\nchoice a\nchoice b\nanswer 1\n", "and a why"},
		{"empty choice", head + "step 0 a\nquestion q\nchoice a\nchoice\nanswer 1\nwhy w\n", "two or more choices"},
		{"known without expect", head + "step 0 a\nknown x\n", "known without an expect"},
		{"question without shows", head + "step 0 a\nquestion q\nchoice x\nchoice y\nanswer 1\nwhy w\nexpect b1 1/1\n", "needs a shows line"},
		{"shows before the answer", head + "step 0 a\nquestion q\nchoice x\nchoice y\nshows b1 1/1\n", "comes after the question's answer"},
		{"shows a known divergence", head + "step 0 a\nquestion q\nchoice x\nchoice y\nanswer 1\nwhy w\nshows b1 1/1\nknown k\n", "cannot be a known divergence"},
		{"branch after unknown step", head + "step 0 a\nbranch A after=7\nstep A1 b\n", "after unknown step 7"},
		{"duplicate step", head + "step 0 a\nstep 0 b\n", "step 0 twice"},
		{"bad cluster setting", "cluster wobbly=1\n", `unknown cluster setting "wobbly"`},
		{"bad rules", "cluster rules=v9\n", "rules=v9"},
		{"bad partition", "partition nodash\n", "not topic-N"},
		{"dangling indent", "  continued\n", "continues nothing"},
		{"header after step", head + "step 0 a\ngroup other\n", "after the first step"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.txt", tc.text)
			require.Error(t, err)
			require.True(t, errors.Is(err, ErrSyntax) || strings.Contains(err.Error(), "rules"), "%v", err)
			require.Contains(t, err.Error(), tc.want)
			require.True(t, strings.HasPrefix(err.Error(), "f.txt"), "the error names the file: %v", err)
		})
	}
}

func TestAllScenariosListed(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	var names, groups []string
	for _, sc := range all {
		names, groups = append(names, sc.Name), append(groups, sc.Group)
	}
	want := []string{
		"life-of-a-record", "acks1-loses-acked-writes", "acks-all-and-the-isr", "unclean-leader-election", "your-producer-power-cut",
		"last-isr-member-dies",
		"kip101-part1", "kip101-part2", "kip101-part3", "kip101-part4", "kip279-two-rounds",
		"eager-vs-cooperative", "crash-is-not-a-goodbye", "keys-order-partitions", "retention-and-compaction",
		"read-committed-waits", "zombie-fenced", "aborted-transaction",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("scenario names (-want +got):\n%s", diff)
	}
	for _, g := range groups {
		require.Contains(t, Groups, g)
	}
	for _, g := range Groups {
		require.NotEmpty(t, GroupTitles[g], "group %s has a title", g)
	}
	_, err = Get("nope")
	require.ErrorIs(t, err, ErrUnknown)
}

// FuzzParse: no input makes the parser panic.
func FuzzParse(f *testing.F) {
	f.Add(tiny)
	f.Add("step 0 a\nexpect b1 ~[0 m1] 1/1 EC [(0,0)]\n")
	f.Add("branch A after=0 rules=v0.10\nexpect b1 [\n")
	f.Add("view groups\nevents group\nstep 0 a\ndo create-topic name=t cleanup=compact\ndo produce-many p count=2\nexpect group g E1-1=[t-0, t-1] offset=t-0:-/2\nexpect segments t-0 0:[]\nexpect t-0 [0 a]\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, _ = Parse("fuzz.txt", text)
	})
}
