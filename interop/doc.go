// Package interop tests the simulated cluster with Kafka clients nobody
// here wrote: franz-go (kgo and kadm), sarama (github.com/IBM/sarama),
// segmentio/kafka-go, and, when installed, kcat (librdkafka), kafka-python
// and confluent-kafka-python (librdkafka again), the Python ones run as
// subprocesses with the small scripts in testdata.
//
// Each test starts the page's default world (web.Live, three brokers,
// min.insync.replicas 2) and serves it on free loopback ports with
// web.StartKafka, in process. For every client it produces keyed records
// with acks=all and acks=1, reads them back as a plain consumer and as a
// group member, commits and reads the group's offsets, and lists and
// describes the groups, deletes its Empty group (DeleteGroups), grows
// the topic from three partitions to five (CreatePartitions) and alters
// the configs of a topic of its own with its admin API (kcat has none):
// IncrementalAlterConfigs (SET, DELETE, APPEND) with kadm, sarama
// and kafka-go, the legacy AlterConfigs with kafka-python and
// confluent-kafka 1.7 (which have no other), whose configs replace the
// topic's own, so that a config left out goes back to the brokers' value.
// The bytes that arrive are the bytes sent, the offsets and partitions
// are those the world's terminal shows (kafka-topics --describe,
// kafka-dump-log --print-data-log, kafka-consumer-groups --describe), the
// configs the client's DescribeConfigs reports, values and sources
// (DYNAMIC_TOPIC_CONFIG for the topic's own), are those the world holds
// (cluster.World.TopicConfigs), and each client's default
// partitioner puts a key where that client's documented hash says:
// murmur2 (partitioner.Partition) for franz-go and kafka-python, CRC-32
// (librdkafka's consistent_random) for kcat and confluent-kafka, FNV-1a
// for sarama (NewHashPartitioner's absolute value of the signed
// remainder). kafka-go's Writer balances round robin by default, keys or
// not: its test sets kafka.Murmur2Balancer, which is the Java client's
// rule.
//
// TestKgoFaults stops, kills and cuts the power of leaders under an
// idempotent acks=all kgo producer and a kgo group: no acknowledged record
// is lost or duplicated. TestScenarioYourProducer plays the guided scenario
// your-producer-power-cut with kcat as the user's client.
// TestKadmTopicMinInsyncReplicas creates topics with their own
// min.insync.replicas through kadm and shows it hold an acks=all record
// under a shrunken ISR (NOT_ENOUGH_REPLICAS). TestKgoDetectsTruncation
// has a kgo consumer find, through OffsetForLeaderEpoch (KIP-320), the
// records an unclean election took from under it. cmd/produce is a
// small franz-go producer for users to point at the page's brokers.
//
// TestKgoConsumerProtocol and TestConfluentJSConsumerProtocol join groups
// by the consumer group protocol of KIP-848 (ConsumerGroupHeartbeat, the
// brokers' server-side assignors): franz-go with kgo.ServerSideBalancer()
// and librdkafka 2.15 with group.protocol=consumer (Confluent's JavaScript
// client, npm's @confluentinc/kafka-javascript, run by node with the
// script in testdata). Two members of each split four partitions, every
// record produced is read once, by its partition's owner, and ListGroups
// v5 types the group "consumer"; TestKgoConsumerProtocolRegex subscribes
// by regular expression (SubscribedTopicRegex), the brokers matching whole
// topic names; TestKgoConsumerProtocolCoordinatorFailover kills the
// group's coordinator, and the two franz-go members carry on at the same
// group epoch with the same partitions (the next coordinator replays the
// group's records from __consumer_offsets), reading each record once. The
// classic clients' groups of the suite above still join with JoinGroup and
// SyncGroup.
//
// TestTransactionsKgo, TestTransactionsConfluentJS and
// TestTransactionsConfluentKafka run transactional producers: franz-go,
// librdkafka 2.15 (Confluent's JavaScript client, testdata/ckjs_txn.js)
// and Debian's confluent-kafka-python (an older librdkafka). Each commits,
// aborts and commits a transaction; a read_committed consumer of the same
// client gets exactly the committed records and a read_uncommitted one all
// of them; a second producer with the same transactional.id fences the
// first (its next AddPartitionsToTxn is refused, the client reports it
// fenced) and nothing the zombie wrote reaches read_committed; a
// consume-transform-produce loop copies the committed records to another
// topic with the group's offsets committed in each transaction
// (TxnOffsetCommit), and read_committed sees each copy once.
//
// TestMain prints a matrix of client x operation x pass/fail/skip at the
// end of the run. A client that is not installed is skipped, saying so,
// unless KAFKALIVE_REQUIRE_CLIENTS=1 (as in CI), where it fails.
package interop
