package replicalog

import "github.com/kafkalive/kafkalive/replica"

// MirrorCacheBytes bounds the decoded entries of lazy chunks a mirror
// keeps, by Read's measure (70 bytes an entry plus its key and value):
// 8 MiB, about what the 32,768 entries of 100-byte records it kept before
// the bound was in bytes took, so that a batch just decoded serves the
// page and the checker again, while a client's records decompressing to
// tens of MiB (a gzip batch of one 60 MiB value is 60 KB on the wire) are
// decoded for their reader and not kept at all. Kafka keeps no decoded
// record: a fetch sends the log's bytes (FileRecords) and a consumer
// decodes them; the cache is the simulation's, for the readers that want
// records.
const MirrorCacheBytes = 8 << 20

// decodedCache keeps the decoded entries of a mirror's lazy chunks, those
// decoded last first to stay, up to a budget of bytes by Read's measure
// (entriesSize): a chunk whose entries alone are over the budget is not
// kept. It is no state of the log (a chunk decodes to the same entries
// again), so a mirror's clone starts with an empty cache: a snapshot holds
// no decoded record, whatever the page read before it was taken.
type decodedCache struct {
	// entries are the decoded chunks by their batch: a lazy chunk whose
	// entries are not set is its batch's only chunk in the mirror, as
	// made (a cut sets the entries of the chunk it cuts).
	entries map[*LazyBatch][]replica.Entry
	// order lists them oldest first, from head on, with where each chunk
	// began (to tell whether it is still there after a cut) and its size.
	order []cachedChunk
	head  int
	// bytes is the sum of their sizes.
	bytes int
	// budget, if above 0, replaces MirrorCacheBytes (tests).
	budget int
}

// cachedChunk is one chunk in the cache's order.
type cachedChunk struct {
	batch *LazyBatch
	first int
	size  int
}

// get returns the entries kept for batch b's chunk, nil if none.
func (dc *decodedCache) get(b *LazyBatch) []replica.Entry { return dc.entries[b] }

// limit is the cache's budget in bytes.
func (dc *decodedCache) limit() int {
	if dc.budget > 0 {
		return dc.budget
	}
	return MirrorCacheBytes
}

// put keeps es, the decoded entries of batch b's chunk beginning at
// position first, forgetting the chunks kept longest ago while the cache
// is over its budget; entries over the budget alone are not kept.
func (dc *decodedCache) put(b *LazyBatch, first int, es []replica.Entry) {
	size := entriesSize(es)
	if size > dc.limit() {
		return
	}
	if _, ok := dc.entries[b]; ok {
		return
	}
	if dc.entries == nil {
		dc.entries = map[*LazyBatch][]replica.Entry{}
	}
	for dc.bytes+size > dc.limit() && dc.head < len(dc.order) {
		dc.evict()
	}
	dc.entries[b] = es
	dc.order = append(dc.order, cachedChunk{batch: b, first: first, size: size})
	dc.bytes += size
}

// evict forgets the chunk kept longest ago.
func (dc *decodedCache) evict() {
	old := dc.order[dc.head]
	dc.order[dc.head] = cachedChunk{}
	dc.head++
	delete(dc.entries, old.batch)
	dc.bytes -= old.size
	if dc.head > 16 && dc.head > len(dc.order)/2 {
		dc.order = append([]cachedChunk(nil), dc.order[dc.head:]...) // let the forgotten front go
		dc.head = 0
	}
}

// keep forgets the chunks for which there returns false (no longer in the
// mirror as they were cached, after a cut or a drop of its front).
func (dc *decodedCache) keep(there func(first int, b *LazyBatch) bool) {
	kept := dc.order[:0]
	for _, c := range dc.order[dc.head:] {
		if there(c.first, c.batch) {
			kept = append(kept, c)
			continue
		}
		delete(dc.entries, c.batch)
		dc.bytes -= c.size
	}
	clear(dc.order[len(kept):])
	dc.order, dc.head = kept, 0
}

// reset forgets everything.
func (dc *decodedCache) reset() { *dc = decodedCache{budget: dc.budget} }

// len is the number of chunks kept.
func (dc *decodedCache) len() int { return len(dc.order) - dc.head }
