package replica

// TruncationPoint is where a follower cuts its log, given the leader's
// answer about the follower's latest epoch: an OffsetsForLeaderEpoch answer
// (V0_11 to V2_1) or a DivergingEpoch (Modern). own is the follower's epoch
// cache, leo its log end offset and hw its high watermark. done is false
// when the follower must ask again with its new latest epoch (a KIP-279
// round that found the follower never had the leader's epoch). The result
// never exceeds leo.
//
//   - V0_10 (R7.5): the answer is not used; the follower cuts at its HW.
//   - V0_11 (R7.6): at min(answer's end offset, LEO), or at the HW if the
//     leader had no answer.
//   - V2_0 and later (R7.7): no answer keeps the log (its initial fetch
//     offset is its LEO); an answer without an epoch cuts at min(end, LEO);
//     otherwise the follower looks the leader's epoch E up in its own cache:
//     holding E it cuts at min(leader's end, own end of E, LEO) and is done;
//     holding only an older epoch F it cuts at the end of F and asks again;
//     holding nothing older it cuts at min(leader's end, LEO).
func TruncationPoint(rules RuleSet, own []EpochEntry, leo, hw int64, answer EpochEndOffset) (offset int64, done bool) {
	switch {
	case rules == V0_10:
		return min(hw, leo), true
	case rules == V0_11 && answer.EndOffset == UndefinedOffset:
		return min(hw, leo), true
	case rules == V0_11:
		return min(answer.EndOffset, leo), true
	case answer.EndOffset == UndefinedOffset:
		return leo, true
	case answer.Epoch == NoEpoch:
		return min(answer.EndOffset, leo), true
	}
	ownEpoch, ownEnd, ok := endOffsetFor(own, leo, answer.Epoch, rules.endOffsetBefore21())
	switch {
	case !ok:
		return min(answer.EndOffset, leo), true
	case ownEpoch < answer.Epoch:
		return min(ownEnd, leo), false
	}
	return min(answer.EndOffset, ownEnd, leo), true
}

// truncationRound applies [TruncationPoint] to the node's log.
func (n *Node) truncationRound(answer EpochEndOffset) (done bool, err error) {
	offset, done := TruncationPoint(n.cfg.Rules, n.log.Epochs(), n.log.LogEndOffset(), n.hw, answer)
	return done, n.truncateTo(offset)
}
