package observedtools_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/internal/kafkatools/observedtools"
	"github.com/kafkalive/kafkalive/observe"
)

// observedSample is a small cluster as an observer saw it: broker 3
// fenced, orders-1 under-replicated, a group with one member.
func observedSample() *observe.Sample {
	return &observe.Sample{Seq: 4, ClusterID: "abc", ControllerID: 1, TopicsListed: true, GroupsListed: true,
		Brokers: []observe.Broker{
			{ID: 1, Host: "k1", Port: 9092, State: observe.BrokerUp, LogDir: "/var/kafka"},
			{ID: 2, Host: "k2", Port: 9092, State: observe.BrokerUp, LogDir: "/var/kafka"},
			{ID: 3, Host: "k3", Port: 9092, State: observe.BrokerFenced},
		},
		Topics: []*observe.Topic{{Name: "orders", ID: observe.TopicID{1}, Configs: []observe.TopicConfig{
			{Name: "cleanup.policy", Value: "delete", Source: "DEFAULT_CONFIG", Synonyms: []observe.Synonym{{Name: "log.cleanup.policy", Value: "delete", Source: "DEFAULT_CONFIG"}}},
			{Name: "retention.ms", Value: "1000", Source: "DYNAMIC_TOPIC_CONFIG", Synonyms: []observe.Synonym{{Name: "retention.ms", Value: "1000", Source: "DYNAMIC_TOPIC_CONFIG"}, {Name: "log.retention.hours", Value: "168", Source: "DEFAULT_CONFIG"}}},
		}}},
		Partitions: []*observe.Partition{
			{Topic: "orders", Partition: 0, Leader: 1, LeaderEpoch: 2, Replicas: []int32{1, 2, 3}, ISR: []int32{1, 2, 3}, HighWatermark: 10,
				Logs: []observe.ReplicaLog{{Broker: 1, LogEndOffset: 10, Size: 700}, {Broker: 2, LogEndOffset: 10, Size: 700}, {Broker: 3, LogEndOffset: observe.NotObserved, Size: observe.NotObserved}}},
			{Topic: "orders", Partition: 1, Leader: 2, LeaderEpoch: 5, Replicas: []int32{2, 3, 1}, ISR: []int32{2, 1}, HighWatermark: 4,
				Logs: []observe.ReplicaLog{{Broker: 2, LogEndOffset: 4, Size: 300}, {Broker: 3, LogEndOffset: observe.NotObserved, Size: observe.NotObserved}, {Broker: 1, LogEndOffset: 4, Size: 300, OffsetLag: 0}}},
		},
		Groups: []*observe.Group{{Name: "billing", Coordinator: 2, State: "Stable", ProtocolType: "consumer", Protocol: "range",
			Members: []observe.Member{{ID: "m-1", ClientID: "billing-app", Host: "/10.0.0.7", Assignment: []observe.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}}}},
			Offsets: []observe.GroupOffset{{Topic: "orders", Partition: 0, Committed: 7, LogEndOffset: 10, Lag: 3, Member: "m-1"}, {Topic: "orders", Partition: 1, Committed: 4, LogEndOffset: 4, Lag: 0, Member: "m-1"}}}},
		Quorum: &observe.Quorum{LeaderID: 1, LeaderEpoch: 3, HighWatermark: 120,
			Voters:    []observe.QuorumReplica{{ID: 1, LogEndOffset: 120, LastFetchTimestamp: 5000, LastCaughtUpTimestamp: 5000}, {ID: 2, LogEndOffset: 118, LastFetchTimestamp: 4990, LastCaughtUpTimestamp: 4900}},
			Observers: []observe.QuorumReplica{}},
	}
}

