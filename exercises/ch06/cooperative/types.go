package cooperative

// TopicPartition names one partition of one topic.
type TopicPartition struct {
	// Topic is the topic name.
	Topic string
	// Partition is the partition number, from 0.
	Partition int32
}

// TopicMetadata is a topic and its partition count.
type TopicMetadata struct {
	// Topic is the topic name.
	Topic string
	// Partitions is the partition count: partitions 0..Partitions-1 exist.
	Partitions int32
}

// Member is one member as the group leader sees it in the JoinGroup answer.
// Every member subscribes to every topic.
type Member struct {
	// MemberID is the id the coordinator gave it.
	MemberID string
	// OwnedPartitions are the partitions it still owns (and still consumes)
	// as it rejoins. No partition is owned by two members.
	OwnedPartitions []TopicPartition
}

// Assignment maps member id to the partitions it gets this generation.
type Assignment map[string][]TopicPartition
