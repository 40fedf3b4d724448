package reusesmap

import (
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/group/groupkit"
)

type (
	// TopicPartition is the suite's type, so that the bank runs this mistake as it is.
	TopicPartition = group.TopicPartition
	// TopicMetadata is the suite's type.
	TopicMetadata = group.TopicMetadata
	// Member is the suite's type.
	Member = groupkit.Member
	// Assignment is the suite's type.
	Assignment = group.Assignment
)
