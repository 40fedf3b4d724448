package kit

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// ErrNotStarted is wrapped by the error a suite returns for an exercise whose
// stub has not been written yet.
var ErrNotStarted = errors.New("not started")

// IsTODO reports whether v, a recovered panic value, is the marker an untouched
// exercise stub panics with: any value with a method NotStarted() bool that
// returns true (exercises/todo.TODO is one). Matching on a method rather than
// on one package's variable keeps the exercises module free to define it.
func IsTODO(v any) bool {
	n, ok := v.(interface{ NotStarted() bool })
	return ok && n.NotStarted()
}

// Exercise describes one exercise: where the learner writes and what to read.
type Exercise struct {
	// Dir is the exercise package, e.g. "exercises/ch01/varint".
	Dir string
	// File is the learner's file in Dir, e.g. "varint.go".
	File string
	// Note is the section to read first.
	Note string
}

// Probe calls each function in calls once and reports whether one of them is
// an untouched stub: it returns an error wrapping ErrNotStarted that names the
// note to read and the function to write. Any other panic is left for the
// suite to report as a failure, so Probe ignores it.
func (e Exercise) Probe(calls map[string]func()) error {
	for _, name := range slices.Sorted(maps.Keys(calls)) {
		if stub(calls[name]) {
			return fmt.Errorf("%w: read %s, then write %s in %s/%s", ErrNotStarted, e.Note, name, e.Dir, e.File)
		}
	}
	return nil
}

func stub(call func()) (todo bool) {
	defer func() {
		if r := recover(); r != nil {
			todo = IsTODO(r)
		}
	}()
	call()
	return false
}
