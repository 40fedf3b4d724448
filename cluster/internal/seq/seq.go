// Package seq is a sequence that clones share block by block: a Vec holds
// its elements in fixed blocks, a clone copies the list of blocks and
// shares the blocks themselves, and whichever side then writes a shared
// block copies it first. A world's snapshot of a log's mirror or a
// producer's results so costs a pointer per block and, later, a copy of
// the few blocks that change (the last ones), not a copy of everything the
// sequence holds.
//
// A Vec is appended to at its end, cut at its end (Truncate) and at its
// front (DropFront), and read and written in place anywhere (At, Mut). The
// zero Vec is empty and ready. A Vec is not safe for concurrent use, and
// neither is Clone, which gives up the original's ownership of its blocks.
package seq

import "iter"

// blockSize is how many elements a block holds.
const blockSize = 128

// owner tells whose a block is: a Vec may write only the blocks it made or
// copied since its last Clone.
type owner struct{ _ byte }

type block[T any] struct {
	owner *owner
	items [blockSize]T
}

// Vec is a sequence of T shared block by block with its clones.
type Vec[T any] struct {
	blocks []*block[T]
	// head is the position in blocks[0] of element 0; n the length.
	head, n int
	owner   *owner
}

// Len returns the number of elements.
func (v *Vec[T]) Len() int { return v.n }

// At returns element i, for reading only: a write through it could change
// a clone's.
func (v *Vec[T]) At(i int) *T {
	p := v.head + i
	return &v.blocks[p/blockSize].items[p%blockSize]
}

// Mut returns element i for writing, copying its block first if a clone
// shares it.
func (v *Vec[T]) Mut(i int) *T {
	p := v.head + i
	return &v.writable(p / blockSize).items[p%blockSize]
}

// writable returns block k, copied first if v does not own it.
func (v *Vec[T]) writable(k int) *block[T] {
	b := v.blocks[k]
	if v.owner == nil {
		v.owner = new(owner)
	}
	if b.owner != v.owner {
		c := &block[T]{owner: v.owner, items: b.items}
		v.blocks[k], b = c, c
	}
	return b
}

// Append adds x at the end.
func (v *Vec[T]) Append(x T) {
	p := v.head + v.n
	if p/blockSize == len(v.blocks) {
		if v.owner == nil {
			v.owner = new(owner)
		}
		v.blocks = append(v.blocks, &block[T]{owner: v.owner})
	}
	v.writable(p / blockSize).items[p%blockSize] = x
	v.n++
}

// Truncate keeps the first n elements (n at most Len).
func (v *Vec[T]) Truncate(n int) {
	if n >= v.n {
		return
	}
	if n <= 0 {
		*v = Vec[T]{owner: v.owner}
		return
	}
	end := v.head + n
	last := (end - 1) / blockSize
	if k := end % blockSize; k != 0 && v.blocks[last].owner == v.owner {
		clear(v.blocks[last].items[k:]) // let what was cut go; a shared block keeps it for its clone
	}
	clear(v.blocks[last+1:])
	v.blocks = v.blocks[:last+1]
	v.n = n
}

// DropFront removes the first k elements (k at most Len).
func (v *Vec[T]) DropFront(k int) {
	if k >= v.n {
		*v = Vec[T]{owner: v.owner}
		return
	}
	if k <= 0 {
		return
	}
	p := v.head + k
	clear(v.blocks[:p/blockSize])
	v.blocks = v.blocks[p/blockSize:]
	v.head, v.n = p%blockSize, v.n-k
	if len(v.blocks) > 0 && cap(v.blocks) > 2*len(v.blocks)+16 {
		v.blocks = append([]*block[T](nil), v.blocks...) // let the dropped front of the list go
	}
}

// Clone returns a copy of v that shares its blocks: from then on neither
// writes a shared block in place (v gives up owning them too).
func (v *Vec[T]) Clone() Vec[T] {
	v.owner = nil
	return Vec[T]{blocks: append([]*block[T](nil), v.blocks...), head: v.head, n: v.n}
}

// All yields the elements in order, with their positions, for reading only.
func (v *Vec[T]) All() iter.Seq2[int, *T] {
	return v.From(0)
}

// From yields the elements from position i on, in order, for reading only.
func (v *Vec[T]) From(i int) iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		for ; i < v.n; i++ {
			if !yield(i, v.At(i)) {
				return
			}
		}
	}
}

// Slice returns the elements as a new slice.
func (v *Vec[T]) Slice() []T {
	out := make([]T, 0, v.n)
	for _, x := range v.All() {
		out = append(out, *x)
	}
	return out
}
