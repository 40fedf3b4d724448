package replica

import "slices"

// TruncationPoint is where a follower cuts its log, given the leader's
// answer about the follower's latest epoch: an OffsetsForLeaderEpoch answer
// (V0_11 to V2_1) or a DivergingEpoch (V3_7 and V4). own is the follower's epoch
// cache and leo its log end offset. fetchOffset is the follower's fetch
// offset as the round starts (AbstractFetcherThread's
// PartitionFetchState.fetchOffset): in the first round the follower's high
// watermark, where ReplicaManager.makeFollowers starts it before 2.8, and in
// a later KIP-279 round where the previous round cut. (0.10 and 0.11 read
// the HW itself; pass it.) done is false when the follower must ask again
// with its new latest epoch (a KIP-279 round that found the follower never
// had the leader's epoch). The result never exceeds leo.
//
// Each case is the truncation rule of the version named, checked in Kafka's
// source at that version's tag:
//
//   - V0_10 (0.10.2): the answer is not used; ReplicaManager.makeFollowers
//     cuts the log at the HW.
//   - V0_11 (0.11.0, KIP-101; ReplicaFetcherThread.maybeTruncate): at
//     min(answer's end offset, LEO), or at the HW if the leader had no
//     answer.
//   - V2_0 and V2_1 (2.0.0 to 2.7, KIP-279;
//     AbstractFetcherThread.getOffsetTruncationState): no answer cuts at the
//     fetch offset, so at the HW in the first round; an answer without an
//     epoch cuts at min(end, LEO); otherwise the follower looks the leader's
//     epoch E up in its own cache: holding E it cuts at min(leader's end, own
//     end of E, LEO) and is done; holding only an older epoch F it cuts at
//     the end of F and asks again; holding nothing older it cuts at
//     min(leader's end, LEO).
//   - V3_7 and V4 (2.8+, 3.7.0 checked): as V2_1, except that no answer keeps the
//     log, because ReplicaManager.initialFetchOffset (2.8) starts a follower
//     whose log has epochs at its LEO, and a DivergingEpoch is read at the
//     fetch offset of the fetch that carried it, the LEO.
func TruncationPoint(rules RuleSet, own []EpochEntry, leo, fetchOffset int64, answer EpochEndOffset) (offset int64, done bool) {
	switch {
	case rules == V0_10:
		return min(fetchOffset, leo), true
	case rules == V0_11 && answer.EndOffset == UndefinedOffset:
		return min(fetchOffset, leo), true
	case rules == V0_11:
		return min(answer.EndOffset, leo), true
	case answer.EndOffset == UndefinedOffset && rules.InitialFetchOffsetIsLEO():
		return leo, true
	case answer.EndOffset == UndefinedOffset:
		return min(fetchOffset, leo), true
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

// truncationRound applies [TruncationPoint] to the node's log; the cut
// becomes the fetch offset of the next round.
func (n *Node) truncationRound(answer EpochEndOffset) (done bool, err error) {
	fetchOffset := n.follow.fetchOffset
	if n.cfg.Rules.InitialFetchOffsetIsLEO() {
		fetchOffset = n.log.LogEndOffset()
	}
	leo := n.log.LogEndOffset()
	offset, done := TruncationPoint(n.cfg.Rules, n.log.Epochs(), leo, fetchOffset, answer)
	if n.cfg.TruncationPoint != nil && n.cfg.Rules.TruncatesOnFetch() {
		if o, d, ok := n.cfg.TruncationPoint(n.log.Epochs(), leo, n.hw, answer); ok && o >= 0 && o <= leo {
			n.follow.fetchOffset = o
			n.byPart = true
			err := n.truncateTo(o)
			n.byPart = false
			return d, err
		}
	}
	n.follow.fetchOffset = offset
	return done, n.truncateTo(offset)
}

// Truncate is a follower's whole truncation under rules, the reference for
// [Config.Truncate]: rounds of [TruncationPoint] until one is done, each
// asking the leader (ask) about the follower's latest epoch ([NoEpoch] with
// an empty cache) and cutting the log there, which trims the epoch cache
// (LeaderEpochFileCache.truncateFromEnd) and keeps the HW within the log
// (2.4's Log.updateLogEndOffset, 3.7's UnifiedLog.truncateTo; 2.1 to 2.3
// kept it until the next fetch answer). The first round's fetch offset is
// the HW, and
// the LEO under V3_7 and V4; a later round's is where the last one cut
// (AbstractFetcherThread.updateFetchOffsetAndMaybeMarkTruncationComplete).
// A round that is not done drops at least one epoch, so it asks at most
// one question per cached epoch, and stops there.
func Truncate(rules RuleSet, f FollowerState, ask func(epoch int32) EpochEndOffset) FollowerState {
	f.Epochs = slices.Clone(f.Epochs)
	fetchOffset := f.HighWatermark
	if rules.InitialFetchOffsetIsLEO() {
		fetchOffset = f.LogEndOffset
	}
	for range len(f.Epochs) + 1 {
		latest := NoEpoch
		if len(f.Epochs) > 0 {
			latest = f.Epochs[len(f.Epochs)-1].Epoch
		}
		offset, done := TruncationPoint(rules, f.Epochs, f.LogEndOffset, fetchOffset, ask(latest))
		f.LogEndOffset = min(f.LogEndOffset, offset)
		f.Epochs = slices.DeleteFunc(f.Epochs, func(e EpochEntry) bool { return e.StartOffset >= f.LogEndOffset })
		f.HighWatermark = min(f.HighWatermark, f.LogEndOffset)
		fetchOffset = f.LogEndOffset
		if done {
			break
		}
	}
	return f
}
