package bank

import (
	"slices"
	"testing"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/group/groupkit"
	"github.com/kafkalive/kafkalive/internal/kit"
	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint"
	"github.com/kafkalive/kafkalive/solutions/ch02/index"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative"
	"github.com/kafkalive/kafkalive/solutions/ch07/readcommitted"
	"pgregory.net/rapid"
)

// subject is one implementation of an exercise, seen through its suite.
type subject struct {
	name   string
	says   string   // a mutant's Mistake: line
	breaks []string // a mutant's Breaks: line
	// check runs the suite's known answers; props is its rapid property.
	// Both recognise the bank's mistakes in what they judge.
	check func() error
	props func(*rapid.T)
	live  kitlive.Code // the implementation, plugged into the live cluster
}

// exercise is everything the bank's tests need about one exercise.
type exercise struct {
	name     string // "ch01/varint"
	rules    string // the first letter of its suite's rule IDs
	solution subject
	stub     subject
	// stubTest runs the suite's Test entry point on the stub (in a helper process).
	stubTest func(t *testing.T)
	mutants  []subject
	// unseen builds subjects from implementations in the solution's types,
	// judged against the whole bank.
	unseen func(name string, impl any) subject
}

// suite is one exercise's suite, for newExercise.
type suite[S any] struct {
	check func(S, ...kit.Known[S]) error
	props func(S, ...kit.Known[S]) func(*rapid.T)
	test  func(*testing.T, S, ...kit.Known[S])
	live  func(S) kitlive.Code
}

func newExercise[S any](name, rules string, s suite[S], known []kit.Known[S], solution, stub S, adapt func(any) S) exercise {
	of := func(name string, impl S) subject {
		return subject{name: name, check: func() error { return s.check(impl, known...) }, props: s.props(impl, known...), live: s.live(impl)}
	}
	e := exercise{
		name: name, rules: rules,
		solution: of("solution", solution),
		stub:     of("stub", stub),
		stubTest: func(t *testing.T) { s.test(t, stub, known...) },
		unseen:   func(name string, impl any) subject { return of(name, adapt(impl)) },
	}
	for _, k := range known {
		m := of(k.Name, k.Impl)
		m.says, m.breaks = k.Says, slices.Clone(k.Breaks)
		e.mutants = append(e.mutants, m)
	}
	return e
}

