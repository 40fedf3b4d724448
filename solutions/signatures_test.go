package solutions

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/group/groupkit"
	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
	"pgregory.net/rapid"
)

// The retention, truncation and cooperative suites cannot run the bank's
// mutants as their signatures (the mutants use the solutions' types, and the
// solutions' tests import the suites), so they re-implement each mistake and
// name it after its mutant. The tests below hold every re-implementation to
// its mutant: on the same random inputs both must give the same answer (or
// both panic), so that "this looks like" names what the learner's code does,
// not what the suite imagines. rapid prints the seed of a failing run; replay
// it with: go test ./solutions/ -run 'TestSignaturesAreTheirMutants/EXERCISE/MISTAKE' -rapid.seed=N

// outcome is a call's answer, or that it panicked.
type outcome[T any] struct {
	Out      T
	Panicked bool
}

func run[T any](f func() T) outcome[T] {
	var o outcome[T]
	if kit.Recover(func() { o.Out = f() }) != nil {
		return outcome[T]{Panicked: true}
	}
	return o
}

// inputsPerCheck is how many inputs one rapid check draws (rapid shrinks the
// list to the one that differs).
const inputsPerCheck = 30

func TestSignaturesAreTheirMutants(t *testing.T) {
	t.Run("retention", func(t *testing.T) {
		t.Parallel()
		mutants := map[string]retentionFunc{}
		for _, m := range retentionMutants {
			mutants[m.name] = m.f
		}
		sigs := kafkalogkit.RetentionMistakes()
		for _, m := range retentionMutants {
			if !slices.ContainsFunc(sigs, func(s kafkalogkit.RetentionMistake) bool { return s.Name == m.name }) {
				t.Errorf("the bank's mutant %s has no signature in the retention suite: a learner who makes it gets no hint", m.name)
			}
		}
		for _, sig := range sigs {
			mutant, ok := mutants[sig.Name]
			if !ok {
				t.Errorf("the retention suite names a mistake %q that the bank does not hold", sig.Name)
				continue
			}
			learner := retentionAdapter(mutant)
			t.Run(sig.Name, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					for range rapid.IntRange(1, inputsPerCheck).Draw(t, "logs") {
						l, c, now := drawRetention(t)
						want := run(func() int { return learner.DeletableSegments(l, c, now) })
						got := run(func() int { return sig.Retention.DeletableSegments(l, c, now) })
						if diff := cmp.Diff(want, got); diff != "" {
							t.Fatalf("the suite's %s is not the mutant %s on log %+v, config %+v, now %d (-mutant +suite):\n%s", sig.Name, sig.Name, l, c, now, diff)
						}
					}
				})
			})
		}
	})
	t.Run("truncation", func(t *testing.T) {
		t.Parallel()
		mutants := map[string]truncationFuncs{}
		for _, m := range truncationMutants {
			mutants[m.name] = m.fs
		}
		sigs := replicakit.TruncationMistakes()
		for _, m := range truncationMutants {
			if !slices.ContainsFunc(sigs, func(s replicakit.TruncationMistake) bool { return s.Name == m.name }) {
				t.Errorf("the bank's mutant %s has no signature in the truncation suite: a learner who makes it gets no hint", m.name)
			}
		}
		for _, sig := range sigs {
			fs, ok := mutants[sig.Name]
			if !ok {
				t.Errorf("the truncation suite names a mistake %q that the bank does not hold", sig.Name)
				continue
			}
			learner := truncationAdapter(fs)
			t.Run(sig.Name, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					for range rapid.IntRange(1, inputsPerCheck).Draw(t, "rounds") {
						f := drawFollower(t, "follower")
						a := drawAnswer(t, f)
						type point struct {
							Offset int64
							Done   bool
						}
						pointOf := func(tr replicakit.Truncation) point {
							o, d := tr.TruncationPoint(slices.Clone(f.Epochs), f.LogEndOffset, f.HighWatermark, a)
							return point{o, d}
						}
						want := run(func() point { return pointOf(learner) })
						got := run(func() point { return pointOf(sig.Truncation) })
						if diff := cmp.Diff(want, got); diff != "" {
							t.Fatalf("the suite's %s is not the mutant %s on TruncationPoint(own %v, leo %d, hw %d, answer %+v) (-mutant +suite):\n%s",
								sig.Name, sig.Name, f.Epochs, f.LogEndOffset, f.HighWatermark, a, diff)
						}
						leader := drawFollower(t, "leader")
						truncate := func(tr replicakit.Truncation) replicakit.Follower {
							asked, limit := 0, len(f.Epochs)+3
							return tr.Truncate(replicakit.Follower{Epochs: slices.Clone(f.Epochs), LogEndOffset: f.LogEndOffset, HighWatermark: f.HighWatermark},
								func(e int32) replica.EpochEndOffset {
									if asked++; asked > limit {
										panic("too many rounds")
									}
									return leaderAnswer(leader, e)
								})
						}
						wantF := run(func() replicakit.Follower { return truncate(learner) })
						gotF := run(func() replicakit.Follower { return truncate(sig.Truncation) })
						if diff := cmp.Diff(wantF, gotF, cmpopts.EquateEmpty()); diff != "" {
							t.Fatalf("the suite's %s is not the mutant %s on Truncate(follower %+v) against leader epochs %v, LEO %d (-mutant +suite):\n%s",
								sig.Name, sig.Name, f, leader.Epochs, leader.LogEndOffset, diff)
						}
					}
				})
			})
		}
	})
	t.Run("cooperative", func(t *testing.T) {
		t.Parallel()
		mutants := map[string]cooperativeFunc{}
		for _, m := range cooperativeMutants {
			mutants[m.name] = m.f
		}
		sigs := groupkit.CooperativeMistakes()
		for _, m := range cooperativeMutants {
			if !slices.ContainsFunc(sigs, func(s groupkit.CooperativeMistake) bool { return s.Name == m.name }) {
				t.Errorf("the bank's mutant %s has no signature in the cooperative suite: a learner who makes it gets no hint", m.name)
			}
		}
		for _, sig := range sigs {
			mutant, ok := mutants[sig.Name]
			if !ok {
				t.Errorf("the cooperative suite names a mistake %q that the bank does not hold", sig.Name)
				continue
			}
			learner := cooperativeAdapter(mutant)
			t.Run(sig.Name, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					for range rapid.IntRange(1, inputsPerCheck).Draw(t, "rounds") {
						members, topics := drawGroup(t)
						want := run(func() group.Assignment { return sortedAssignment(learner.Assign(members, topics)) })
						got := run(func() group.Assignment { return sortedAssignment(sig.CooperativeSticky.Assign(members, topics)) })
						if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
							t.Fatalf("the suite's %s is not the mutant %s on members %+v, topics %+v (-mutant +suite):\n%s", sig.Name, sig.Name, members, topics, diff)
						}
					}
				})
			})
		}
	})
}

