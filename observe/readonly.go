package observe

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// ReadOnlyKeys are the Kafka APIs an observer may send: those that change
// nothing in the cluster. The observer sends no other; a request outside
// this set is refused before it is written ([ErrNotReadOnly]).
//
// FindCoordinator is among them: a client's DescribeGroups and OffsetFetch
// need the group's coordinator. Kafka creates __consumer_offsets on a
// FindCoordinator when it does not exist yet; the observer asks for the
// coordinators of groups a broker listed, which exist only once that topic
// does.
var ReadOnlyKeys = map[int16]string{
	2:  "ListOffsets",
	3:  "Metadata",
	9:  "OffsetFetch",
	10: "FindCoordinator",
	15: "DescribeGroups",
	16: "ListGroups",
	17: "SaslHandshake",
	18: "ApiVersions",
	32: "DescribeConfigs",
	35: "DescribeLogDirs",
	36: "SaslAuthenticate",
	46: "ListPartitionReassignments",
	55: "DescribeQuorum",
	60: "DescribeCluster",
	61: "DescribeProducers",
	65: "DescribeTransactions",
	66: "ListTransactions",
	69: "ConsumerGroupDescribe",
	75: "DescribeTopicPartitions",
}

// IsReadOnly reports whether api key is one the observer may send.
func IsReadOnly(key int16) bool {
	_, ok := ReadOnlyKeys[key]
	return ok
}

// ErrNotReadOnly refuses a request outside [ReadOnlyKeys].
var ErrNotReadOnly = fmt.Errorf("observe: only read-only Kafka requests are sent")

// checkReadOnly refuses req unless its key is read-only; a Metadata
// request must not create topics either.
func checkReadOnly(req kmsg.Request) error {
	if !IsReadOnly(req.Key()) {
		return fmt.Errorf("%w: %s is not one", ErrNotReadOnly, kmsg.NameForKey(req.Key()))
	}
	if m, ok := req.(*kmsg.MetadataRequest); ok && m.AllowAutoTopicCreation {
		return fmt.Errorf("%w: a Metadata request that may create topics", ErrNotReadOnly)
	}
	return nil
}
