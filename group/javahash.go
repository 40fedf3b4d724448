package group

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// The iteration orders of the java.util.HashMap and HashSet that Kafka's
// server-side assignors walk (group-coordinator's GroupSpecImpl members,
// the HashSet of a group's subscribed topic ids), computed from the keys'
// Java hashes so that the same group gets Kafka's answer, not a sorted
// one.

// javaHashOrder returns keys in the iteration order of a java.util.HashMap
// (or HashSet) filled with them in the order given: by bucket (the spread
// hash's low bits), within a bucket in insertion order; a repeated key
// keeps its first place. The table starts at 16 and doubles when the size
// passes 0.75 of it, or when a bucket would hold a ninth entry in a table
// shorter than 64 (HashMap.putVal, treeifyBin). A bucket made a tree (a
// ninth colliding key in a table of 64 or more) keeps insertion order here.
func javaHashOrder[K comparable](keys []K, hash func(K) int32) []K {
	seen := map[K]bool{}
	var firsts []K
	length := 16
	bins := map[uint32]int{}
	bucket := func(k K) uint32 { return uint32(spreadHash(hash(k))) & uint32(length-1) }
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		firsts = append(firsts, k)
		bins[bucket(k)]++
		if len(firsts) > length*3/4 || (bins[bucket(k)] > 8 && length < 64) {
			length *= 2
			bins = map[uint32]int{}
			for _, f := range firsts {
				bins[bucket(f)]++
			}
		}
	}
	slices.SortStableFunc(firsts, func(a, b K) int { return cmp.Compare(bucket(a), bucket(b)) })
	return firsts
}

// spreadHash is HashMap.hash: h ^ (h >>> 16).
func spreadHash(h int32) int32 { return h ^ int32(uint32(h)>>16) }

// uuidHash is Kafka's Uuid.hashCode of the 16 bytes of a topic id: the
// two halves of most ^ least significant bits, xored.
func uuidHash(id [16]byte) int32 {
	hilo := binary.BigEndian.Uint64(id[:8]) ^ binary.BigEndian.Uint64(id[8:])
	return int32(uint32(hilo>>32)) ^ int32(uint32(hilo))
}

// compareUUIDs is Kafka's Uuid.compareTo: the most significant bits, then
// the least, each compared as a signed long.
func compareUUIDs(a, b [16]byte) int {
	if c := cmp.Compare(int64(binary.BigEndian.Uint64(a[:8])), int64(binary.BigEndian.Uint64(b[:8]))); c != 0 {
		return c
	}
	return cmp.Compare(int64(binary.BigEndian.Uint64(a[8:])), int64(binary.BigEndian.Uint64(b[8:])))
}
