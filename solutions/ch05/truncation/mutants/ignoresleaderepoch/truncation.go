package ignoresleaderepoch

// TruncationPoint is one round of a follower's truncation under Kafka 2.1+
// rules (AbstractFetcherThread.getOffsetTruncationState, KIP-279;
// notes/05-leader-epochs.md#offsetsforleaderepoch).
//
// The leader answered with the largest epoch E it has at or below the one we
// asked about, and where E ends on its log. Records of one epoch are all
// written by that epoch's leader, in order, from the same start, so if we
// hold E too, our records agree with the leader's up to wherever E ends first
// on either log. If we never had E, our records after our own largest epoch
// F < E came from some other leader: we cut at the end of F and ask again.
func TruncationPoint(own []EpochEntry, leo, hw int64, answer EpochEndOffset) (offset int64, done bool) {
	if answer.EndOffset == UndefinedOffset {
		return min(hw, leo), true
	}
	// mistake: the 0.11 rule, the answer's epoch is ignored
	return min(answer.EndOffset, leo), true
}

// endOffsetFor answers OffsetsForLeaderEpoch on our own cache, the way a
// leader does (LeaderEpochFileCache.endOffsetFor, 2.1+): for our latest
// epoch, the log end; otherwise the largest epoch at or below epoch and the
// start of the epoch after it. With no epoch at or below, epoch itself "ends"
// where our first epoch starts. ok is false when the cache is empty, epoch
// is undefined, or epoch is newer than anything we have.
//
//lint:ignore U1000 a mutant is the solution with one change; this is the solution's, which the mistake no longer uses
func endOffsetFor(own []EpochEntry, leo int64, epoch int32) (int32, int64, bool) {
	if epoch < 0 || len(own) == 0 {
		return NoEpoch, UndefinedOffset, false
	}
	if own[len(own)-1].Epoch == epoch {
		return epoch, leo, true
	}
	next := 0
	for next < len(own) && own[next].Epoch <= epoch {
		next++
	}
	switch {
	case next == len(own):
		return NoEpoch, UndefinedOffset, false
	case next == 0:
		return epoch, own[0].StartOffset, true
	}
	return own[next-1].Epoch, own[next].StartOffset, true
}

// Truncate runs rounds of TruncationPoint until one is done
// (notes/05-leader-epochs.md#kip-279-another-round). Each cut trims the epoch
// cache, so the next round asks about an older epoch, and the loop ends.
func Truncate(f Follower, ask func(epoch int32) EpochEndOffset) Follower {
	if len(f.Epochs) == 0 { // no epoch to ask about: cut at the high watermark (2.2+)
		return cutAt(f, f.HighWatermark)
	}
	for {
		offset, done := TruncationPoint(f.Epochs, f.LogEndOffset, f.HighWatermark, ask(latestEpoch(f.Epochs)))
		f = cutAt(f, offset)
		if done {
			return f
		}
	}
}

// cutAt truncates the log at offset: the records from offset on go, and so do
// the cache entries that start there or later (truncateFromEnd); the high
// watermark cannot stay above the log end.
func cutAt(f Follower, offset int64) Follower {
	f.LogEndOffset = min(f.LogEndOffset, offset)
	kept := f.Epochs[:0:0]
	for _, e := range f.Epochs {
		if e.StartOffset < f.LogEndOffset {
			kept = append(kept, e)
		}
	}
	f.Epochs = kept
	f.HighWatermark = min(f.HighWatermark, f.LogEndOffset)
	return f
}

func latestEpoch(es []EpochEntry) int32 {
	if len(es) == 0 {
		return NoEpoch
	}
	return es[len(es)-1].Epoch
}
