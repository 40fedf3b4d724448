package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// mixedLog lays a v0 message, a v1 message, a v1 gzip wrapper and a v2 batch end to end.
func mixedLog(t *testing.T) []byte {
	v0 := LegacyMessage{Offset: 0, Magic: MagicV0, Value: []byte("zero")}
	v1 := LegacyMessage{Offset: 1, Magic: MagicV1, Timestamp: 10, Value: []byte("one")}
	w := legacyWrapper(t, MagicV1, CompressionGzip, 3, 0, 20, []LegacyMessage{{Offset: 0, Magic: MagicV1, Value: []byte("a")}, {Offset: 1, Magic: MagicV1, Value: []byte("b")}})
	var b RecordBatch
	b.AppendRecord(4, 30, nil, []byte("four"))
	b.AppendRecord(5, 31, nil, []byte("five"))
	log := v0.AppendTo(nil)
	log = v1.AppendTo(log)
	log = w.AppendTo(log)
	return b.AppendTo(log)
}

type iterStep struct {
	Pos, LastOffset int64
	Magic           int8
	Size            int
}

func walkEntries(t *testing.T, it *BatchIter) []iterStep {
	var steps []iterStep
	for it.Next() {
		e := it.Entry()
		require.NoError(t, e.Check(), "entry at %d", e.Pos)
		steps = append(steps, iterStep{e.Pos, e.LastOffset(), e.Magic, len(e.Bytes)})
	}
	return steps
}

func TestBatchIterMixedMagic(t *testing.T) {
	log := mixedLog(t)
	it := NewBatchIter(log, 1000)
	got := walkEntries(t, it)
	v0, v1, w := 12+14+4, 12+22+3, 0
	v2 := BatchHeaderLen + 2*(1+1+1+1+1+1+4+1) // two records: length, attrs, deltas, null key, 4-byte value, no headers
	w = len(log) - v0 - v1 - v2
	want := []iterStep{
		{1000, 0, 0, v0},
		{1000 + int64(v0), 1, 1, v1},
		{1000 + int64(v0+v1), 3, 1, w},
		{1000 + int64(v0+v1+w), 5, 2, v2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	torn, _, _ := it.TornTail()
	if it.Err() != nil || torn || it.Pos() != 1000+int64(len(log)) {
		t.Errorf("after the last entry: err %v, torn %v, pos %d; want nil, false, %d", it.Err(), torn, it.Pos(), 1000+len(log))
	}
}

// TestBatchIterTornTail cuts the log at every byte: iteration yields the
// complete entries before the cut, stops silently and reports the torn tail.
func TestBatchIterTornTail(t *testing.T) {
	log := mixedLog(t)
	full := walkEntries(t, NewBatchIter(log, 0))
	for cut := 0; cut < len(log); cut++ {
		it := NewBatchIter(log[:cut], 0)
		got := walkEntries(t, it)
		var want []iterStep
		end := int64(0)
		for _, s := range full {
			if s.Pos+int64(s.Size) <= int64(cut) {
				want = append(want, s)
				end = s.Pos + int64(s.Size)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("cut at %d (-want +got):\n%s", cut, diff)
		}
		torn, pos, n := it.TornTail()
		wantTorn := end < int64(cut)
		if it.Err() != nil || torn != wantTorn || (torn && (pos != end || n != cut-int(end))) {
			t.Fatalf("cut at %d: err %v, torn %v at %d (%d bytes); want torn %v at %d (%d bytes)", cut, it.Err(), torn, pos, n, wantTorn, end, cut-int(end))
		}
	}
}

func TestBatchIterStopsOnCorruptFraming(t *testing.T) {
	log := mixedLog(t)
	second := 12 + 14 + 4
	tests := []struct {
		name  string
		edit  func([]byte)
		want  error
		field string
	}{
		{"size 13", func(b []byte) { binary.BigEndian.PutUint32(b[second+8:], 13) }, ErrCorruptBatch, "length"},
		{"magic 3", func(b []byte) { b[second+16] = 3 }, ErrUnknownMagic, "magic"},
		{"v1 size below its overhead", func(b []byte) { binary.BigEndian.PutUint32(b[second+8:], 20) }, ErrCorruptBatch, "size"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := append([]byte(nil), log...)
			tc.edit(b)
			it := NewBatchIter(b, 500)
			got := walkEntries(t, it)
			var be *BatchError
			require.ErrorAs(t, it.Err(), &be)
			if len(got) != 1 || !errors.Is(it.Err(), tc.want) || be.Pos != 500+int64(second) || be.Field != tc.field {
				t.Errorf("%d entries, then %v at %d (field %q); want 1, then %v at %d in %q", len(got), it.Err(), be.Pos, be.Field, tc.want, 500+second, tc.field)
			}
			if it.Next() {
				t.Errorf("Next after an error returned true")
			}
		})
	}
}

func TestLogEntryCheckFindsBadCRC(t *testing.T) {
	log := mixedLog(t)
	log[len(log)-1] ^= 0xff // inside the v2 batch
	log[12+14+4-1] ^= 0xff  // inside the v0 message
	it := NewBatchIter(log, 0)
	var bad []int64
	for it.Next() {
		if err := it.Entry().Check(); errors.Is(err, ErrCorruptBatch) {
			bad = append(bad, it.Entry().Pos)
		}
	}
	require.NoError(t, it.Err())
	if diff := cmp.Diff([]int64{0, int64(len(log)) - int64(len(it.Entry().Bytes))}, bad); diff != "" {
		t.Errorf("entries failing Check (-want +got):\n%s", diff)
	}
}

// TestLogEntryDecodeSaysWhere: an error decoding an entry names the batch's
// base offset, its position in the file and the field that broke.
func TestLogEntryDecodeSaysWhere(t *testing.T) {
	log := mixedLog(t)
	v2 := len(log) - (BatchHeaderLen + 2*11)
	// The second record's keyLength (null, 01) becomes 7f, -64: only -1 may be
	// negative. Re-seal the CRC so that the record parser sees it.
	log[v2+BatchHeaderLen+11+4] = 0x7f
	binary.BigEndian.PutUint32(log[v2+posCRC:], CRC32C(log[v2+posAttributes:]))
	it := NewBatchIter(log, 4096)
	var d Decoder
	var b RecordBatch
	var errs []string
	for it.Next() {
		e := it.Entry()
		if e.Magic != MagicV2 {
			if err := e.Decode(&d, &b); !errors.Is(err, ErrUnknownMagic) {
				t.Errorf("legacy entry at %d: Decode gave %v, want ErrUnknownMagic", e.Pos, err)
			}
			continue
		}
		if err := e.Decode(&d, &b); err != nil {
			errs = append(errs, err.Error())
		}
	}
	want := []string{"batch at base offset 4 (position " + itoa(4096+v2) + "): record 1: keyLength: kafkalog: invalid record: negative length -64"}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func itoa(n int) string { return fmt.Sprint(n) }