// TestObservedToolsPrintKafkasLayouts: each read-only tool prints what
// the sample holds in its Kafka layout.
func TestObservedToolsPrintKafkasLayouts(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{"kafka-topics --list", "orders\n"},
		{"kafka-topics.sh --describe --topic orders",
			"Topic: orders\tTopicId: AQAAAAAAAAAAAAAAAAAAAA\tPartitionCount: 2\tReplicationFactor: 3\tConfigs: retention.ms=1000\n" +
				"\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\n" +
				"\tTopic: orders\tPartition: 1\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,1\n"},
		{"kafka-topics --describe --under-replicated-partitions", "\tTopic: orders\tPartition: 1\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,1\n"},
		{"kafka-topics --describe --topic nope", "Error while executing topic command : Topic 'nope' does not exist as expected\n"},
		{"kafka-consumer-groups --list", "billing\n"},
		{"kafka-consumer-groups --describe --group billing",
			"\nGROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\n" +
				"billing         orders          0          7               10              3               m-1             /10.0.0.7       billing-app\n" +
				"billing         orders          1          4               4               0               m-1             /10.0.0.7       billing-app\n"},
		{"kafka-configs --describe --entity-type topics --entity-name orders",
			"Dynamic configs for topic orders are:\n  retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000, DEFAULT_CONFIG:log.retention.hours=168}\n"},
		{"kafka-metadata-quorum --describe --status",
			"ClusterId:              abc\nLeaderId:               1\nLeaderEpoch:            3\nHighWatermark:          120\nMaxFollowerLag:         2\nMaxFollowerLagTimeMs:   100\nCurrentVoters:          [1,2]\nCurrentObservers:       []\n"},
		{"kafka-metadata-quorum --bootstrap-server b1:9092 describe --replication",
			"NodeId\tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus  \t\n" +
				"1     \t120         \t0  \t5000              \t5000                 \tLeader  \t\n" +
				"2     \t118         \t2  \t4990              \t4900                 \tFollower\t\n"},
		{"kafka-log-dirs --describe --topic-list orders --broker-list 2",
			"Querying brokers for log directories information\nReceived log directory information from brokers 2\n" +
				`{"version":1,"brokers":[{"broker":2,"logDirs":[{"logDir":"/var/kafka","error":null,"partitions":[{"partition":"orders-0","size":700,"offsetLag":0,"isFuture":false},{"partition":"orders-1","size":300,"offsetLag":0,"isFuture":false}]}]}]}` + "\n"},
	} {
		var out strings.Builder
		words, err := kafkatools.SplitLine(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		err = observedtools.Run(observedSample(), words, &out)
		var printed kafkatools.Printed
		if err != nil && !errors.As(err, &printed) {
			t.Errorf("%s: %v", tc.line, err)
		}
		if diff := cmp.Diff(tc.want, out.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.line, diff)
		}
	}
}

// TestObservedToolsRefuseToAct: any line of any tool that names a verb
// that would change the cluster is refused as read-only and prints
// nothing, whatever else it says; no line panics.
func TestObservedToolsRefuseToAct(t *testing.T) {
	tools := []string{"kafka-topics", "kafka-consumer-groups", "kafka-configs", "kafka-metadata-quorum", "kafka-log-dirs", "kafka-topics.sh", "kafka-acls"}
	flags := []string{"--create", "--alter", "--delete", "--delete-offsets", "--reset-offsets", "--execute", "--add-config", "retention.ms=1", "--delete-config",
		"--describe", "--list", "--topic", "orders", "--group", "billing", "--entity-type", "topics", "--entity-name", "--members", "--state", "--verbose",
		"--status", "--replication", "--all", "--partitions", "3", "--to-earliest", "--topic-list", "--broker-list", "1,2", "--exclude-internal", "--dry-run"}
	writes := map[string]bool{"--create": true, "--alter": true, "--delete": true, "--delete-offsets": true, "--reset-offsets": true, "--execute": true,
		"--add-config": true, "--delete-config": true}
	rapid.Check(t, func(rt *rapid.T) {
		line := []string{rapid.SampledFrom(tools).Draw(rt, "tool")}
		line = append(line, rapid.SliceOfN(rapid.SampledFrom(flags), 0, 8).Draw(rt, "words")...)
		writing := false
		for _, w := range line[1:] {
			writing = writing || writes[w]
		}
		var out strings.Builder
		err := observedtools.Run(observedSample(), line, &out)
		switch {
		case line[0] == "kafka-acls":
			if !errors.Is(err, kafkatools.ErrUsage) {
				rt.Fatalf("%q: %v, want a usage error", line, err)
			}
		case writing && !errors.Is(err, observedtools.ErrReadOnly):
			rt.Fatalf("%q acts on the cluster: err %v, printed %q", line, err, out.String())
		case writing && out.Len() > 0:
			rt.Fatalf("%q refused but printed %q", line, out.String())
		case !writing && errors.Is(err, observedtools.ErrReadOnly):
			rt.Fatalf("%q refused as read-only though it only looks", line)
		}
	})
}

// TestObservedTopicsPrintELR: a sample whose cluster answered
// DescribeTopicPartitions prints each partition as Kafka 4.1's
// TopicCommand does, with its Elr and LastKnownElr; one that did not
// (an older cluster) as Kafka 3.7's, without them.
func TestObservedTopicsPrintELR(t *testing.T) {
	s := observedSample()
	s.ELRListed = true
	s.Partitions[1].ELR, s.Partitions[1].LastKnownELR = []int32{3}, []int32{3}
	var out strings.Builder
	if err := observedtools.Run(s, []string{"kafka-topics", "--describe", "--under-replicated-partitions"}, &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("\tTopic: orders\tPartition: 1\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,1\tElr: 3\tLastKnownElr: 3\n", out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
