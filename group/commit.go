package group

// offsetMetadataMaxBytes is offset.metadata.max.bytes (4096); maxStringBytes
// is the longest string the __consumer_offsets record format can hold.
const (
	offsetMetadataMaxBytes = 4096
	maxStringBytes         = 1<<15 - 1
)

// commit handles OffsetCommit. Accepted offsets go to Ready.Commits and the
// answer follows them; the caller persists first.
func (c *Coordinator) commit(from string, r OffsetCommit) {
	code := c.commitError(r)
	resp := OffsetCommitResponse{Error: code, Offsets: append([]PartitionOffset{}, r.Offsets...), Seq: r.Seq}
	if code == None {
		if g := c.groups[r.GroupID]; g != nil {
			if m := g.members[r.MemberID]; m != nil {
				m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
			}
		}
		for _, po := range r.Offsets {
			c.ready.Commits = append(c.ready.Commits, OffsetCommitRecord{Group: r.GroupID, PartitionOffset: po, CommitTimestampMs: c.nowMs})
		}
	}
	c.respond(from, resp)
}

// commitError decides whether a commit is accepted: simple commits (no
// member, generation < 0) only into an Empty or unknown group; member commits
// for the current generation in Stable and PreparingRebalance (the
// generation has not moved yet), REBALANCE_IN_PROGRESS in
// CompletingRebalance.
func (c *Coordinator) commitError(r OffsetCommit) ErrorCode {
	if len(r.GroupID) > maxStringBytes {
		return InvalidGroupID
	}
	for _, po := range r.Offsets {
		if len(po.Metadata) > offsetMetadataMaxBytes || len(po.Topic) > maxStringBytes {
			return OffsetMetadataTooLarge
		}
	}
	g := c.groups[r.GroupID]
	simple := r.GenerationID < 0 && r.MemberID == ""
	switch {
	case g == nil && simple:
		return None
	case g == nil:
		return IllegalGeneration
	case g.state == Dead:
		return CoordinatorNotAvailable // GroupCoordinator.validateOffsetCommit (3.x)
	case simple && g.state == Empty:
		return None
	}
	if code := c.validateMember(g, r.MemberID, r.GroupInstanceID, r.GenerationID); code != None {
		return code
	}
	if g.state == CompletingRebalance {
		return RebalanceInProgress
	}
	return None
}

// TxnCommitError decides whether a TxnOffsetCommit of group groupID is
// accepted, as Kafka 3.7's GroupCoordinator.validateOffsetCommit does for a
// transactional commit: a group that is Dead answers
// COORDINATOR_NOT_AVAILABLE; a commit without a generation (-1, TxnOffsetCommit
// before v3 or a producer outside the group) into an Empty or unknown group
// is taken; one that names a generation, a member or a static instance
// (v3+, KIP-447: the consumer's group metadata sent with the offsets) must
// come from a current member of that generation (UNKNOWN_MEMBER_ID,
// FENCED_INSTANCE_ID, ILLEGAL_GENERATION); anything else is taken, a
// transactional commit needing no member.
func (c *Coordinator) TxnCommitError(groupID string, generation int32, memberID, instanceID string) ErrorCode {
	g := c.groups[groupID]
	switch {
	case g != nil && g.state == Dead:
		return CoordinatorNotAvailable
	case generation < 0 && (g == nil || g.state == Empty):
		return None
	case generation >= 0 || memberID != "" || instanceID != "":
		if g == nil {
			return UnknownMemberID // Kafka creates the group Empty: no member in it
		}
		return c.validateMember(g, memberID, instanceID, generation)
	}
	return None
}

// fetchOffsets handles OffsetFetch from the offset store: -1 where nothing
// is committed.
func (c *Coordinator) fetchOffsets(from string, r OffsetFetch) {
	// A Dead group's offsets are gone (GroupMetadataManager.getOffsets, 3.7):
	// the partitions asked for come back without an offset.
	dead := c.groups[r.GroupID] != nil && c.groups[r.GroupID].state == Dead
	tps := r.Partitions
	if tps == nil && !dead {
		tps = c.store.CommittedPartitions(r.GroupID)
	}
	resp := OffsetFetchResponse{Offsets: []PartitionOffset{}}
	for _, tp := range SortedPartitions(tps) {
		po, ok := c.store.Committed(r.GroupID, tp)
		if dead {
			ok = false
		}
		if !ok {
			po = PartitionOffset{TopicPartition: tp, Offset: -1, LeaderEpoch: -1}
		}
		resp.Offsets = append(resp.Offsets, po)
	}
	c.respond(from, resp)
}
