package kit

import (
	"errors"
	"fmt"
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

// Call is one call of an exercise function, made by Probe.
type Call struct {
	// Func is the exercise function's name, e.g. "AppendVarint".
	Func string
	// Do calls it once with a simple input.
	Do func()
}

// Probe makes each call in order and reports whether one of them hit an
// untouched stub: it returns an error wrapping ErrNotStarted that names the
// note to read and the function to write (the first stub, in the order the
// learner should write them). Any other panic is left for the suite to report
// as a failure, so Probe ignores it.
//
// A check starts with Probe, so Probe also forgets an earlier check's endless
// call (see Guard).
func (e Exercise) Probe(calls ...Call) error {
	resetHang()
	for _, c := range calls {
		if stub(c.Do) {
			return fmt.Errorf("%w: read %s, then write %s in %s/%s", ErrNotStarted, e.Note, c.Func, e.Dir, e.File)
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
