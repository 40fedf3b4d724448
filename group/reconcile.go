package group

// reconcile moves member m towards the target assignment target of epoch
// targetEpoch: Kafka's CurrentAssignmentBuilder.build, the consumer
// protocol's reconciliation. owned is what the member reported it owns
// (nil: not reported in this heartbeat), ownerEpoch the epoch of each
// partition's current owner (-1: free). It returns m itself when nothing
// changes, a new member otherwise.
//
// Revoke first: a member that must give partitions up stays at its epoch
// (UNREVOKED_PARTITIONS) until a heartbeat reports it no longer owns them.
// Assign once released: a partition another member still owns is held back
// (UNRELEASED_PARTITIONS) and given at a later heartbeat, once free. A
// member never waits for the others at a barrier: each moves on its own
// heartbeats.
func reconcile(m *consumerMember, targetEpoch int32, target []TopicPartition, owned []TopicPartition, ownerEpoch func(TopicPartition) int32) *consumerMember {
	switch m.state {
	case MemberReconciled:
		if m.epoch != targetEpoch {
			return nextAssignment(m, m.epoch, targetEpoch, target, owned, ownerEpoch)
		}
		return m
	case MemberUnrevokedPartitions:
		if ownsAny(owned, m.revoking) {
			return m
		}
		return nextAssignment(m, m.epoch+1, targetEpoch, target, owned, ownerEpoch)
	default: // MemberUnreleasedPartitions
		return nextAssignment(m, m.epoch, targetEpoch, target, owned, ownerEpoch)
	}
}

// ownsAny is ownsRevokedPartitions: whether the member still reports one
// of revoking as owned; a heartbeat that reports nothing counts as owning
// them all.
func ownsAny(owned, revoking []TopicPartition) bool {
	if owned == nil {
		return true
	}
	set := newPartitionSet(revoking)
	for _, tp := range owned {
		if set[tp] {
			return true
		}
	}
	return false
}

// nextAssignment is computeNextAssignment: the member keeps what it has
// of the target, must revoke the rest, and is given the target's new
// partitions that are free.
func nextAssignment(m *consumerMember, epoch, targetEpoch int32, target, owned []TopicPartition, ownerEpoch func(TopicPartition) int32) *consumerMember {
	inTarget := newPartitionSet(target)
	var kept, revoke []TopicPartition
	for _, tp := range m.assigned {
		if inTarget[tp] {
			kept = append(kept, tp)
		} else {
			revoke = append(revoke, tp)
		}
	}
	keptSet := newPartitionSet(kept)
	var give []TopicPartition
	unreleased := false
	for _, tp := range SortedPartitions(target) {
		switch {
		case keptSet[tp]:
		case ownerEpoch(tp) != -1:
			unreleased = true
		default:
			give = append(give, tp)
		}
	}
	next := *m
	if len(revoke) > 0 && ownsAny(owned, revoke) {
		next.state = MemberUnrevokedPartitions
		next.setEpoch(epoch)
		next.assigned, next.revoking = SortedPartitions(kept), SortedPartitions(revoke)
		return &next
	}
	next.setEpoch(targetEpoch)
	next.assigned, next.revoking = SortedPartitions(append(kept, give...)), []TopicPartition{}
	next.state = MemberReconciled
	if unreleased {
		next.state = MemberUnreleasedPartitions
	}
	return &next
}

// setEpoch is ConsumerGroupMember.Builder.updateMemberEpoch: the old epoch
// becomes the previous one.
func (m *consumerMember) setEpoch(epoch int32) {
	m.previousEpoch, m.epoch = m.epoch, epoch
}
