package group

import (
	"errors"
	"fmt"
)

// ErrorCode is a Kafka protocol error code as it travels in a response
// (Errors.java). The zero value, [None], means success. An ErrorCode is also
// an error, so a caller can return it and test it with errors.Is.
type ErrorCode int16

// The protocol error codes the group coordinator answers with. The numbers
// are Kafka's wire values.
const (
	// None is success (NONE).
	None ErrorCode = 0
	// OffsetMetadataTooLarge: the commit's metadata is longer than
	// offset.metadata.max.bytes (4096) (OFFSET_METADATA_TOO_LARGE).
	OffsetMetadataTooLarge ErrorCode = 12
	// CoordinatorLoadInProgress: the coordinator is still loading the group's
	// offsets from __consumer_offsets (COORDINATOR_LOAD_IN_PROGRESS).
	CoordinatorLoadInProgress ErrorCode = 14
	// CoordinatorNotAvailable: no coordinator for the group right now
	// (COORDINATOR_NOT_AVAILABLE).
	CoordinatorNotAvailable ErrorCode = 15
	// NotCoordinator: this broker is not the group's coordinator (NOT_COORDINATOR).
	NotCoordinator ErrorCode = 16
	// IllegalGeneration: the request carries a generation other than the
	// group's current one (ILLEGAL_GENERATION).
	IllegalGeneration ErrorCode = 22
	// InconsistentGroupProtocol: the member's protocol type or assignors do not
	// fit the group's (INCONSISTENT_GROUP_PROTOCOL).
	InconsistentGroupProtocol ErrorCode = 23
	// InvalidGroupID: empty group id (INVALID_GROUP_ID).
	InvalidGroupID ErrorCode = 24
	// UnknownMemberID: the coordinator does not know this member id; the member
	// was removed and must rejoin with no id (UNKNOWN_MEMBER_ID).
	UnknownMemberID ErrorCode = 25
	// InvalidSessionTimeout: session.timeout.ms outside the broker's
	// group.min/max.session.timeout.ms (INVALID_SESSION_TIMEOUT).
	InvalidSessionTimeout ErrorCode = 26
	// RebalanceInProgress: the group is rebalancing; rejoin (REBALANCE_IN_PROGRESS).
	RebalanceInProgress ErrorCode = 27
	// MemberIDRequired: first JoinGroup of a dynamic member (KIP-394, 2.2+);
	// the response carries the id to join again with (MEMBER_ID_REQUIRED).
	MemberIDRequired ErrorCode = 79
	// GroupMaxSizeReached: group.max.size members already (GROUP_MAX_SIZE_REACHED).
	GroupMaxSizeReached ErrorCode = 81
	// NonEmptyGroup: the group to delete still has members (NON_EMPTY_GROUP).
	NonEmptyGroup ErrorCode = 68
	// GroupIDNotFound: no such group to delete (GROUP_ID_NOT_FOUND).
	GroupIDNotFound ErrorCode = 69
	// FencedInstanceID: another member id now holds this group.instance.id
	// (KIP-345, FENCED_INSTANCE_ID).
	FencedInstanceID ErrorCode = 82
	// UnknownServerError: the coordinator failed on something unexpected
	// (UNKNOWN_SERVER_ERROR).
	UnknownServerError ErrorCode = -1
	// UnsupportedVersion: the request's version may not be used here, e.g.
	// an OffsetCommit below v9 from a consumer-protocol member
	// (UNSUPPORTED_VERSION).
	UnsupportedVersion ErrorCode = 35
	// InvalidRequest: the request breaks the API's rules, e.g. a
	// ConsumerGroupHeartbeat that joins without its subscription
	// (INVALID_REQUEST).
	InvalidRequest ErrorCode = 42
	// FencedMemberEpoch: a consumer-protocol member's epoch is not the one
	// the coordinator knows; it must give up its partitions and rejoin
	// (KIP-848, FENCED_MEMBER_EPOCH).
	FencedMemberEpoch ErrorCode = 110
	// UnreleasedInstanceID: a static member's group.instance.id is still
	// held by another member that did not leave (KIP-848,
	// UNRELEASED_INSTANCE_ID).
	UnreleasedInstanceID ErrorCode = 111
	// UnsupportedAssignor: the member named a server-side assignor the
	// coordinator does not have (KIP-848, UNSUPPORTED_ASSIGNOR).
	UnsupportedAssignor ErrorCode = 112
	// StaleMemberEpoch: an OffsetCommit or OffsetFetch carries a member
	// epoch other than the member's current one; the member retries once
	// its heartbeat brought the new epoch (KIP-848, STALE_MEMBER_EPOCH).
	StaleMemberEpoch ErrorCode = 113
	// InvalidRegularExpression: a ConsumerGroupHeartbeat's
	// SubscribedTopicRegex does not compile (Kafka 4.0,
	// INVALID_REGULAR_EXPRESSION).
	InvalidRegularExpression ErrorCode = 128
)

