// Package observe watches a Kafka cluster from outside, as any client
// could, and keeps what it sees as a timeline.
//
// An [Observer] polls the cluster about once a second through franz-go (kgo
// and kadm) with read-only requests only ([ReadOnlyKeys]; anything else is
// refused before it is written), at most 5 + ⌈N/2000⌉ + 9B requests a poll
// for N partitions on B brokers, however many groups there are (poll.go
// lists them). Each poll is a [Sample]: the brokers (up, fenced,
// unreachable, down), every partition with its leader, leader epoch,
// replicas and ISR, its eligible leader replicas and last known leader
// (DescribeTopicPartitions, paged by its cursor; not observed on a cluster
// that refuses it, whose partitions are Metadata's), the leader's log
// start, high watermark and last stable offset (ListOffsets, the last
// read_committed), each replica's own log end offset (ListOffsets with the
// debugging replica id at its broker) and size (DescribeLogDirs), the
// producers with state on it (DescribeProducers at its leader, a bounded
// number of partitions a poll in turn, each with the poll that asked), the
// topics' configs, the consumer groups with their members, committed
// offsets and lag, and the metadata quorum.
//
// What a poll was not told is [NotObserved], never guessed; what no
// observer outside the brokers can see is listed in [Unobservable]. The
// samples form a bounded [Timeline] (samples share whatever did not change
// between them), and the differences between samples are its events
// ([Event]): brokers going down and coming back, leader changes, the ISR
// shrinking and expanding, groups rebalancing, the quorum's leader moving.
//
// The observer of kafkalive's own simulated cluster is checked against the
// simulation's truth: random worlds, random actions, a poll after each, and
// everything observed must be what the world holds.
package observe
