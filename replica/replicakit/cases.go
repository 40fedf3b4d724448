package replicakit

import "github.com/kafkalive/kafkalive/replica"

type pointKnown struct {
	name string
	in   pointInput
}

type truncateKnown struct {
	name     string
	follower Follower
	leader   leaderLog
}

func epochs(pairs ...int64) []replica.EpochEntry {
	var out []replica.EpochEntry
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, replica.EpochEntry{Epoch: int32(pairs[i]), StartOffset: pairs[i+1]})
	}
	return out
}

func answer(epoch int32, end int64) replica.EpochEndOffset {
	return replica.EpochEndOffset{Epoch: epoch, EndOffset: end}
}

// pointKnownAnswers are single rounds: the follower's own cache is the one of
// a case of Kafka's LeaderEpochFileCacheTest, or a step of a scenario, or the
// answer is an edge case. Each of the four kinds of answer the leader can give
// (undefined; no epoch; an epoch the follower can look up, older than or
// equal to its latest; an epoch newer than every one it has) has cases.
func pointKnownAnswers() []pointKnown {
	h4 := epochs(0, 10, 2, 13, 4, 17)
	return []pointKnown{
		{"shouldReturnFirstEpochIfRequestedEpochLessThanFirstEpoch: own (5,11),(6,12),(7,13), the leader answers (4, 11): no own epoch <= 4, so the cache answers (4, 11), the start of the first epoch", pointInput{epochs(5, 11, 6, 12, 7, 13), 14, 12, answer(4, 11)}},
		{"shouldGetFirstOffsetOfSubsequentEpochWhenOffsetRequestedForPreviousEpoch: own (1,11),(2,13),(3,15), LEO 17; the leader's epoch 2 ends at 16, own epoch 2 ends at 15", pointInput{epochs(1, 11, 2, 13, 3, 15), 17, 11, answer(2, 16)}},
		{"shouldReturnNextAvailableEpochIfThereIsNoExactEpochForTheOneRequested: own (0,10),(2,13),(4,17), LEO 20; the leader answers (1, 14): own largest epoch <= 1 is 0, ending at 13 -> cut at 13 and ask again", pointInput{h4, 20, 10, answer(1, 14)}},
		{"shouldReturnNextAvailableEpochIfThereIsNoExactEpochForTheOneRequested: own (0,10),(2,13),(4,17), LEO 20; the leader answers (2, 15): own epoch 2 ends at 17 -> min(15, 17, 20)", pointInput{h4, 20, 10, answer(2, 15)}},
		{"shouldReturnNextAvailableEpochIfThereIsNoExactEpochForTheOneRequested: own (0,10),(2,13),(4,17), LEO 20; the leader answers (3, 19): own largest epoch <= 3 is 2, ending at 17 -> cut at 17, ask again", pointInput{h4, 20, 10, answer(3, 19)}},
		{"shouldReturnLogEndOffsetIfLatestEpochRequested: the leader's answer is the follower's latest epoch, so its own end is its LEO", pointInput{h4, 20, 18, answer(4, 25)}},
		{"kip279-two-rounds step 6b (KIP-279 round 1): X (0,0),(2,2), LEO 3; Y answers (1, 4); X never had epoch 1", pointInput{epochs(0, 0, 2, 2), 3, 1, answer(1, 4)}},
		{"kip279-two-rounds step 6c (round 2): X (0,0), LEO 2; Y answers (0, 1)", pointInput{epochs(0, 0), 2, 1, answer(0, 1)}},
		{"acks1-loses-acked-writes step 4: R1 (0,0), LEO 2, HW 1; the leader's epoch 0 ends at 1", pointInput{epochs(0, 0), 2, 1, answer(0, 1)}},
		{"kip101-part2 step 4: A (0,0), LEO 2, HW 1; B's epoch 0 ends at its LEO 2: keep m2 although the HW is 1", pointInput{epochs(0, 0), 2, 1, answer(0, 2)}},
		{"the leader has no answer (undefined): keep the log (2.8+)", pointInput{epochs(0, 0, 5, 3), 6, 2, undefinedAnswer}},
		{"shouldReturnInvalidOffsetIfEpochIsRequestedWhichIsNotCurrentlyTracked: own (2,100), LEO 104; the leader answers (3, 102), newer than every own epoch: the follower's lookup is undefined, so it cuts at min(102, 104)", pointInput{epochs(2, 100), 104, 101, answer(3, 102)}},
		{"own (0,0),(2,3), LEO 6; the leader answers (5, 4), newer than every own epoch: cut at min(4, 6) and stop, no other round", pointInput{epochs(0, 0, 2, 3), 6, 2, answer(5, 4)}},
		{"own (0,0),(2,3), LEO 6; the leader answers (4, 9), newer than every own epoch and past the LEO: keep the log, done", pointInput{epochs(0, 0, 2, 3), 6, 2, answer(4, 9)}},
		{"the answer has no epoch: cut at min(end, LEO)", pointInput{epochs(0, 0), 5, 1, answer(replica.NoEpoch, 3)}},
		{"the leader's end offset is past the follower's LEO: never cut past the LEO", pointInput{epochs(0, 0, 1, 4), 6, 6, answer(1, 9)}},
		{"an empty cache: cut at min(end, LEO)", pointInput{nil, 4, 0, answer(0, 2)}},
	}
}