// drawRetention draws a log at the edges the rules turn on: segment sizes
// in steps of 50 against limits in steps of 50, ages one ms either side of
// retention.ms, empty active segments, and the high watermark and log start
// offset anywhere.
func drawRetention(t *rapid.T) (kafkalogkit.RetentionLog, kafkalogkit.RetentionConfig, int64) {
	const now = 1_700_000_000_000
	var l kafkalogkit.RetentionLog
	base := rapid.Int64Range(0, 3).Draw(t, "firstBaseOffset")
	for i := range rapid.IntRange(1, 5).Draw(t, "segments") {
		if i > 0 {
			base += rapid.Int64Range(1, 4).Draw(t, "recordsInSegment")
		}
		age := rapid.SampledFrom([]int64{0, 999, 1000, 1001, 5000}).Draw(t, "age")
		l.Segments = append(l.Segments, kafkalogkit.RetentionSegment{
			BaseOffset:       base,
			SizeInBytes:      50 * rapid.Int64Range(0, 4).Draw(t, "sizeIn50s"),
			FirstTimestamp:   now - age - rapid.SampledFrom([]int64{0, 1, 2000}).Draw(t, "firstOlderBy"),
			LargestTimestamp: now - age,
		})
	}
	l.LogEndOffset = base + rapid.Int64Range(0, 4).Draw(t, "recordsInActive")
	l.HighWatermark = rapid.Int64Range(0, l.LogEndOffset).Draw(t, "highWatermark")
	l.LogStartOffset = rapid.Int64Range(0, l.LogEndOffset).Draw(t, "logStartOffset")
	c := kafkalogkit.RetentionConfig{
		RetentionMs:    rapid.SampledFrom([]int64{-1, 0, 1000, 5000}).Draw(t, "retention.ms"),
		RetentionBytes: rapid.SampledFrom([]int64{-1, 0, 50, 100, 150, 250, 1000}).Draw(t, "retention.bytes"),
		Delete:         rapid.Bool().Draw(t, "cleanup.policy.delete"),
	}
	return l, c, now
}

