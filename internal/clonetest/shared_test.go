package clonetest

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type leaf struct{ n int }

type tree struct {
	name   string
	own    *leaf
	common *leaf
	list   []int
	window []int
	byKey  map[string]*leaf
	any    any
	fn     func() int
	next   *tree
}

// TestSharedFindsWhatBothReach: a clone that copies some parts and shares
// others is reported exactly at the parts it shares, the first on each path,
// whether through a pointer, a slice over the same array (even a window of
// it), a map, or an interface; strings and functions are not reported.
func TestSharedFindsWhatBothReach(t *testing.T) {
	common := &leaf{1}
	list := []int{1, 2, 3, 4}
	inMap := &leaf{3}
	orig := &tree{name: "t", own: &leaf{2}, common: common, list: list, window: []int{9},
		byKey: map[string]*leaf{"a": inMap}, any: &leaf{4}, fn: func() int { return 1 }}
	orig.next = orig
	shared := map[string]*leaf{"b": inMap, "c": common} // common: met before, not reported again
	clone := &tree{name: orig.name, own: &leaf{2}, common: common, list: slices.Clone(list), window: list[2:3],
		byKey: shared, any: orig.any, fn: orig.fn}
	clone.next = clone
	var got []string
	for _, s := range Shared(orig, clone) {
		got = append(got, s.String())
	}
	want := []string{
		"*.common (*clonetest.leaf)",
		"*.window ([]int)",
		"*.byKey[b] (*clonetest.leaf)",
		"*.any (*clonetest.leaf)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shared (-want +got):\n%s", diff)
	}
}

// TestSharedNothing: a deep copy shares nothing, and a value compared with
// itself shares its root.
func TestSharedNothing(t *testing.T) {
	a := &tree{own: &leaf{1}, list: []int{1}, byKey: map[string]*leaf{"a": {2}}}
	b := &tree{own: &leaf{1}, list: []int{1}, byKey: map[string]*leaf{"a": {2}}}
	if got := Shared(a, b); len(got) != 0 {
		t.Errorf("two deep copies share %v", got)
	}
	if got := Shared(a, a); len(got) != 1 || got[0].Path != "" {
		t.Errorf("a value with itself shares %v, want its root", got)
	}
}

// TestTextFollowsPointers: two values holding the same data render alike
// wherever it lives, maps in a fixed order; different data renders
// differently; a cycle ends.
func TestTextFollowsPointers(t *testing.T) {
	a := &tree{name: "t", own: &leaf{1}, list: []int{1, 2}, byKey: map[string]*leaf{"a": {2}, "b": {3}}, any: leaf{4}}
	b := &tree{name: "t", own: &leaf{1}, list: []int{1, 2}, byKey: map[string]*leaf{"b": {3}, "a": {2}}, any: leaf{4}}
	a.next, b.next = a, b
	if Text(a) != Text(b) {
		t.Errorf("equal values render differently:\n%s\n%s", Text(a), Text(b))
	}
	b.byKey["a"].n = 5
	if Text(a) == Text(b) {
		t.Errorf("a changed leaf behind a map renders the same: %s", Text(b))
	}
	want := `&{name:"t" own:&{n:1} common:nil list:[1 2] window:nil byKey:map["a":&{n:2} "b":&{n:3}] any:clonetest.leaf({n:4}) fn:func(nil=true) next:<cycle>}`
	if diff := cmp.Diff(want, Text(a)); diff != "" {
		t.Errorf("Text (-want +got):\n%s", diff)
	}
}
