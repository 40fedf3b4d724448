package replicalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// PreviewFrom yields what From yields, keys and values cut with their
// sizes, from any position, over eager chunks and lazy ones (decoded or
// not, from their first record or not), and stops when asked.
func TestPreviewFromIsFromCut(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		files := memFiles{}
		m := Mirror{files: files}
		next := int64(rapid.Int64Range(0, 1000).Draw(t, "start"))
		for range rapid.IntRange(1, 12).Draw(t, "chunks") {
			n := rapid.IntRange(1, 6).Draw(t, "records")
			at := place{segment: next / 10, end: next}
			if rapid.Bool().Draw(t, "eager") {
				es := make([]replica.Entry, n)
				for i := range es {
					es[i] = replica.Entry{Offset: next + int64(i), LeaderEpoch: 3, Value: make([]byte, rapid.IntRange(0, 90).Draw(t, "value size"))}
				}
				es[0].Batch = []byte{1}
				m.add(es, at)
				next += int64(n)
				continue
			}
			raw := mirrorTestBatch(t, next, n, 5)
			var dec kafkalog.Decoder
			var rb kafkalog.RecordBatch
			if _, err := dec.Decode(raw, &rb); err != nil {
				t.Fatalf("decode: %v", err)
			}
			skip := rapid.IntRange(0, n-1).Draw(t, "skip")
			size, head := recordSizes(&rb, skip)
			var decoded []replica.Entry
			if rapid.Bool().Draw(t, "decoded") {
				decoded = BatchEntries(&rb, raw, skip, n-skip)
			}
			files[at] = raw
			m.addLazy(StoredBatch(raw, rb.BatchHeader, rapid.Bool().Draw(t, "kept")), rb.PartitionLeaderEpoch, skip, n-skip, decoded, size, head, at)
			next += int64(n)
		}
		limit := rapid.IntRange(0, 100).Draw(t, "limit")
		i := rapid.IntRange(0, m.Len()).Draw(t, "from")
		stop := rapid.IntRange(1, m.Len()+1).Draw(t, "stop after")
		// PreviewFrom first: From decodes the lazy chunks and keeps them
		var got []Preview
		for p, g := range m.PreviewFrom(i, limit) {
			if p != i+len(got) {
				t.Fatalf("PreviewFrom yields position %d after %d", p, len(got))
			}
			if g.Entry.Batch != nil {
				g.Entry.Batch = []byte("first")
			}
			got = append(got, g)
			if len(got) == stop {
				break
			}
		}
		var want []Preview
		for p, e := range m.From(i) {
			if len(want) == stop {
				break
			}
			w := cut(e, limit)
			w.Entry.Batch = nil
			if e.Batch != nil {
				w.Entry.Batch = []byte("first")
			}
			want = append(want, w)
			if p != i+len(want)-1 {
				t.Fatalf("From yields position %d", p)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("PreviewFrom(%d, %d) (-From cut +got):\n%s", i, limit, diff)
		}
	})
}
