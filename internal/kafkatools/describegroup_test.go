package kafkatools_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
)

// describeState is a state with one group, written by hand.
func describeState(state string) cluster.State {
	ref := func(p int32) cluster.PartitionRef { return cluster.PartitionRef{Topic: "orders", Partition: p} }
	return cluster.State{Groups: []cluster.GroupInfo{{
		Name: "coop-g", State: state, Generation: 3, Protocol: "cooperative", Assignor: "cooperative-sticky", Coordinator: 2,
		Members: []cluster.MemberInfo{
			{ID: "K1-1", ClientID: "K1", Host: "/10.0.0.100", Partitions: []cluster.PartitionRef{ref(0)}, Assignment: []cluster.PartitionRef{ref(0)}},
			{ID: "K2-2", ClientID: "K2", InstanceID: "k2", Host: "/10.0.0.100", Assignment: []cluster.PartitionRef{}},
		},
		Offsets: []cluster.OffsetInfo{
			{Topic: "orders", Partition: 0, Committed: 12, LogEndOffset: 15, Lag: 3, Member: "K1-1"},
			{Topic: "orders", Partition: 1, Committed: -1, LogEndOffset: 7, Lag: -1},
		},
	}}}
}

func TestDescribeGroupPrintsKafka37sLayout(t *testing.T) {
	tests := []struct {
		name  string
		state string
		group string
		mode  kafkatools.DescribeMode
		want  string
	}{
		{"offsets", "Stable", "coop-g", kafkatools.DescribeOffsets, `
GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID
coop-g          orders          0          12              15              3               K1-1            /10.0.0.100     K1
coop-g          orders          1          -               7               -               -               -               -
`},
		// Kafka 3.7's printMembers: a static member (K2) brings the
		// GROUP-INSTANCE-ID column, every column is followed by a space.
		{"members", "Stable", "coop-g", kafkatools.DescribeMembers, "\n" +
			"GROUP           CONSUMER-ID     GROUP-INSTANCE-ID HOST            CLIENT-ID       #PARTITIONS     \n" +
			"coop-g          K1-1                              /10.0.0.100     K1              1               \n" +
			"coop-g          K2-2            k2                /10.0.0.100     K2              0               \n"},
		{"members verbose", "Stable", "coop-g", kafkatools.DescribeMembersVerbose, "\n" +
			"GROUP           CONSUMER-ID     GROUP-INSTANCE-ID HOST            CLIENT-ID       #PARTITIONS     ASSIGNMENT\n" +
			"coop-g          K1-1                              /10.0.0.100     K1              1               orders(0)\n" +
			"coop-g          K2-2            k2                /10.0.0.100     K2              0               -\n"},
		// printStates: the first column is the coordinator column's width (25).
		{"state", "Stable", "coop-g", kafkatools.DescribeState, "\n" +
			"GROUP                     COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE           #MEMBERS\n" +
			"coop-g                    b2:9092 (2)               cooperative-sticky   Stable          2\n"},
		{"rebalancing warns first", "PreparingRebalance", "coop-g", kafkatools.DescribeMembers, `
Warning: Consumer group 'coop-g' is rebalancing.
` + "\n" +
			"GROUP           CONSUMER-ID     GROUP-INSTANCE-ID HOST            CLIENT-ID       #PARTITIONS     \n" +
			"coop-g          K1-1                              /10.0.0.100     K1              1               \n" +
			"coop-g          K2-2            k2                /10.0.0.100     K2              0               \n"},
		{"unknown group", "Stable", "nope", kafkatools.DescribeOffsets, "\nError: Consumer group 'nope' does not exist.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kafkatools.DescribeGroup(describeState(tt.state).Groups, tt.group, tt.mode, kafkatools.Layout37)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("kafka-consumer-groups --describe (%s) (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestDescribeMembersWithoutStaticMembers: Kafka 3.7's printMembers leaves
// GROUP-INSTANCE-ID out when no member has a group.instance.id, and a
// group without members prints nothing but its note.
func TestDescribeMembersWithoutStaticMembers(t *testing.T) {
	s := describeState("Stable")
	s.Groups[0].Members[1].InstanceID = ""
	want := "\n" +
		"GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     \n" +
		"coop-g          K1-1            /10.0.0.100     K1              1               \n" +
		"coop-g          K2-2            /10.0.0.100     K2              0               \n"
	if diff := cmp.Diff(want, kafkatools.DescribeGroup(s.Groups, "coop-g", kafkatools.DescribeMembers, kafkatools.Layout37)); diff != "" {
		t.Errorf("--describe --members without static members (-want +got):\n%s", diff)
	}
	s = describeState("Empty")
	s.Groups[0].Members = nil
	want = "\nConsumer group 'coop-g' has no active members.\n"
	if diff := cmp.Diff(want, kafkatools.DescribeGroup(s.Groups, "coop-g", kafkatools.DescribeMembers, kafkatools.Layout37)); diff != "" {
		t.Errorf("--describe --members of an empty group (-want +got):\n%s", diff)
	}
}

// consumerState is a state with a classic group and a consumer-protocol
// group (KIP-848) in the middle of a reconciliation: C1 still owns
// orders-1, which the target gives to C2.
func consumerState() cluster.State {
	ref := func(p int32) cluster.PartitionRef { return cluster.PartitionRef{Topic: "orders", Partition: p} }
	s := describeState("Stable")
	s.Groups = append(s.Groups, cluster.GroupInfo{
		Name: "kip848-g", State: "Reconciling", Generation: 5, AssignmentEpoch: 5, Protocol: "cooperative", Assignor: "uniform",
		Coordinator: 3, GroupProtocol: cluster.GroupProtocolConsumer,
		Members: []cluster.MemberInfo{
			{ID: "C1-1", ClientID: "C1", Host: "/10.0.0.100", MemberEpoch: 4, Assignment: []cluster.PartitionRef{ref(0), ref(1)},
				Target: []cluster.PartitionRef{ref(0)}},
			{ID: "C2-2", ClientID: "C2", Host: "/10.0.0.100", MemberEpoch: 5, Assignment: []cluster.PartitionRef{{Topic: "users", Partition: 3}},
				Target: []cluster.PartitionRef{ref(1), {Topic: "users", Partition: 3}}, Pending: []cluster.PartitionRef{ref(1)}},
		},
	})
	return s
}

// TestDescribeGroupPrintsKafka4sLayout: Kafka 4's ConsumerGroupCommand
// prints the epochs of a consumer-protocol group and "-" for a classic
// one's, each member's assignment and target as topic:partitions, and
// the state view with its own column widths.
func TestDescribeGroupPrintsKafka4sLayout(t *testing.T) {
	tests := []struct {
		name  string
		group string
		mode  kafkatools.DescribeMode
		want  string
	}{
		// A group reconciling is rebalancing: Kafka 4's shouldPrintMemberState
		// warns of Assigning and Reconciling as of PreparingRebalance.
		{"members verbose, consumer group", "kip848-g", kafkatools.DescribeMembersVerbose, "\nWarning: Consumer group 'kip848-g' is rebalancing.\n\n" +
			"GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     CURRENT-EPOCH   CURRENT-ASSIGNMENT   TARGET-EPOCH    TARGET-ASSIGNMENT\n" +
			"kip848-g        C1-1            /10.0.0.100     C1              2               4               orders:0,1           5               orders:0\n" +
			"kip848-g        C2-2            /10.0.0.100     C2              1               5               users:3              5               orders:1;users:3\n"},
		{"members verbose, classic group", "coop-g", kafkatools.DescribeMembersVerbose, "\n" +
			"GROUP           CONSUMER-ID     GROUP-INSTANCE-ID HOST            CLIENT-ID       #PARTITIONS     CURRENT-EPOCH   CURRENT-ASSIGNMENT   TARGET-EPOCH    TARGET-ASSIGNMENT\n" +
			"coop-g          K1-1                              /10.0.0.100     K1              1               -               orders:0             -               -\n" +
			"coop-g          K2-2            k2                /10.0.0.100     K2              0               -               -                    -               -\n"},
		{"members, consumer group", "kip848-g", kafkatools.DescribeMembers, "\nWarning: Consumer group 'kip848-g' is rebalancing.\n\n" +
			"GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     \n" +
			"kip848-g        C1-1            /10.0.0.100     C1              2               \n" +
			"kip848-g        C2-2            /10.0.0.100     C2              1               \n"},
		{"state, consumer group", "kip848-g", kafkatools.DescribeState, "\n" +
			"GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                #MEMBERS\n" +
			"kip848-g        b3:9092  (3)              uniform              Reconciling          2\n"},
		{"state verbose, consumer group", "kip848-g", kafkatools.DescribeStateVerbose, "\n" +
			"GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                GROUP-EPOCH     TARGET-ASSIGNMENT-EPOCH   #MEMBERS\n" +
			"kip848-g        b3:9092  (3)              uniform              Reconciling          5               5                         2\n"},
		{"state verbose, classic group", "coop-g", kafkatools.DescribeStateVerbose, "\n" +
			"GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                GROUP-EPOCH     TARGET-ASSIGNMENT-EPOCH   #MEMBERS\n" +
			"coop-g          b2:9092  (2)              cooperative-sticky   Stable               -               -                         2\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kafkatools.DescribeGroup(consumerState().Groups, tt.group, tt.mode, kafkatools.Layout4)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("kafka-consumer-groups --describe (%s) (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestDescribeOffsetsWithoutOffsets: Kafka 3.7's printOffsets prints no
// table for a group with no row to show (shouldPrintMemberState: zero
// rows), only its note.
func TestDescribeOffsetsWithoutOffsets(t *testing.T) {
	s := describeState("Empty")
	s.Groups[0].Members, s.Groups[0].Offsets = nil, nil
	want := "\nConsumer group 'coop-g' has no active members.\n"
	if diff := cmp.Diff(want, kafkatools.DescribeGroup(s.Groups, "coop-g", kafkatools.DescribeOffsets, kafkatools.Layout37)); diff != "" {
		t.Errorf("--describe of an empty group without offsets (-want +got):\n%s", diff)
	}
}
