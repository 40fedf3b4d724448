package vfs

import (
	"errors"
	"io"
)

// ReadAtFull fills b from f at off. A short read is io.ErrUnexpectedEOF (the
// file ended first); io.EOF reported along with a full read, which
// io.ReaderAt allows at the end of a file, is success.
func ReadAtFull(f File, b []byte, off int64) error {
	if len(b) == 0 {
		return nil
	}
	n, err := f.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}
