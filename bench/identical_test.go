package bench

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// TestEncodeIdentical: on every benchmark workload kafkalog and kmsg write the
// same bytes, of the sizes [Workloads] promises, and both decoders return the
// workload's records, so that every row of the benchmarks does the same work.
func TestEncodeIdentical(t *testing.T) {
	wantSize := map[Workload]int{
		{1, 100}: 186, {1, 1024}: 1110, {10, 100}: 1311, {10, 1024}: 10551,
		{100, 100}: 12633, {100, 1024}: 105033, {1000, 100}: 126933, {1000, 1024}: 1050933,
	}
	for _, w := range Workloads() {
		t.Run(w.Name(), func(t *testing.T) {
			f := newCodecFixture(w)
			theirs := KmsgAppendBatch(nil, f.kh, f.krecs)
			if !bytes.Equal(f.encoded, theirs) {
				t.Fatalf("kafkalog and kmsg encode workload %s differently: %s", w.Name(), firstDiff(f.encoded, theirs))
			}
			if diff := cmp.Diff(wantSize[w], len(f.encoded)); diff != "" {
				t.Errorf("batch size of %s against the documented sizes (-want +got):\n%s", w.Name(), diff)
			}
			want := wantFlat(f.batch, f.encoded)
			got, _, err := kafkalog.ReadBatch(f.encoded)
			require.NoError(t, err)
			if diff := diffFlat(want, flatFromKafkalog(&got)); diff != "" {
				t.Errorf("kafkalog decode (-want +got):\n%s", diff)
			}
			var kd KmsgDecoder
			require.NoError(t, kd.Decode(f.encoded))
			if diff := diffFlat(want, flatFromKmsg(&kd.Batch, kd.Records)); diff != "" {
				t.Errorf("kmsg decode (-want +got):\n%s", diff)
			}
			require.NoError(t, CheckCRC(f.encoded))
		})
	}
}

// TestZeroAllocs: kafkalog encodes into a reused buffer and decodes into a
// reused Decoder and batch without allocating, on every workload.
func TestZeroAllocs(t *testing.T) {
	for _, w := range Workloads() {
		f := newCodecFixture(w)
		dst := f.dst
		if n := testing.AllocsPerRun(20, func() { dst = f.batch.AppendTo(dst[:0]) }); n != 0 {
			t.Errorf("kafkalog encode of %s allocates %.1f times per batch into a reused buffer, want 0", w.Name(), n)
		}
		var d kafkalog.Decoder
		var rb kafkalog.RecordBatch
		if n := testing.AllocsPerRun(20, func() { _, _ = d.Decode(f.encoded, &rb) }); n != 0 {
			t.Errorf("kafkalog decode of %s allocates %.1f times per batch with a reused Decoder, want 0", w.Name(), n)
		}
	}
}
