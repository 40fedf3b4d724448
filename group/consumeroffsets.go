package group

// The commits and offset fetches of a consumer-protocol group. A member
// commits with its member epoch where a classic member sends its
// generation (OffsetCommit v9+'s GenerationIdOrMemberEpoch): the
// coordinator takes the commit only at the member's current epoch, so a
// member that lost a partition (it moved to another member at a later
// epoch) cannot overwrite its new owner's offsets.

// commit handles an OffsetCommit to a group this coordinator hosts
// (OffsetMetadataManager.commitOffset, ConsumerGroup.validateOffsetCommit).
func (c *ConsumerGroupCoordinator) commit(from string, r OffsetCommit) {
	code := c.commitError(r)
	resp := OffsetCommitResponse{Error: code, Offsets: append([]PartitionOffset{}, r.Offsets...), Seq: r.Seq}
	if code == None {
		for _, po := range r.Offsets {
			c.ready.Commits = append(c.ready.Commits, OffsetCommitRecord{Group: r.GroupID, PartitionOffset: po, CommitTimestampMs: c.nowMs})
		}
	}
	c.respond(from, resp)
}

// commitError decides a commit: into an empty group a commit without a
// member epoch (an admin's, or a consumer's without group management) is
// taken; otherwise the member must be known (UNKNOWN_MEMBER_ID), commit
// with OffsetCommit v9+ (UNSUPPORTED_VERSION) and at its current epoch
// (STALE_MEMBER_EPOCH).
func (c *ConsumerGroupCoordinator) commitError(r OffsetCommit) ErrorCode {
	if len(r.GroupID) > maxStringBytes {
		return InvalidGroupID
	}
	for _, po := range r.Offsets {
		if len(po.Metadata) > offsetMetadataMaxBytes || len(po.Topic) > maxStringBytes {
			return OffsetMetadataTooLarge
		}
	}
	g := c.groups[r.GroupID]
	if g == nil || g.dead {
		return GroupIDNotFound
	}
	if r.GenerationID < 0 && len(g.members) == 0 {
		return None
	}
	m := g.members[r.MemberID]
	switch {
	case m == nil:
		return UnknownMemberID
	case r.Version < 9:
		return UnsupportedVersion
	case r.GenerationID != m.epoch:
		return StaleMemberEpoch
	}
	return None
}

// fetchOffsets handles an OffsetFetch of a group this coordinator hosts:
// one that names a member is checked as a commit is
// (ConsumerGroup.validateOffsetFetch); -1 where nothing is committed.
func (c *ConsumerGroupCoordinator) fetchOffsets(from string, r OffsetFetch) {
	if code := c.fetchError(r); code != None {
		c.respond(from, OffsetFetchResponse{Error: code, Offsets: []PartitionOffset{}})
		return
	}
	tps := r.Partitions
	if tps == nil {
		tps = c.store.CommittedPartitions(r.GroupID)
	}
	resp := OffsetFetchResponse{Offsets: []PartitionOffset{}}
	for _, tp := range SortedPartitions(tps) {
		po, ok := c.store.Committed(r.GroupID, tp)
		if !ok {
			po = PartitionOffset{TopicPartition: tp, Offset: -1, LeaderEpoch: -1}
		}
		resp.Offsets = append(resp.Offsets, po)
	}
	c.respond(from, resp)
}

func (c *ConsumerGroupCoordinator) fetchError(r OffsetFetch) ErrorCode {
	if r.MemberID == "" && r.MemberEpoch < 0 {
		return None
	}
	g := c.groups[r.GroupID]
	if g == nil || g.dead {
		return GroupIDNotFound
	}
	m := g.members[r.MemberID]
	switch {
	case m == nil:
		return UnknownMemberID
	case r.MemberEpoch != m.epoch:
		return StaleMemberEpoch
	}
	return None
}
