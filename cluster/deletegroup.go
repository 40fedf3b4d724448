package cluster

import (
	"fmt"

	"github.com/kafkalive/kafkalive/group"
)

// KafkaError is a refusal Kafka answers with one of its error codes: its
// name (Errors' constant) and the message of its exception, in Kafka's
// words, which a tool prints as they are.
type KafkaError struct {
	Name, Message string
}

func (e *KafkaError) Error() string { return e.Message }

// Errors of a group deletion ([World.CheckDeleteGroup], [ActDeleteGroup]),
// with the messages of Kafka's exceptions for them.
var (
	// ErrGroupIDNotFound: no such group, or one already deleted
	// (GROUP_ID_NOT_FOUND, GroupIdNotFoundException).
	ErrGroupIDNotFound error = &KafkaError{"GROUP_ID_NOT_FOUND", "The group id does not exist."}
	// ErrNonEmptyGroup: the group has members (NON_EMPTY_GROUP,
	// GroupNotEmptyException).
	ErrNonEmptyGroup error = &KafkaError{"NON_EMPTY_GROUP", "The group is not empty."}
	// ErrCoordinatorNotAvailable: the group's __consumer_offsets partition
	// has no running leader (COORDINATOR_NOT_AVAILABLE).
	ErrCoordinatorNotAvailable error = &KafkaError{"COORDINATOR_NOT_AVAILABLE", "The coordinator is not available."}
)

// CheckDeleteGroup says whether group name can be deleted now, as Kafka
// 3.7's GroupCoordinator.handleDeleteGroups decides (kafka-consumer-groups
// --delete asks it through DeleteGroups): nil when an [ActDeleteGroup]
// action will delete it, else [ErrGroupIDNotFound], [ErrNonEmptyGroup] or
// [ErrCoordinatorNotAvailable].
func (w *World) CheckDeleteGroup(name string) error {
	b := w.coordinatorOf(name)
	if b == nil {
		return ErrCoordinatorNotAvailable
	}
	return deleteGroupErr(b.CanDeleteGroup(w.env(), name))
}

func deleteGroupErr(code group.ErrorCode) error {
	switch code {
	case group.None:
		return nil
	case group.GroupIDNotFound:
		return ErrGroupIDNotFound
	case group.NonEmptyGroup:
		return ErrNonEmptyGroup
	}
	return fmt.Errorf("%w: delete group: %s", ErrInvalidConfig, code)
}
