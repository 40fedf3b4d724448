package cluster

import (
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/group"
)

// Errors of a group deletion ([World.CheckDeleteGroup], [ActDeleteGroup]),
// with the messages of Kafka's exceptions for them.
var (
	// ErrGroupIDNotFound: no such group, or one already deleted
	// (GROUP_ID_NOT_FOUND, GroupIdNotFoundException).
	ErrGroupIDNotFound = errors.New("The group id does not exist.")
	// ErrNonEmptyGroup: the group has members (NON_EMPTY_GROUP,
	// GroupNotEmptyException).
	ErrNonEmptyGroup = errors.New("The group is not empty.")
	// ErrCoordinatorNotAvailable: the group's __consumer_offsets partition
	// has no running leader (COORDINATOR_NOT_AVAILABLE).
	ErrCoordinatorNotAvailable = errors.New("The coordinator is not available.")
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
	return deleteGroupErr(b.Coordinator(w.env()).CanDeleteGroup(name))
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
