package bench

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// TestReadCRC: the recovery floor counts every batch of a file read through a
// buffer much smaller than the file, with batches straddling every read, and
// stops at a flipped bit.
func TestReadCRC(t *testing.T) {
	var file []byte
	want := 0
	for i, w := range []Workload{{1, 100}, {10, 1024}, {3, 100}, {1, 1024}, {10, 100}, {7, 1024}} {
		b := w.Batch()
		b.BaseOffset = int64(i * 100)
		file = b.AppendTo(file)
		want++
	}
	for _, bufSize := range []int{10551, 12000, 20000, len(file), len(file) + 100} {
		got, err := ReadCRC(bytes.NewReader(file), int64(len(file)), make([]byte, bufSize))
		require.NoError(t, err, "buffer of %d bytes", bufSize)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("batches read through a %d-byte buffer (-want +got):\n%s", bufSize, diff)
		}
	}
	file[len(file)-1] ^= 1
	_, err := ReadCRC(bytes.NewReader(file), int64(len(file)), make([]byte, 12000))
	if !errors.Is(err, ErrFloorCRC) {
		t.Errorf("ReadCRC on a file whose last byte is flipped: got %v, want ErrFloorCRC", err)
	}
	_, err = ReadCRC(bytes.NewReader(file), int64(len(file)), make([]byte, 1000))
	if !errors.Is(err, kafkalog.ErrCorruptBatch) {
		t.Errorf("ReadCRC with a buffer smaller than a batch: got %v, want ErrCorruptBatch", err)
	}
}
