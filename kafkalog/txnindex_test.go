package kafkalog

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/vfs"
)

func newTxnIndex(t *testing.T, base int64) (*TxnIndex, *vfs.MemFS) {
	t.Helper()
	fsys := vfs.NewMem()
	f, err := fsys.Create(SegmentFileName(base, TxnIndexSuffix))
	require.NoError(t, err)
	ti, err := OpenTxnIndex(f, base)
	require.NoError(t, err)
	return ti, fsys
}

func TestTxnIndex(t *testing.T) {
	ti, fsys := newTxnIndex(t, 0)
	txns := []AbortedTxn{{0, 0, 10, 11}, {1, 5, 15, 13}, {2, 18, 35, 25}, {3, 32, 50, 40}}
	for _, a := range txns {
		require.NoError(t, ti.Append(a))
	}
	require.ErrorIs(t, ti.Append(AbortedTxn{4, 40, 50, 50}), ErrInvalidOffset, "last offsets must increase")
	require.NoError(t, ti.Close())

	f, err := fsys.OpenReadWrite(SegmentFileName(0, TxnIndexSuffix))
	require.NoError(t, err)
	ti, err = OpenTxnIndex(f, 0)
	require.NoError(t, err)
	require.NoError(t, ti.SanityCheck())
	if diff := cmp.Diff(txns, ti.AllAbortedTxns()); diff != "" {
		t.Fatalf("reopened index (-want +got):\n%s", diff)
	}

	got, complete := ti.CollectAbortedTxns(0, 32)
	require.Equal(t, txns[:3], got, "the fourth starts at the upper bound")
	require.True(t, complete, "the fourth entry's LSO 40 ≥ 32 ends the search")
	got, complete = ti.CollectAbortedTxns(0, 45)
	require.Equal(t, txns, got)
	require.False(t, complete, "no LSO reaches 45: later segments may hold more")
	got, complete = ti.CollectAbortedTxns(16, 20)
	require.Equal(t, txns[2:3], got)
	require.True(t, complete, "the third entry's LSO 25 ≥ 20 ends the search")

	require.NoError(t, ti.TruncateTo(35))
	require.Equal(t, txns[:2], ti.AllAbortedTxns())
	st, err := fsys.Stat(SegmentFileName(0, TxnIndexSuffix))
	require.NoError(t, err)
	require.Equal(t, int64(2*TxnIndexEntrySize), st.Size())
	require.NoError(t, ti.Reset())
	require.Empty(t, ti.AllAbortedTxns())
}

func TestTxnIndexDamage(t *testing.T) {
	good := AppendAbortedTxn(nil, AbortedTxn{1, 5, 9, 9})
	tests := []struct {
		name  string
		bytes []byte
		base  int64
		want  int
	}{
		{"partial entry", append(append([]byte(nil), good...), 0, 0, 1), 0, 1},
		{"unknown version", append(append([]byte(nil), good...), append([]byte{0, 1}, good[2:]...)...), 0, 1},
		{"last offset below base", good, 10, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			f, err := fsys.Create("x.txnindex")
			require.NoError(t, err)
			_, err = f.WriteAt(tc.bytes, 0)
			require.NoError(t, err)
			ti, err := OpenTxnIndex(f, tc.base)
			require.NoError(t, err)
			require.Len(t, ti.AllAbortedTxns(), tc.want)
			if err := ti.SanityCheck(); !errors.Is(err, ErrCorruptIndex) {
				t.Fatalf("SanityCheck gave %v, want ErrCorruptIndex", err)
			}
		})
	}
}

func FuzzDecodeTxnIndex(f *testing.F) {
	f.Add([]byte{})
	f.Add(AppendAbortedTxn(nil, AbortedTxn{1, 5, 9, 9}))
	f.Add([]byte{0, 1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		txns, err := DecodeTxnIndex(b)
		if err != nil && !errors.Is(err, ErrCorruptIndex) {
			t.Fatalf("error %v does not wrap ErrCorruptIndex", err)
		}
		var re []byte
		for _, a := range txns {
			re = AppendAbortedTxn(re, a)
		}
		if !bytes.Equal(re, b[:len(re)]) {
			t.Fatalf("decoded entries do not re-encode to the input's prefix")
		}
	})
}
