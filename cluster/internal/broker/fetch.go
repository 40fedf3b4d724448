package broker

import (
	"bytes"

	"github.com/kafkalive/kafkalive/cluster/internal/event"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// FetchEntries returns what a consumer's fetch at pos gets from the leader's log s: the
// mirror from pos, or, with Parts.Log's lookup, the records at or above pos of the
// batches the log reads at pos (which begin above the next record, or end below pos,
// when the lookup is wrong). A consumer drops the records of a fetched batch below
// its fetch position, and moves past a batch without records to the offset after it,
// as Kafka 3.7's CompletedFetch.nextFetchedRecord does: the batch holding pos may
// begin before it, and the cleaner leaves empty batches. As the mirror does, the fetch
// goes on from there, segment after segment, to the log end. stuck is set when a read
// brought nothing at or above its offset although the log holds records there below
// the HW: the consumer asks again at the same offset.
func (b *Broker) FetchEntries(env Env, s *Partition, pos int64, limit int) (entries []replica.Entry, byPart, stuck bool) {
	p := b.cfg.Parts.Log
	mirror := func(from int64) []replica.Entry {
		i := s.Log.Index(from)
		return s.Log.Mirror().Slice(i, i+limit)
	}
	if p.LookupIndex == nil && p.FindBatch == nil || s.TP.Topic == metadata.OffsetsTopic {
		b.fetchRead(env, s, pos)
		return mirror(pos), false, false
	}
	var out []replica.Entry
	for next := pos; next < s.Log.LogEndOffset(); {
		before := s.Log.Kafka().ReadStats()
		got, after, ok := b.readWithPart(env, s, next)
		if next == pos {
			b.CountFetchRead(env, s, before) // the fetch's read; those after it stand for the next fetches
		}
		if !ok {
			if next == pos {
				return mirror(pos), false, false
			}
			return append(out, mirror(next)...), true, false
		}
		out = append(out, got...)
		if after <= next {
			if i := s.Log.Index(next); i < s.Log.Mirror().Len() && s.Log.Mirror().At(i).Offset < s.Node.Progress().HighWatermark {
				env.Record(event.Consume, 0, &s.TP, "a fetch at offset %d got no batch reaching it: nothing to hand out, it asks again", next)
				env.MarkLast(event.PartLookup)
				stuck = len(out) == 0
			}
			break
		}
		next = after
	}
	return out, true, stuck
}

// readWithPart is one read of the leader's log s at pos with the lookup part: the
// records at or above pos of the batches it reads, and the offset after the last of
// those batches (pos if none reaches it); ok is false when the part did not decide
// the read (it declined, or the log refused its answer).
func (b *Broker) readWithPart(env Env, s *Partition, pos int64) (out []replica.Entry, after int64, ok bool) {
	before := s.Log.Kafka().PartCalls()
	raw, err := s.Log.Kafka().Read(pos, replica.DefaultReplicaFetchMaxBytes)
	b.noteRefused(env, s, before, event.PartLookup)
	if err != nil || s.Log.Kafka().PartCalls().Lookup == before.Lookup {
		return nil, pos, false
	}
	var dec kafkalog.Decoder
	var rb kafkalog.RecordBatch
	after = pos
	for at := 0; at < len(raw); {
		n, err := dec.Decode(raw[at:], &rb)
		if err != nil {
			break
		}
		at += n
		after = max(after, rb.NextOffset())
		for i := range rb.Records {
			r := &rb.Records[i]
			if rb.Offset(r) >= pos {
				e := replica.Entry{Offset: rb.Offset(r), LeaderEpoch: rb.PartitionLeaderEpoch, Key: bytes.Clone(r.Key), Value: bytes.Clone(r.Value)}
				if i == 0 && rb.Attributes.IsControl() {
					e.Batch = raw[at-n : at] // a transaction marker: the consumer passes it (controlEntry)
				}
				out = append(out, e)
			}
		}
	}
	return out, after, true
}

// noteRefused records, as an event of part, the answer of a part the log of s
// refused since before (its [kafkalog.Log.PartCalls] then): the log could not act
// on it (a fetch position that does not start a batch, the empty active segment
// to delete) and answered that call itself.
func (b *Broker) noteRefused(env Env, s *Partition, before kafkalog.PartCalls, part string) {
	after := s.Log.Kafka().PartCalls().Refused
	n := len(after)
	if n == 0 || len(before.Refused) == n && before.Refused[n-1] == after[n-1] {
		return
	}
	env.Record(event.Storage, 0, &s.TP, "the %s given in Parts was refused: %s; the log's own answered", part, after[n-1])
	env.MarkLast(part)
}
