package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
)

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
	if diff := cmp.Diff(want, cluster.DescribeGroup(s, "coop-g", cluster.DescribeMembers)); diff != "" {
		t.Errorf("--describe --members without static members (-want +got):\n%s", diff)
	}
	s = describeState("Empty")
	s.Groups[0].Members = nil
	want = "\nConsumer group 'coop-g' has no active members.\n"
	if diff := cmp.Diff(want, cluster.DescribeGroup(s, "coop-g", cluster.DescribeMembers)); diff != "" {
		t.Errorf("--describe --members of an empty group (-want +got):\n%s", diff)
	}
}
