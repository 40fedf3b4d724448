package replica

// truncationRound is one round of KIP-279's follower rule (R7.7 step 3),
// used for OffsetsForLeaderEpoch answers (V2_0, V2_1) and DivergingEpoch
// (Modern). The leader said its largest epoch ≤ the one asked about is
// leaderEpoch and ends at leaderEnd. done is false when the follower never
// had leaderEpoch, truncated to the end of its own earlier epoch, and must
// ask again with its new latest epoch.
func (n *Node) truncationRound(leaderEpoch int32, leaderEnd int64) (done bool, err error) {
	leo := n.log.LogEndOffset()
	ownEpoch, ownEnd, ok := endOffsetFor(n.log.Epochs(), leo, leaderEpoch, n.cfg.Rules.endOffsetBefore21())
	switch {
	case leaderEpoch == NoEpoch || leaderEnd == UndefinedOffset:
		return true, nil
	case !ok:
		return true, n.truncateTo(min(leaderEnd, leo))
	case ownEpoch < leaderEpoch:
		return false, n.truncateTo(min(ownEnd, leo))
	}
	return true, n.truncateTo(min(leaderEnd, ownEnd, leo))
}
