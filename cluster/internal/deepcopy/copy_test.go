package deepcopy

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type node struct {
	name  string
	next  *node
	bytes []byte
	kids  map[string]*node
	any   any
	arr   [2]*node
}

func TestCopyKeepsSharedPointersAndCopiesEverythingElse(t *testing.T) {
	shared := &node{name: "shared", bytes: []byte("abc")}
	root := &node{name: "root", next: shared, kids: map[string]*node{"s": shared}, any: shared, arr: [2]*node{shared, nil}}
	shared.next = root // a cycle

	c := Copy(root)

	if c == root || c.next == shared {
		t.Fatalf("the copy shares a pointer with the original: root %p/%p, next %p/%p", c, root, c.next, shared)
	}
	if c.kids["s"] != c.next || c.any.(*node) != c.next || c.arr[0] != c.next {
		t.Fatalf("a pointer reached four ways became several copies")
	}
	if c.next.next != c {
		t.Fatalf("the cycle back to the root is not kept in the copy")
	}
	c.next.bytes[0] = 'X'
	c.next.name = "changed"
	if diff := cmp.Diff("abc", string(shared.bytes)); diff != "" {
		t.Fatalf("changing the copy's bytes changed the original (-want +got):\n%s", diff)
	}
	if shared.name != "shared" {
		t.Fatalf("changing the copy's name changed the original to %q", shared.name)
	}
}

func TestCopyOfNilsStaysNil(t *testing.T) {
	c := Copy(&node{})
	if c.next != nil || c.bytes != nil || c.kids != nil || c.any != nil {
		t.Fatalf("nil fields became non-nil: %+v", c)
	}
}

type clocked struct {
	now   int64
	clock *int64
}

func TestCopyPointsFieldPointersAtTheCopysField(t *testing.T) {
	w := &clocked{now: 5}
	w.clock = &w.now
	c := Copy(w)
	c.now = 9
	if *c.clock != 9 || *w.clock != 5 {
		t.Fatalf("a clock pointing at its world's time: copy reads %d (want 9), original %d (want 5)", *c.clock, *w.clock)
	}
}

// file is a value that says how it is copied: it shares its bytes, and
// both sides know it.
type file struct {
	data   []byte
	shared bool
}

func (f *file) CopyShared() file {
	f.shared = true
	return file{data: f.data, shared: true}
}

type fs struct{ files []*file }

func TestCopyCallsCopyShared(t *testing.T) {
	src := &fs{files: []*file{{data: []byte("abc")}}}
	c := Copy(src)
	f, cf := src.files[0], c.files[0]
	if !f.shared || !cf.shared {
		t.Fatalf("after a copy the bytes are shared, yet the flags say original %v, copy %v", f.shared, cf.shared)
	}
	if &cf.data[0] != &f.data[0] {
		t.Fatalf("a value with CopyShared was copied byte by byte")
	}
	if cf == f {
		t.Fatalf("the struct holding it was shared, want a copy of it")
	}
}

type frozen struct{ b []byte }

func TestCopyOfAShallowTypeSharesWhatItPointsTo(t *testing.T) {
	src := &[]frozen{{b: []byte("x")}}
	c := Copy(src, reflect.TypeFor[frozen]())
	if &(*c)[0].b[0] != &(*src)[0].b[0] {
		t.Fatalf("a shallow type's bytes were copied")
	}
	if &(*c)[0] == &(*src)[0] {
		t.Fatalf("the slice holding shallow values was shared, want a copy of it")
	}
}
