package kafkatools_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
)

// listedGroups are a Stable classic group, a Reconciling consumer group
// and an Empty classic group with a long id.
func listedGroups() []cluster.GroupInfo {
	gs := consumerState().Groups
	return append(gs, cluster.GroupInfo{Name: "offsets-only-flink-source", State: "Empty", Coordinator: 1})
}

// TestListGroups: kafka-consumer-groups --list as Kafka 4's
// printGroupInfo (GROUP as wide as the longest id plus 10, TYPE and STATE
// 20 wide, each padded) and Kafka 3.7's printGroupStates (GROUP, STATE)
// print it, filtered by type and state, case-insensitively.
func TestListGroups(t *testing.T) {
	// g pads to the longest id listed (25), plus 10; g15 when the ids
	// listed are short (at least 15, plus 10).
	g := func(s string) string { return s + strings.Repeat(" ", 25+10-len(s)) }
	g15 := func(s string) string { return s + strings.Repeat(" ", 15+10-len(s)) }
	c := func(s string) string { return " " + s + strings.Repeat(" ", 20-len(s)) }
	for _, tc := range []struct {
		name   string
		args   string
		layout kafkatools.Layout
		want   string
	}{
		{"plain", "--list", kafkatools.Layout4, "coop-g\nkip848-g\noffsets-only-flink-source\n"},
		{"types", "--list --type", kafkatools.Layout4,
			g("GROUP") + c("TYPE") + "\n" + g("coop-g") + c("Classic") + "\n" + g("kip848-g") + c("Consumer") + "\n" + g("offsets-only-flink-source") + c("Classic") + "\n"},
		{"consumer groups", "--list --type consumer", kafkatools.Layout4, g15("GROUP") + c("TYPE") + "\n" + g15("kip848-g") + c("Consumer") + "\n"},
		{"classic groups with their states", "--list --type=CLASSIC --state", kafkatools.Layout4,
			g("GROUP") + c("TYPE") + c("STATE") + "\n" + g("coop-g") + c("Classic") + c("Stable") + "\n" +
				g("offsets-only-flink-source") + c("Classic") + c("Empty") + "\n"},
		{"states filtered", "--list --state empty,reconciling", kafkatools.Layout4,
			g("GROUP") + c("STATE") + "\n" + g("kip848-g") + c("Reconciling") + "\n" + g("offsets-only-flink-source") + c("Empty") + "\n"},
		{"nothing kept", "--list --type share", kafkatools.Layout4, g15("GROUP") + c("TYPE") + "\n"},
		{"3.7 states", "--list --state", kafkatools.Layout37,
			"GROUP                     STATE\ncoop-g                    Stable\nkip848-g                  Reconciling\noffsets-only-flink-source Empty\n"},
		{"3.7 one state", "--list --state Stable", kafkatools.Layout37, "GROUP           STATE\ncoop-g          Stable\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := kafkatools.ListGroups(&b, listedGroups(), strings.Fields(tc.args), tc.layout); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("kafka-consumer-groups %s (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}

// TestListGroupsRefusesWhatKafkaRefuses: an unknown type or state is
// refused with Kafka's message listing the valid ones, and Kafka 3.7's
// tool has no --type.
func TestListGroupsRefusesWhatKafkaRefuses(t *testing.T) {
	for _, tc := range []struct {
		args   string
		layout kafkatools.Layout
		want   string
	}{
		{"--list --type streams", kafkatools.Layout4, "usage: Invalid types list 'streams'. Valid types are: Consumer, Classic, Share"},
		{"--list --state stable,Bored", kafkatools.Layout4,
			"usage: Invalid state list 'stable,Bored'. Valid states are: PreparingRebalance, CompletingRebalance, Stable, Dead, Empty, Assigning, Reconciling"},
		{"--list --type consumer", kafkatools.Layout37, "usage: type is not a recognized option"},
	} {
		var b strings.Builder
		err := kafkatools.ListGroups(&b, listedGroups(), strings.Fields(tc.args), tc.layout)
		if !errors.Is(err, kafkatools.ErrUsage) || err.Error() != tc.want || b.Len() > 0 {
			t.Errorf("%s: %v (printed %q), want %q", tc.args, err, b.String(), tc.want)
		}
	}
}