// truncateKnownAnswers are whole truncations, from the scenarios and from
// Kafka's cache tests (LeaderEpochFileCacheTest's truncateFromEnd cases).
func truncateKnownAnswers() []truncateKnown {
	return []truncateKnown{
		{"acks1-loses-acked-writes step 4: acks=1 record b is cut: R1 (0,0) LEO 2 HW 1, leader R2 (0,0),(1,1) LEO 2",
			Follower{epochs(0, 0), 2, 1}, leaderLog{epochs(0, 0, 1, 1), 2}},
		{"kip101-part1 and kip101-part2 step 4: A restarts with HW 1; with epochs it keeps m2",
			Follower{epochs(0, 0), 2, 1}, leaderLog{epochs(0, 0), 2}},
		{"kip101-part2 step 7: B returns as follower of A (0,0),(1,2) LEO 3",
			Follower{epochs(0, 0), 2, 2}, leaderLog{epochs(0, 0, 1, 2), 3}},
		{"kip101-part4 step 7: A (0,0) LEO 2 HW 2, leader B (0,0),(1,1) LEO 2: cut m2 although the HW says 2",
			Follower{epochs(0, 0), 2, 2}, leaderLog{epochs(0, 0, 1, 1), 2}},
		{"kip279-two-rounds steps 6b-6c (KIP-279): X (0,0),(2,2) LEO 3, leader Y (0,0),(1,1),(3,4) LEO 6: two rounds",
			Follower{epochs(0, 0, 2, 2), 3, 1}, leaderLog{epochs(0, 0, 1, 1, 3, 4), 6}},
		{"truncateFromEnd: (2,6),(3,8),(4,11) LEO 12, the leader's epoch 2 ends at 8: truncateFromEnd(8) leaves [(2,6)]",
			Follower{epochs(2, 6, 3, 8, 4, 11), 12, 12}, leaderLog{epochs(2, 6, 5, 8), 15}},
		{"truncateFromEnd: (2,6),(3,8),(4,11) LEO 12, the leader's epoch 3 ends at 9: truncateFromEnd(9) leaves [(2,6),(3,8)]",
			Follower{epochs(2, 6, 3, 8, 4, 11), 12, 10}, leaderLog{epochs(2, 6, 3, 8, 5, 9), 15}},
		{"three rounds: the follower led epochs 2 and 4 alone, the leader knows 1, 3 and 5",
			Follower{epochs(0, 0, 2, 2, 4, 5), 7, 6}, leaderLog{epochs(0, 0, 1, 1, 3, 3, 5, 6), 8}},
		{"the follower's log starts in epoch 1, which the leader (epochs 0 and 2) never had: cut everything",
			Follower{epochs(1, 0), 2, 2}, leaderLog{epochs(0, 0, 2, 3), 3}},
		{"the leader's log starts after retention at epoch 3: its answer for 2 is (2, 10), keep the log",
			Follower{epochs(1, 0, 2, 5), 8, 8}, leaderLog{epochs(3, 10), 15}},
		{"an empty follower (no epochs, LEO 0) asks nothing: nothing to cut",
			Follower{nil, 0, 0}, leaderLog{epochs(0, 0), 4}},
		{"a follower with records but no epochs (written before it cached any) asks nothing and cuts at its HW 2 (Kafka 2.2+)",
			Follower{nil, 5, 2}, leaderLog{epochs(0, 0), 8}},
		{"a follower with no epochs and HW 0 asks nothing and cuts its whole log",
			Follower{nil, 3, 0}, leaderLog{epochs(1, 0), 6}},
		{"the follower is ahead in an epoch the leader never wrote (undefined answer): keep the log",
			Follower{epochs(0, 0, 5, 3), 6, 3}, leaderLog{epochs(0, 0, 3, 2), 4}},
	}
}