// exercises lists the kit's exercises, in chapter order.
func exercises() []exercise {
	return []exercise{
		newExercise("ch01/varint", "V", suite[kafkalogkit.VarintCodec]{kafkalogkit.CheckVarint, kafkalogkit.VarintProperties, kafkalogkit.TestVarint,
			func(c kafkalogkit.VarintCodec) kitlive.Code { return kitlive.Code{Varint: c} }},
			Varint(), kafkalogkit.VarintCodec{AppendVarint: varint.AppendVarint},
			kafkalogkit.VarintCodec{AppendVarint: func([]byte, int32) []byte { panic(stubTODO{}) }},
			func(f any) kafkalogkit.VarintCodec {
				return kafkalogkit.VarintCodec{AppendVarint: f.(func([]byte, int32) []byte)}
			}),
		newExercise("ch01/batch", "B", suite[kafkalogkit.BatchEncoder]{kafkalogkit.CheckBatch, kafkalogkit.BatchProperties, kafkalogkit.TestBatch,
			func(e kafkalogkit.BatchEncoder) kitlive.Code { return kitlive.Code{Batch: e} }},
			Batch(), kafkalogkit.BatchEncoder{AppendRecord: batch.AppendRecord, AppendBatch: batch.AppendBatch},
			kafkalogkit.BatchEncoder{
				AppendRecord: func([]byte, *kafkalog.Record) []byte { panic(stubTODO{}) },
				AppendBatch:  func([]byte, *kafkalog.RecordBatch) []byte { panic(stubTODO{}) },
			},
			func(e any) kafkalogkit.BatchEncoder { return e.(kafkalogkit.BatchEncoder) }),
		newExercise("ch02/index", "I", suite[kafkalogkit.IndexLookup]{kafkalogkit.CheckIndex, kafkalogkit.IndexProperties, kafkalogkit.TestIndex,
			func(l kafkalogkit.IndexLookup) kitlive.Code { return kitlive.Code{Index: l} }},
			Index(), kafkalogkit.IndexLookup{LookupIndex: index.LookupIndex, FindBatch: index.FindBatch},
			kafkalogkit.IndexLookup{
				LookupIndex: func([]byte, int, int64, int64) (int64, int32) { panic(stubTODO{}) },
				FindBatch:   func([]byte, int32, int64) (int32, bool) { panic(stubTODO{}) },
			},
			func(l any) kafkalogkit.IndexLookup { return l.(kafkalogkit.IndexLookup) }),
		newExercise("ch03/retention", "R", suite[kafkalogkit.Retention]{kafkalogkit.CheckRetention, kafkalogkit.RetentionProperties, kafkalogkit.TestRetention,
			func(r kafkalogkit.Retention) kitlive.Code { return kitlive.Code{Retention: r} }},
			Retention(), retentionAdapter(retention.DeletableSegments),
			retentionAdapter(func(retention.Log, retention.Config, int64) int { panic(stubTODO{}) }),
			func(f any) kafkalogkit.Retention { return retentionAdapter(f.(retentionFunc)) }),
		newExercise("ch04/recovery", "C", suite[kafkalogkit.Recovery]{kafkalogkit.CheckRecovery, kafkalogkit.RecoveryProperties, kafkalogkit.TestRecovery,
			func(r kafkalogkit.Recovery) kitlive.Code { return kitlive.Code{Recovery: r} }},
			Recovery(), kafkalogkit.Recovery{Recover: recovery.Recover},
			kafkalogkit.Recovery{Recover: func([]byte, int64, int) (int, []byte) { panic(stubTODO{}) }},
			func(f any) kafkalogkit.Recovery {
				return kafkalogkit.Recovery{Recover: f.(func([]byte, int64, int) (int, []byte))}
			}),
		newExercise("ch05/truncation", "T", suite[replicakit.Truncation]{replicakit.CheckTruncation, replicakit.TruncationProperties, replicakit.TestTruncation,
			func(tr replicakit.Truncation) kitlive.Code { return kitlive.Code{Truncation: tr} }},
			Truncation(), truncationAdapter(truncationFuncs{truncation.TruncationPoint, truncation.Truncate}),
			truncationAdapter(truncationFuncs{
				point: func([]truncation.EpochEntry, int64, int64, truncation.EpochEndOffset) (int64, bool) {
					panic(stubTODO{})
				},
				truncate: func(truncation.Follower, func(int32) truncation.EpochEndOffset) truncation.Follower {
					panic(stubTODO{})
				},
			}),
			func(fs any) replicakit.Truncation { return truncationAdapter(fs.(truncationFuncs)) }),
		newExercise("ch06/cooperative", "G", suite[groupkit.CooperativeSticky]{groupkit.CheckCooperativeSticky, groupkit.CooperativeStickyProperties, groupkit.TestCooperativeSticky,
			func(a groupkit.CooperativeSticky) kitlive.Code { return kitlive.Code{Cooperative: a} }},
			Cooperative(), cooperativeAdapter(cooperative.Assign),
			cooperativeAdapter(func([]cooperative.Member, []cooperative.TopicMetadata) cooperative.Assignment { panic(stubTODO{}) }),
			func(f any) groupkit.CooperativeSticky { return cooperativeAdapter(f.(cooperativeFunc)) }),
		newExercise("ch07/readcommitted", "E", suite[kafkalogkit.ReadCommitted]{kafkalogkit.CheckReadCommitted, kafkalogkit.ReadCommittedProperties, kafkalogkit.TestReadCommitted,
			func(r kafkalogkit.ReadCommitted) kitlive.Code { return kitlive.Code{ReadCommitted: r} }},
			ReadCommitted(), readCommittedAdapter(readcommitted.Deliver),
			readCommittedAdapter(func(int64, []kafkalog.RecordBatch, []readcommitted.AbortedTransaction) []int64 { panic(stubTODO{}) }),
			func(f any) kafkalogkit.ReadCommitted { return readCommittedAdapter(f.(readCommittedFunc)) }),
	}
}

// stubTODO is what an untouched exercise stub panics with, built here the way
// exercises/todo builds it (the root module cannot import the exercises module).
type stubTODO struct{}

func (stubTODO) NotStarted() bool { return true }