var errorNames = map[ErrorCode]string{
	None:                      "NONE",
	OffsetMetadataTooLarge:    "OFFSET_METADATA_TOO_LARGE",
	CoordinatorLoadInProgress: "COORDINATOR_LOAD_IN_PROGRESS",
	CoordinatorNotAvailable:   "COORDINATOR_NOT_AVAILABLE",
	NotCoordinator:            "NOT_COORDINATOR",
	IllegalGeneration:         "ILLEGAL_GENERATION",
	InconsistentGroupProtocol: "INCONSISTENT_GROUP_PROTOCOL",
	InvalidGroupID:            "INVALID_GROUP_ID",
	UnknownMemberID:           "UNKNOWN_MEMBER_ID",
	InvalidSessionTimeout:     "INVALID_SESSION_TIMEOUT",
	RebalanceInProgress:       "REBALANCE_IN_PROGRESS",
	NonEmptyGroup:             "NON_EMPTY_GROUP",
	InvalidRegularExpression:  "INVALID_REGULAR_EXPRESSION",
	GroupIDNotFound:           "GROUP_ID_NOT_FOUND",
	MemberIDRequired:          "MEMBER_ID_REQUIRED",
	GroupMaxSizeReached:       "GROUP_MAX_SIZE_REACHED",
	FencedInstanceID:          "FENCED_INSTANCE_ID",
	UnknownServerError:        "UNKNOWN_SERVER_ERROR",
	UnsupportedVersion:        "UNSUPPORTED_VERSION",
	InvalidRequest:            "INVALID_REQUEST",
	FencedMemberEpoch:         "FENCED_MEMBER_EPOCH",
	UnreleasedInstanceID:      "UNRELEASED_INSTANCE_ID",
	UnsupportedAssignor:       "UNSUPPORTED_ASSIGNOR",
	StaleMemberEpoch:          "STALE_MEMBER_EPOCH",
}

// String returns Kafka's name for the code, e.g. REBALANCE_IN_PROGRESS.
func (c ErrorCode) String() string {
	if name, ok := errorNames[c]; ok {
		return name
	}
	return fmt.Sprintf("UNKNOWN_SERVER_ERROR(%d)", int16(c))
}

// Error implements error: "group: REBALANCE_IN_PROGRESS (27)".
func (c ErrorCode) Error() string {
	return fmt.Sprintf("group: %s (%d)", c.String(), int16(c))
}

// Err returns nil for [None] and the code itself otherwise.
func (c ErrorCode) Err() error {
	if c == None {
		return nil
	}
	return c
}

// Sentinel errors for calls that are not protocol requests.
var (
	// ErrUnknownRequest is returned by Step for a request type it does not know.
	ErrUnknownRequest = errors.New("group: unknown request type")
	// ErrUnknownResponse is returned by Member.Step for a response it did not ask for.
	ErrUnknownResponse = errors.New("group: unexpected response")
	// ErrCommitFailed is a commit attempted by a member that is not in a
	// generation of its group (Java's CommitFailedException).
	ErrCommitFailed = errors.New("group: commit failed: the member is not part of an active generation")
	// ErrInvalidConfig is returned by constructors for a config they cannot run.
	ErrInvalidConfig = errors.New("group: invalid config")
)
