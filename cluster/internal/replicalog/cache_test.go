package replicalog

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// A client's gzip batches of one large value each (a few KB on the wire,
// MiBs decoded) are decoded for whoever reads them, but the mirror keeps
// at most MirrorCacheBytes of them, and a clone (a snapshot's) keeps none.
func TestMirrorCacheIsBoundedByBytes(t *testing.T) {
	fsys := vfs.NewMem()
	clock := int64(1000)
	r, err := Open(fsys, "t-0", kafkalog.DefaultConfig(), &clock)
	require.NoError(t, err)
	const batches, value = 8, 3 << 20
	for i := range batches {
		var b kafkalog.RecordBatch
		b.Attributes = b.Attributes.WithCompression(kafkalog.CompressionGzip)
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
		b.AppendRecord(0, 1_700_000_000_000, []byte{byte(i)}, make([]byte, value))
		_, err := r.AppendBatchAsLeader(replica.ProducerBatch{Count: 1, Bytes: b.AppendTo(nil)}, 0)
		require.NoError(t, err)
	}
	for range 2 {
		read := 0
		for _, e := range r.Mirror().From(0) {
			require.Len(t, e.Value, value)
			read++
		}
		require.Equal(t, batches, read)
		if got := r.DecodedBytes(); got > MirrorCacheBytes {
			t.Fatalf("the mirror keeps %d bytes of decoded records, more than MirrorCacheBytes (%d)", got, MirrorCacheBytes)
		}
		if got := r.DecodedEntries(); got == 0 || got >= batches {
			t.Fatalf("the mirror keeps %d of the %d records decoded, want the last ones that fit in %d bytes", got, batches, MirrorCacheBytes)
		}
	}
	c := r.Clone(fsys.Clone(), &clock, nil)
	if got := c.DecodedEntries(); got != 0 {
		t.Fatalf("a clone keeps %d decoded records, want none", got)
	}
	for _, e := range c.Mirror().From(0) {
		require.Len(t, e.Value, value)
	}
	var huge kafkalog.RecordBatch
	huge.Attributes = huge.Attributes.WithCompression(kafkalog.CompressionGzip)
	huge.ProducerID, huge.ProducerEpoch, huge.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
	huge.AppendRecord(0, 1_700_000_000_000, nil, make([]byte, MirrorCacheBytes+1))
	off, err := r.AppendBatchAsLeader(replica.ProducerBatch{Count: 1, Bytes: huge.AppendTo(nil)}, 0)
	require.NoError(t, err)
	before := r.DecodedEntries()
	e := r.Mirror().At(r.Mirror().index(off))
	require.Len(t, e.Value, MirrorCacheBytes+1)
	if got := r.DecodedEntries(); got != before {
		t.Fatalf("a record over the budget alone was kept: %d decoded records, %d before reading it", got, before)
	}
}
