package cluster_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// eachStoredBatch decodes every segment of partition directory dir (such as
// "t-0") on broker id, in offset order, and calls fn with each batch and
// its size in bytes.
func eachStoredBatch(t *testing.T, w *cluster.World, id int32, dir string, fn func(b *kafkalog.RecordBatch, size int)) {
	t.Helper()
	fsys, err := w.BrokerFS(id)
	require.NoError(t, err)
	dir = cluster.LogDir + "/" + dir
	names, err := fsys.List(dir)
	require.NoError(t, err)
	slices.Sort(names)
	for _, n := range names {
		if !strings.HasSuffix(n, kafkalog.LogSuffix) {
			continue
		}
		f, err := fsys.Open(dir + "/" + n)
		require.NoError(t, err)
		size, err := f.Size()
		require.NoError(t, err)
		b := make([]byte, size)
		if size > 0 {
			_, err = f.ReadAt(b, 0)
			require.NoError(t, err)
		}
		require.NoError(t, f.Close())
		var dec kafkalog.Decoder
		var batch kafkalog.RecordBatch
		for pos := 0; pos < len(b); {
			k, err := dec.Decode(b[pos:], &batch)
			require.NoError(t, err)
			fn(&batch, k)
			pos += k
		}
	}
}
