package cluster_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// TestOwnMembersAreDescribedByTheirProcesses: a member of the world's own
// consumers is described by its process (what it fetches, why it reads
// nothing), whichever way its coordinator learnt it: from its JoinGroup or
// heartbeat, or from the group's records when the coordinator moved. The
// coordinator keeps the host DescribeGroups shows for them (/10.0.0.100),
// as the records carry it; that host must not make them outside clients.
// A crashed one's partitions wait for its session to expire, which the
// page and the explorer's settle rely on.
func TestOwnMembersAreDescribedByTheirProcesses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		protocol string
		move     bool
	}{
		{"classic", "", false},
		{"classic, loaded by a new coordinator", "", true},
		{"consumer protocol", cluster.GroupProtocolConsumer, false},
		{"consumer protocol, loaded by a new coordinator", cluster.GroupProtocolConsumer, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := cluster.New(cluster.Config{Seed: 5, OffsetsTopicNumPartitions: 3, Rules: replica.Modern})
			require.NoError(t, err)
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 4}))
			require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", RecordsPerSec: 20}))
			for _, c := range []string{"c1", "c2"} {
				require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: c, Group: "g", Topics: []string{"t"}, GroupProtocol: tc.protocol}))
			}
			require.NoError(t, w.RunFor(20_000))
			if tc.move {
				g, ok := groupG(w.State())
				require.True(t, ok)
				require.NoError(t, w.Kill(g.Coordinator))
				require.NoError(t, w.RunFor(20_000))
				after, ok := groupG(w.State())
				require.True(t, ok)
				require.NotEqual(t, g.Coordinator, after.Coordinator, "the coordinator moved")
			}
			require.NoError(t, w.CrashConsumer("c2"))
			require.NoError(t, w.RunFor(1_000))
			g, ok := groupG(w.State())
			require.True(t, ok)
			require.Len(t, g.Members, 2)
			type seen struct {
				Client, Host string
				Reads, Gone  bool
			}
			var got []seen
			for _, m := range g.Members {
				got = append(got, seen{m.ClientID, m.Host, len(m.Partitions) > 0, strings.HasPrefix(m.Idle, "its process is gone")})
			}
			want := []seen{{"c1", "/10.0.0.100", true, false}, {"c2", "/10.0.0.100", true, true}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("members (-want +got):\n%s", diff)
			}
		})
	}
}
