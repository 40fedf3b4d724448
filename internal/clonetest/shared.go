package clonetest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Sharing is one piece of memory the clone reaches that the original reaches
// too: the first one on its path (what it leads to is not reported again).
type Sharing struct {
	// Path is where the clone reaches it, from the clone's root: fields by
	// name, slice and array elements by index, map values by key, "*" for
	// the value a pointer points to.
	Path string
	// Value is the pointer, slice or map as the clone holds it (a value read
	// through unexported fields: it can be inspected, not used through
	// Interface).
	Value reflect.Value
}

// Type returns the type of the memory shared: the pointer, slice or map type.
func (s Sharing) Type() reflect.Type { return s.Value.Type() }

func (s Sharing) String() string { return fmt.Sprintf("%s (%s)", s.Path, s.Value.Type()) }

// Shared walks everything orig reaches, then everything clone reaches, and
// returns the pointers, slices and maps of the clone whose memory overlaps
// memory orig reaches, each the first on its path, in the order met. Strings
// and functions are not reported (Go never changes a string's bytes; a
// function is code). Both must be pointers (or values holding them) to the
// two roots.
func Shared(orig, clone any) []Sharing {
	w := walker{seen: map[seenKey]bool{}}
	w.mark(reflect.ValueOf(orig))
	slices.SortFunc(w.spans, func(a, b span) int { return cmpUintptr(a.lo, b.lo) })
	w.merge()
	f := finder{spans: w.spans, seen: map[seenKey]bool{}}
	f.find(reflect.ValueOf(clone), nil)
	return f.found
}

// span is memory [lo, hi) the original reaches.
type span struct{ lo, hi uintptr }

// walker collects the memory a value reaches.
type walker struct {
	spans []span
	seen  map[seenKey]bool // pointers and maps already walked
}

func (w *walker) mark(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || !w.first(v) {
			return
		}
		w.add(v.Pointer(), v.Type().Elem().Size())
		w.mark(v.Elem())
	case reflect.Interface:
		if !v.IsNil() {
			w.mark(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			w.mark(v.Field(i))
		}
	case reflect.Array:
		if holdsPointers(v.Type().Elem()) {
			for i := range v.Len() {
				w.mark(v.Index(i))
			}
		}
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return
		}
		w.add(v.Pointer(), uintptr(v.Cap())*v.Type().Elem().Size())
		if holdsPointers(v.Type().Elem()) {
			full := v.Slice3(0, v.Cap(), v.Cap())
			for i := range full.Len() {
				w.mark(full.Index(i))
			}
		}
	case reflect.Map:
		if v.IsNil() || !w.first(v) {
			return
		}
		w.add(v.Pointer(), 1)
		it := v.MapRange()
		for it.Next() {
			w.mark(it.Key())
			w.mark(it.Value())
		}
	}
}

// seenKey is a pointer or map met: by address and type, as a pointer to a
// struct and one to its first field share the address.
type seenKey struct {
	p uintptr
	t reflect.Type
}

// first reports whether pointer or map v is met for the first time.
func (w *walker) first(v reflect.Value) bool { return firstTime(w.seen, v) }

func firstTime(seen map[seenKey]bool, v reflect.Value) bool {
	key := seenKey{v.Pointer(), v.Type()}
	if seen[key] {
		return false
	}
	seen[key] = true
	return true
}

func (w *walker) add(p, size uintptr) {
	if size == 0 {
		size = 1
	}
	w.spans = append(w.spans, span{p, p + size})
}

// merge joins overlapping spans (sorted by lo).
func (w *walker) merge() {
	out := w.spans[:0]
	for _, s := range w.spans {
		if n := len(out); n > 0 && s.lo < out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, s.hi)
			continue
		}
		out = append(out, s)
	}
	w.spans = out
}

// finder walks the clone and reports what overlaps the original's spans.
type finder struct {
	spans []span
	seen  map[seenKey]bool
	found []Sharing
}

// step is one element of a path, linked to its parent; rendered only when
// something is found.
type step struct {
	parent *step
	name   string
}

func (s *step) String() string {
	var parts []string
	for ; s != nil; s = s.parent {
		parts = append(parts, s.name)
	}
	slices.Reverse(parts)
	return strings.Join(parts, "")
}

func (f *finder) find(v reflect.Value, at *step) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || !f.first(v) {
			return
		}
		if f.overlaps(v.Pointer(), v.Type().Elem().Size()) {
			f.report(v, at)
			return
		}
		f.find(v.Elem(), &step{at, "*"})
	case reflect.Interface:
		if !v.IsNil() {
			f.find(v.Elem(), at)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f.find(v.Field(i), &step{at, "." + v.Type().Field(i).Name})
		}
	case reflect.Array:
		if holdsPointers(v.Type().Elem()) {
			for i := range v.Len() {
				f.find(v.Index(i), &step{at, fmt.Sprintf("[%d]", i)})
			}
		}
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return
		}
		if f.overlaps(v.Pointer(), uintptr(v.Cap())*v.Type().Elem().Size()) {
			f.report(v, at)
			return
		}
		if holdsPointers(v.Type().Elem()) {
			full := v.Slice3(0, v.Cap(), v.Cap())
			for i := range full.Len() {
				f.find(full.Index(i), &step{at, fmt.Sprintf("[%d]", i)})
			}
		}
	case reflect.Map:
		if v.IsNil() || !f.first(v) {
			return
		}
		if f.overlaps(v.Pointer(), 1) {
			f.report(v, at)
			return
		}
		it := v.MapRange()
		for it.Next() {
			key := &step{at, fmt.Sprintf("[%v]", it.Key())}
			f.find(it.Key(), key)
			f.find(it.Value(), key)
		}
	}
}

func (f *finder) first(v reflect.Value) bool { return firstTime(f.seen, v) }

// overlaps reports whether [p, p+size) overlaps a span of the original.
func (f *finder) overlaps(p, size uintptr) bool {
	if size == 0 {
		size = 1
	}
	i, _ := slices.BinarySearchFunc(f.spans, p, func(s span, p uintptr) int { return cmpUintptr(s.lo, p) })
	// the span starting at or after p, and the one before it
	return i < len(f.spans) && f.spans[i].lo < p+size || i > 0 && f.spans[i-1].hi > p
}

func (f *finder) report(v reflect.Value, at *step) {
	f.found = append(f.found, Sharing{Path: at.String(), Value: v})
}

// holdsPointers reports whether a value of type t can reach other memory
// (strings and functions aside).
func holdsPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	case reflect.Array:
		return t.Len() > 0 && holdsPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

func cmpUintptr(a, b uintptr) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
