package replica

import (
	"fmt"
	"strings"
)

// Ready is what a [Node] asks its caller to do, from [Node.Ready].
type Ready struct {
	// Messages go to other replicas (Fetch, OffsetsForLeaderEpoch and their
	// answers). Deliver them in order per link, or drop them.
	Messages []Message
	// ProduceResponses go back to producers.
	ProduceResponses []ProduceResponse
	// AlterPartitions are ISR changes proposed to the controller (AlterPartition),
	// each answered by a MsgAlterPartitionResponse. Under rules where
	// [RuleSet.SynchronousISRWrite] holds (ZooKeeper era) the caller should
	// apply and answer it at once, before anything else reaches the node.
	AlterPartitions []AlterPartition
	// Events is what changed, for timelines and narration.
	Events []Event
	// HighWatermark is the current HW, for the broker's periodic
	// replication-offset-checkpoint.
	HighWatermark int64
}

// EventKind says what an [Event] records.
type EventKind int

// The event kinds.
const (
	// EventBecameLeader: New is the leader epoch.
	EventBecameLeader EventKind = iota
	// EventBecameFollower: New is the leader epoch, Old the leader id.
	EventBecameFollower
	// EventHighWatermark: the HW moved from Old to New.
	EventHighWatermark
	// EventTruncated: the log end moved back from Old to New.
	EventTruncated
	// EventISRProposed: the leader proposed ISR to the controller.
	EventISRProposed
	// EventISRChanged: the committed ISR became ISR.
	EventISRChanged
	// EventISRRejected: the controller refused the proposal ISR.
	EventISRRejected
	// EventInvalidFetchData: the records of a fetch answer from leader New
	// at fetch offset Old failed their check (CorruptRecordException), so
	// nothing was appended and the fetch is retried after
	// replica.fetch.backoff.ms.
	EventInvalidFetchData
	// EventFetchTooLarge: the records of a fetch answer from leader New
	// at fetch offset Old do not fit in a segment (ErrRecordBatchTooLarge),
	// so nothing was appended and the fetch is retried after
	// replica.fetch.backoff.ms.
	EventFetchTooLarge
	// EventLogStartRaised: a follower moved its log start offset from Old
	// to New, its leader's ([LogStartRaiser]).
	EventLogStartRaised
)

// Event is one state change of a [Node].
type Event struct {
	Kind     EventKind
	Old, New int64
	ISR      []int32
	// ByPart says Config.TruncationPoint chose the cut of an EventTruncated.
	ByPart bool
}

// String describes the event in one line, e.g. "hw 1 -> 2".
func (e Event) String() string {
	switch e.Kind {
	case EventBecameLeader:
		return fmt.Sprintf("became leader in epoch %d", e.New)
	case EventBecameFollower:
		return fmt.Sprintf("became follower of %d in epoch %d", e.Old, e.New)
	case EventHighWatermark:
		return fmt.Sprintf("hw %d -> %d", e.Old, e.New)
	case EventTruncated:
		return fmt.Sprintf("truncated log end %d -> %d", e.Old, e.New)
	case EventISRProposed:
		return "proposed isr " + FormatIDs(e.ISR)
	case EventISRChanged:
		return "isr is now " + FormatIDs(e.ISR)
	case EventISRRejected:
		return "isr proposal rejected " + FormatIDs(e.ISR)
	case EventInvalidFetchData:
		return fmt.Sprintf("Found invalid messages during fetch from leader %d at offset %d (CorruptRecordException): nothing appended, retried after replica.fetch.backoff.ms", e.New, e.Old)
	case EventLogStartRaised:
		return fmt.Sprintf("log start offset %d -> %d (the leader's)", e.Old, e.New)
	case EventFetchTooLarge:
		return fmt.Sprintf("the records fetched from leader %d at offset %d are larger than segment.bytes (RecordBatchTooLargeException): nothing appended, retried after replica.fetch.backoff.ms (Kafka's fetcher marks the partition failed until its leader changes)", e.New, e.Old)
	}
	return fmt.Sprintf("EventKind(%d)", int(e.Kind))
}

// FormatIDs prints broker ids as "[1 2 3]".
func FormatIDs(ids []int32) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