// The adapters below call a function written in the solution's types with
// the suite's, as the exercise's test file does.

type retentionFunc = func(retention.Log, retention.Config, int64) int

func retentionAdapter(f retentionFunc) kafkalogkit.Retention {
	return kafkalogkit.Retention{DeletableSegments: func(l kafkalogkit.RetentionLog, c kafkalogkit.RetentionConfig, nowMs int64) int {
		log := retention.Log{LogEndOffset: l.LogEndOffset, HighWatermark: l.HighWatermark, LogStartOffset: l.LogStartOffset}
		for _, s := range l.Segments {
			log.Segments = append(log.Segments, retention.Segment(s))
		}
		return f(log, retention.Config(c), nowMs)
	}}
}

// truncationFuncs are the two functions of exercise ch05/truncation.
type truncationFuncs struct {
	point    func([]truncation.EpochEntry, int64, int64, truncation.EpochEndOffset) (int64, bool)
	truncate func(truncation.Follower, func(int32) truncation.EpochEndOffset) truncation.Follower
}

func truncationAdapter(fs truncationFuncs) replicakit.Truncation {
	fromSuite := func(es []replica.EpochEntry) []truncation.EpochEntry {
		var out []truncation.EpochEntry
		for _, e := range es {
			out = append(out, truncation.EpochEntry(e))
		}
		return out
	}
	return replicakit.Truncation{
		TruncationPoint: func(own []replica.EpochEntry, leo, hw int64, a replica.EpochEndOffset) (int64, bool) {
			return fs.point(fromSuite(own), leo, hw, truncation.EpochEndOffset(a))
		},
		Truncate: func(f replicakit.Follower, ask func(int32) replica.EpochEndOffset) replicakit.Follower {
			got := fs.truncate(truncation.Follower{Epochs: fromSuite(f.Epochs), LogEndOffset: f.LogEndOffset, HighWatermark: f.HighWatermark},
				func(e int32) truncation.EpochEndOffset { return truncation.EpochEndOffset(ask(e)) })
			out := replicakit.Follower{LogEndOffset: got.LogEndOffset, HighWatermark: got.HighWatermark}
			for _, e := range got.Epochs {
				out.Epochs = append(out.Epochs, replica.EpochEntry(e))
			}
			return out
		},
	}
}

type cooperativeFunc = func([]cooperative.Member, []cooperative.TopicMetadata) cooperative.Assignment

func cooperativeAdapter(f cooperativeFunc) groupkit.CooperativeSticky {
	return groupkit.CooperativeSticky{Assign: func(members []groupkit.Member, topics []group.TopicMetadata) group.Assignment {
		var ms []cooperative.Member
		for _, m := range members {
			var owned []cooperative.TopicPartition
			for _, tp := range m.OwnedPartitions {
				owned = append(owned, cooperative.TopicPartition(tp))
			}
			ms = append(ms, cooperative.Member{MemberID: m.MemberID, OwnedPartitions: owned})
		}
		var ts []cooperative.TopicMetadata
		for _, t := range topics {
			ts = append(ts, cooperative.TopicMetadata{Topic: t.Topic, Partitions: t.Partitions})
		}
		got := f(ms, ts)
		if got == nil {
			return nil
		}
		out := group.Assignment{}
		for id, tps := range got {
			out[id] = []group.TopicPartition{}
			for _, tp := range tps {
				out[id] = append(out[id], group.TopicPartition(tp))
			}
		}
		return out
	}}
}

type readCommittedFunc = func(int64, []kafkalog.RecordBatch, []readcommitted.AbortedTransaction) []int64

// readCommittedAdapter hands the list to f in the solution's type, and
// hands the suite back the list as f left it.
func readCommittedAdapter(f readCommittedFunc) kafkalogkit.ReadCommitted {
	return kafkalogkit.ReadCommitted{Deliver: func(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []kafkalogkit.AbortedTransaction) []int64 {
		list := make([]readcommitted.AbortedTransaction, len(aborted))
		for i, a := range aborted {
			list[i] = readcommitted.AbortedTransaction(a)
		}
		got := f(fetchOffset, batches, list)
		for i, a := range list {
			aborted[i] = kafkalogkit.AbortedTransaction(a)
		}
		return got
	}}
}
