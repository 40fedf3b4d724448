package seq

import (
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestVecAgainstSlices drives Vecs and their clones with random appends,
// writes, cuts and clones, each against a plain slice of its own: every Vec
// always reads as its slice, whatever its clones do.
func TestVecAgainstSlices(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vecs := []*Vec[int]{{}}
		models := [][]int{nil}
		next := 0
		for range rapid.IntRange(1, 400).Draw(t, "ops") {
			k := rapid.IntRange(0, len(vecs)-1).Draw(t, "which")
			v, m := vecs[k], models[k]
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op <= 4:
				for range rapid.IntRange(1, 300).Draw(t, "appends") {
					next++
					v.Append(next)
					m = append(m, next)
				}
			case op == 5 && len(m) > 0:
				i := rapid.IntRange(0, len(m)-1).Draw(t, "write at")
				next++
				*v.Mut(i) = next
				m = slices.Clone(m) // the model's own copy: a clone's model may share it
				m[i] = next
			case op == 6:
				n := rapid.IntRange(0, len(m)).Draw(t, "keep")
				v.Truncate(n)
				m = slices.Clone(m[:n])
			case op == 7:
				n := rapid.IntRange(0, len(m)).Draw(t, "drop")
				v.DropFront(n)
				m = slices.Clone(m[n:])
			default:
				c := v.Clone()
				vecs, models = append(vecs, &c), append(models, slices.Clone(m))
			}
			models[k] = m
			for j, v := range vecs {
				if got := v.Slice(); !slices.Equal(got, models[j]) || v.Len() != len(models[j]) {
					t.Fatalf("vec %d reads %v, want %v", j, got, models[j])
				}
			}
		}
	})
}

// TestCloneSharesBlocks: a clone copies no element; the first write to a
// shared block copies that block alone.
func TestCloneSharesBlocks(t *testing.T) {
	var v Vec[int]
	for i := range 10 * blockSize {
		v.Append(i)
	}
	c := v.Clone()
	for k := range v.blocks {
		if v.blocks[k] != c.blocks[k] {
			t.Fatalf("block %d copied by the clone", k)
		}
	}
	*v.Mut(5*blockSize + 1) = -1
	for k := range v.blocks {
		if (v.blocks[k] != c.blocks[k]) != (k == 5) {
			t.Fatalf("after a write to block 5, block %d shared: %v", k, v.blocks[k] == c.blocks[k])
		}
	}
	if *c.At(5*blockSize + 1) != 5*blockSize+1 {
		t.Fatal("the write reached the clone")
	}
}

func BenchmarkClone(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		var v Vec[[64]byte]
		for range n {
			v.Append([64]byte{})
		}
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := v.Clone()
				*c.Mut(c.Len() - 1) = [64]byte{1}
			}
		})
	}
}
