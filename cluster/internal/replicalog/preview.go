package replicalog

import (
	"fmt"
	"iter"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Preview is an entry as a page shows it: its key and value cut to a
// preview length (Entry.Key, Entry.Value), with the sizes they have
// whole (-1: null). Entry.Batch is set on a batch's first entry, as in the
// mirror; Entry.Producer is not set.
type Preview struct {
	Entry              replica.Entry
	KeySize, ValueSize int
}

// PreviewFrom yields the positions and previews of the entries from
// position i on, keys and values cut to limit bytes. An entry decoded
// already (an eager chunk's, or a lazy chunk's the mirror keeps decoded)
// is cut; a lazy chunk's others are read from its batch's bytes with
// [kafkalog.Decoder.Preview], which decompresses no further than the last
// entry yielded and holds no more than limit bytes of a key or a value,
// and nothing is kept: a page that shows a client's batches of one 60 MiB
// value each costs a few kilobytes of each, not the values.
func (m *Mirror) PreviewFrom(i, limit int) iter.Seq2[int, Preview] {
	return func(yield func(int, Preview) bool) {
		if i >= m.n {
			return
		}
		var dec kafkalog.Decoder
		for c := m.chunkOf(max(i, 0)); c < m.chunks.Len(); c++ {
			ch := m.chunks.At(c)
			first := m.start(ch)
			from := max(i-first, 0)
			if es := m.decodedOf(ch); es != nil {
				for k := from; k < len(es); k++ {
					if !yield(first+k, cut(&es[k], limit)) {
						return
					}
				}
				continue
			}
			if !m.previewLazy(&dec, ch, from, limit, func(k int, p Preview) bool { return yield(first+k, p) }) {
				return
			}
		}
	}
}

// decodedOf is chunk ch's entries if they are decoded (always for an
// eager chunk; a lazy one's while the cache keeps them), else nil; it
// decodes nothing and changes nothing in the cache.
func (m *Mirror) decodedOf(ch *chunk) []replica.Entry {
	if ch.entries != nil || ch.batch == nil {
		return ch.entries
	}
	return m.cache.get(ch.batch)
}

// cut is e's preview.
func cut(e *replica.Entry, limit int) Preview {
	p := Preview{Entry: replica.Entry{Offset: e.Offset, LeaderEpoch: e.LeaderEpoch, Count: e.Count, Batch: e.Batch}, KeySize: -1, ValueSize: -1}
	if e.Key != nil {
		p.Entry.Key, p.KeySize = e.Key[:min(len(e.Key), limit):min(len(e.Key), limit)], len(e.Key)
	}
	if e.Value != nil {
		p.Entry.Value, p.ValueSize = e.Value[:min(len(e.Value), limit):min(len(e.Value), limit)], len(e.Value)
	}
	return p
}

// previewLazy yields the previews of lazy chunk ch's entries from the
// from-th on (k counts from the chunk's first), read from its batch's
// bytes; false if yield stopped.
func (m *Mirror) previewLazy(dec *kafkalog.Decoder, ch *chunk, from, limit int, yield func(k int, p Preview) bool) bool {
	raw := m.bytesOf(ch)
	stopped, seen := false, 0
	_, err := dec.Preview(raw, limit, func(r int, rec *kafkalog.PreviewRecord) bool {
		k := r - ch.skip
		if k < from {
			return true
		}
		if k >= ch.n {
			return false
		}
		seen++
		p := Preview{Entry: replica.Entry{Offset: ch.lo + int64(k), LeaderEpoch: ch.epoch, Key: rec.Key, Value: rec.Value},
			KeySize: rec.KeySize, ValueSize: rec.ValueSize}
		if r == 0 {
			p.Entry.Batch = raw
		}
		if !yield(k, p) {
			stopped = true
			return false
		}
		return k < ch.n-1
	})
	if err != nil || !stopped && seen != ch.n-from {
		// The bytes decoded when the chunk was made, and they never change.
		panic(fmt.Sprintf("cluster: a mirrored batch at offset %d no longer previews %d records from %d: %v", ch.batch.base, ch.n, ch.skip, err))
	}
	return !stopped
}
