package broker

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// offsetFetch reads committed offsets through the coordinator of each
// group (v8+ batches groups). A transactional offset not yet committed is
// not counted; with require_stable (v7+, KIP-447: Kafka's consumer sends
// it at isolation.level=read_committed) a partition whose offset has a
// transactional commit pending is answered UNSTABLE_OFFSET_COMMIT with
// offset -1, as Kafka 3.7's GroupMetadataManager.getOffsets answers it, so
// that a consumer taking over a consume-transform-produce partition waits
// for the transaction's end rather than start from a stale offset (the
// simulated copiers' read is the same rule: Broker.StableCommitted).
func (rq *Requests) offsetFetch(env Env, b *Broker, id uint64, x *Request, r *kmsg.OffsetFetchRequest) {
	resp := r.ResponseKind().(*kmsg.OffsetFetchResponse)
	var parts []group.Request
	if r.Version < 8 {
		f := group.OffsetFetch{GroupID: r.Group, MemberEpoch: -1}
		if r.Topics != nil || r.Version < 2 {
			f.Partitions = []group.TopicPartition{}
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					f.Partitions = append(f.Partitions, group.TopicPartition{Topic: t.Topic, Partition: p})
				}
			}
		}
		parts = append(parts, f)
	} else {
		for _, g := range r.Groups {
			f := group.OffsetFetch{GroupID: g.Group, MemberID: deref(g.MemberID), MemberEpoch: g.MemberEpoch}
			if r.Version < 9 {
				f.MemberID, f.MemberEpoch = "", -1
			}
			if g.Topics != nil {
				f.Partitions = []group.TopicPartition{}
				for _, t := range g.Topics {
					for _, p := range t.Partitions {
						f.Partitions = append(f.Partitions, group.TopicPartition{Topic: t.Topic, Partition: p})
					}
				}
			}
			parts = append(parts, f)
			rg := kmsg.NewOffsetFetchResponseGroup()
			rg.Group = g.Group
			resp.Groups = append(resp.Groups, rg)
		}
	}
	var unstable []map[group.TopicPartition]bool
	if r.Version >= 7 && r.RequireStable {
		unstable = make([]map[group.TopicPartition]bool, len(parts))
	}
	for i, p := range parts {
		if p.Group() == "" {
			fillAnswer(r, resp, i, nil, kafkaerr.InvalidGroupID, nil)
			parts[i] = nil // answered; the others keep their place in resp
			continue
		}
		if unstable != nil && b.Coordinates(env, p.Group()) {
			unstable[i] = b.pendingTxnOffsets(p.Group())
		}
	}
	if !slices.ContainsFunc(parts, func(p group.Request) bool { return p != nil }) {
		rq.answer(id, resp)
		return
	}
	rq.stepParts(env, b, id, x, r, resp, parts, unstable)
}

// markUnstable answers UNSTABLE_OFFSET_COMMIT, offset -1, for the
// partitions of part part of an OffsetFetch answer whose commit is pending.
func markUnstable(r *kmsg.OffsetFetchResponse, part int, unstable map[group.TopicPartition]bool) {
	mark := func(topic string, partition int32, offset *int64, epoch *int32, metadata **string, code *int16) {
		if *code == 0 && unstable[group.TopicPartition{Topic: topic, Partition: partition}] {
			*offset, *epoch, *metadata, *code = -1, -1, ptr(""), kafkaerr.UnstableOffsetCommit
		}
	}
	if r.Version >= 8 {
		if part >= len(r.Groups) || r.Groups[part].ErrorCode != 0 {
			return
		}
		for _, t := range r.Groups[part].Topics {
			for i := range t.Partitions {
				p := &t.Partitions[i]
				mark(t.Topic, p.Partition, &p.Offset, &p.LeaderEpoch, &p.Metadata, &p.ErrorCode)
			}
		}
		return
	}
	if r.ErrorCode != 0 {
		return
	}
	for _, t := range r.Topics {
		for i := range t.Partitions {
			p := &t.Partitions[i]
			mark(t.Topic, p.Partition, &p.Offset, &p.LeaderEpoch, &p.Metadata, &p.ErrorCode)
		}
	}
}

func fillOffsetFetch(req *kmsg.OffsetFetchRequest, r *kmsg.OffsetFetchResponse, part int, a group.OffsetFetchResponse) {
	code := int16(a.Error)
	if r.Version >= 8 {
		if part >= len(r.Groups) {
			return
		}
		g := &r.Groups[part]
		g.ErrorCode = code
		if code != 0 {
			return
		}
		for _, po := range a.Offsets {
			if n := len(g.Topics); n == 0 || g.Topics[n-1].Topic != po.Topic {
				t := kmsg.NewOffsetFetchResponseGroupTopic()
				t.Topic = po.Topic
				g.Topics = append(g.Topics, t)
			}
			p := kmsg.NewOffsetFetchResponseGroupTopicPartition()
			p.Partition, p.Offset, p.LeaderEpoch, p.Metadata = po.Partition, po.Offset, po.LeaderEpoch, ptr(po.Metadata)
			t := &g.Topics[len(g.Topics)-1]
			t.Partitions = append(t.Partitions, p)
		}
		return
	}
	if code != 0 {
		if r.Version >= 2 {
			r.ErrorCode = code
			return
		}
		// v0-v1 have no group-level error: every partition asked for has it.
		for _, t := range req.Topics {
			rt := kmsg.NewOffsetFetchResponseTopic()
			rt.Topic = t.Topic
			for _, p := range t.Partitions {
				rp := kmsg.NewOffsetFetchResponseTopicPartition()
				rp.Partition, rp.Offset, rp.Metadata, rp.ErrorCode = p, -1, ptr(""), code
				rt.Partitions = append(rt.Partitions, rp)
			}
			r.Topics = append(r.Topics, rt)
		}
		return
	}
	for _, po := range a.Offsets {
		if n := len(r.Topics); n == 0 || r.Topics[n-1].Topic != po.Topic {
			t := kmsg.NewOffsetFetchResponseTopic()
			t.Topic = po.Topic
			r.Topics = append(r.Topics, t)
		}
		p := kmsg.NewOffsetFetchResponseTopicPartition()
		p.Partition, p.Offset, p.LeaderEpoch, p.Metadata = po.Partition, po.Offset, po.LeaderEpoch, ptr(po.Metadata)
		t := &r.Topics[len(r.Topics)-1]
		t.Partitions = append(t.Partitions, p)
	}
}
