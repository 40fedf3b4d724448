package main

import (
	"github.com/kafkalive/kafkalive/exercises/ch01/batch"
	"github.com/kafkalive/kafkalive/exercises/ch01/varint"
	"github.com/kafkalive/kafkalive/exercises/ch02/index"
	"github.com/kafkalive/kafkalive/exercises/ch03/retention"
	"github.com/kafkalive/kafkalive/exercises/ch04/recovery"
	"github.com/kafkalive/kafkalive/exercises/ch05/truncation"
	"github.com/kafkalive/kafkalive/exercises/ch06/cooperative"
	"github.com/kafkalive/kafkalive/exercises/ch07/readcommitted"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/group/groupkit"
	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
)

// yourCode is the exercises' functions in the suites' types, as each
// exercise's test file passes them to its suite.
func yourCode() kitlive.Code {
	return kitlive.Code{
		Varint:        kafkalogkit.VarintCodec{AppendVarint: varint.AppendVarint},
		Batch:         kafkalogkit.BatchEncoder{AppendRecord: batch.AppendRecord, AppendBatch: batch.AppendBatch},
		Index:         kafkalogkit.IndexLookup{LookupIndex: index.LookupIndex, FindBatch: index.FindBatch},
		Retention:     kafkalogkit.Retention{DeletableSegments: deletableSegments},
		Recovery:      kafkalogkit.Recovery{Recover: recovery.Recover},
		Truncation:    replicakit.Truncation{TruncationPoint: truncationPoint, Truncate: truncate},
		Cooperative:   groupkit.CooperativeSticky{Assign: assign},
		ReadCommitted: kafkalogkit.ReadCommitted{Deliver: deliver},
	}
}

func deletableSegments(l kafkalogkit.RetentionLog, c kafkalogkit.RetentionConfig, nowMs int64) int {
	log := retention.Log{LogEndOffset: l.LogEndOffset, HighWatermark: l.HighWatermark, LogStartOffset: l.LogStartOffset}
	for _, s := range l.Segments {
		log.Segments = append(log.Segments, retention.Segment(s))
	}
	return retention.DeletableSegments(log, retention.Config(c), nowMs)
}

func truncationPoint(own []replica.EpochEntry, leo, hw int64, answer replica.EpochEndOffset) (int64, bool) {
	var es []truncation.EpochEntry
	for _, e := range own {
		es = append(es, truncation.EpochEntry(e))
	}
	return truncation.TruncationPoint(es, leo, hw, truncation.EpochEndOffset(answer))
}

func truncate(f replicakit.Follower, ask func(int32) replica.EpochEndOffset) replicakit.Follower {
	in := truncation.Follower{LogEndOffset: f.LogEndOffset, HighWatermark: f.HighWatermark}
	for _, e := range f.Epochs {
		in.Epochs = append(in.Epochs, truncation.EpochEntry(e))
	}
	got := truncation.Truncate(in, func(epoch int32) truncation.EpochEndOffset { return truncation.EpochEndOffset(ask(epoch)) })
	out := replicakit.Follower{LogEndOffset: got.LogEndOffset, HighWatermark: got.HighWatermark}
	for _, e := range got.Epochs {
		out.Epochs = append(out.Epochs, replica.EpochEntry(e))
	}
	return out
}

func assign(members []groupkit.Member, topics []group.TopicMetadata) group.Assignment {
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
	got := cooperative.Assign(ms, ts)
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
}

func deliver(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []kafkalogkit.AbortedTransaction) []int64 {
	list := make([]readcommitted.AbortedTransaction, len(aborted))
	for i, a := range aborted {
		list[i] = readcommitted.AbortedTransaction(a)
	}
	return readcommitted.Deliver(fetchOffset, batches, list)
}