// drawFollower draws an epoch cache (epochs and start offsets strictly
// increasing, maybe empty), a log end offset at or after its last start and a
// high watermark at or below it.
func drawFollower(t *rapid.T, who string) replicakit.Follower {
	var f replicakit.Follower
	epoch, start := int32(-1), int64(-1)
	for range rapid.IntRange(0, 4).Draw(t, who+"Epochs") {
		epoch += int32(rapid.IntRange(1, 2).Draw(t, who+"EpochStep"))
		start += rapid.Int64Range(1, 3).Draw(t, who+"RecordsInEpoch")
		f.Epochs = append(f.Epochs, replica.EpochEntry{Epoch: epoch, StartOffset: start})
	}
	f.LogEndOffset = max(start, 0) + rapid.Int64Range(0, 3).Draw(t, who+"RecordsAfterLastStart")
	f.HighWatermark = rapid.Int64Range(0, f.LogEndOffset).Draw(t, who+"HighWatermark")
	return f
}

// drawAnswer draws each kind of answer a leader gives: undefined, an end
// offset without an epoch, and an epoch below, inside or past the follower's.
func drawAnswer(t *rapid.T, f replicakit.Follower) replica.EpochEndOffset {
	end := rapid.Int64Range(0, f.LogEndOffset+3).Draw(t, "answerEndOffset")
	switch rapid.IntRange(0, 3).Draw(t, "answerKind") {
	case 0:
		return replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset}
	case 1:
		return replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: end}
	}
	latest := int32(0)
	if len(f.Epochs) > 0 {
		latest = f.Epochs[len(f.Epochs)-1].Epoch
	}
	return replica.EpochEndOffset{Epoch: rapid.Int32Range(0, latest+2).Draw(t, "answerEpoch"), EndOffset: end}
}

// leaderAnswer is the leader's OffsetsForLeaderEpoch answer from its cache.
func leaderAnswer(l replicakit.Follower, epoch int32) replica.EpochEndOffset {
	c, err := replica.NewEpochCache(l.Epochs)
	if err != nil {
		panic(err)
	}
	e, end, ok := c.EndOffsetFor(epoch, l.LogEndOffset)
	if !ok {
		return replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset}
	}
	return replica.EpochEndOffset{Epoch: e, EndOffset: end}
}

// drawGroup draws a group rejoining: up to five members listed in any order,
// each owning some partitions of the current topics, of a deleted topic or
// past a topic's end. No two members claim the same partition: the suite
// never gives such a group (Kafka settles such claims by generation,
// which the exercise does not see).
func drawGroup(t *rapid.T) ([]groupkit.Member, []group.TopicMetadata) {
	var topics []group.TopicMetadata
	for _, name := range []string{"t0", "t1", "t2"} {
		if rapid.IntRange(0, 3).Draw(t, "topicExists") > 0 {
			topics = append(topics, group.TopicMetadata{Topic: name, Partitions: int32(rapid.IntRange(0, 5).Draw(t, "partitions"))})
		}
	}
	ids := rapid.Permutation([]string{"a", "b", "c", "d", "e"}).Draw(t, "memberOrder")
	ids = ids[:rapid.IntRange(0, len(ids)).Draw(t, "members")]
	var members []groupkit.Member
	var claimed []group.TopicPartition
	for _, id := range ids {
		m := groupkit.Member{MemberID: id}
		for range rapid.IntRange(0, 4).Draw(t, "owned") {
			tp := group.TopicPartition{
				Topic:     rapid.SampledFrom([]string{"t0", "t1", "t2", "deleted"}).Draw(t, "ownedTopic"),
				Partition: int32(rapid.IntRange(0, 5).Draw(t, "ownedPartition")),
			}
			if !slices.Contains(claimed, tp) {
				m.OwnedPartitions = append(m.OwnedPartitions, tp)
				claimed = append(claimed, tp)
			}
		}
		members = append(members, m)
	}
	return members, topics
}

// sortedAssignment sorts each member's partitions: their order in a list
// means nothing.
func sortedAssignment(a group.Assignment) group.Assignment {
	if a == nil {
		return nil
	}
	out := group.Assignment{}
	for id, tps := range a {
		out[id] = slices.SortedFunc(slices.Values(tps), group.CompareTopicPartitions)
	}
	return out
}
