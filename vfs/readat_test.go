package vfs

import (
	"errors"
	"io"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func TestReadAtFull(t *testing.T) {
	m := NewMem()
	f, err := m.Create("f")
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("0123456789"), 0)
	require.NoError(t, err)
	tests := []struct {
		name    string
		off     int64
		n       int
		want    string
		wantErr error
	}{
		{"inside", 2, 3, "234", nil},
		{"up to the end", 6, 4, "6789", nil},
		{"nothing", 10, 0, "", nil},
		{"past the end", 8, 4, "", io.ErrUnexpectedEOF},
		{"after the end", 12, 1, "", io.ErrUnexpectedEOF},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := make([]byte, tc.n)
			err := ReadAtFull(f, b, tc.off)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("ReadAtFull(%d bytes at %d) = %v, want %v", tc.n, tc.off, err, tc.wantErr)
			}
			if err == nil {
				if diff := cmp.Diff(tc.want, string(b)); diff != "" {
					t.Errorf("bytes read (-want +got):\n%s", diff)
				}
			}
		})
	}
	require.NoError(t, f.Close())
	if err := ReadAtFull(f, make([]byte, 1), 0); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("ReadAtFull on a closed file = %v, want the file's fs.ErrClosed", err)
	}
}
