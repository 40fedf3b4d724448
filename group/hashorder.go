package group

import (
	"cmp"
	"slices"
	"unicode/utf16"
)

// The order in which a leader's assignor meets the group's members.
//
// Kafka lists them in no sorted order. Kafka 3.7's coordinator keeps a
// group's members in a Scala mutable.HashMap keyed by member id
// (GroupMetadata.members; the order here is Scala 2.13's, read at 2.13.12,
// the version Kafka 3.7's Scala 2.13 build uses; a Scala 2.12 build's
// HashMap iterates in another order), and the JoinGroup
// answer lists them in that map's iteration order
// (GroupMetadata.currentMemberMetadata). The Java consumer that leads puts
// them, in that order, into a java.util.HashMap of subscriptions
// (ConsumerCoordinator.onLeaderElected) and hands that map to the assignor,
// which iterates it. The two orders below are those two maps' iteration
// orders: deterministic, because a String's hash is, and unsorted. An assignor
// that must give every leader the same answer sorts what it meets (Kafka's
// do, and so do this package's: normalizedMembers).

// memberTable is what decides a Scala 2.13 mutable.HashMap's iteration order
// besides its keys: the length of its table (16 at first, doubled when a put
// would reach 0.75 of it, never shrunk) and the order of the puts (keys of
// equal hash stay in put order).
type memberTable struct {
	length int
	puts   int
	putSeq map[string]int
}

// put records that id entered the map (HashMap.put0: the table grows first
// when contentSize + 1 >= threshold).
func (t *memberTable) put(id string, size int) {
	if t.length == 0 {
		t.length = 16
	}
	if size+1 >= t.length*3/4 {
		t.length *= 2
	}
	if t.putSeq == nil {
		t.putSeq = map[string]int{}
	}
	t.puts++
	t.putSeq[id] = t.puts
}

// forget records that id left the map.
func (t *memberTable) forget(id string) { delete(t.putSeq, id) }

// order returns ids in the map's iteration order: by bucket (the improved
// hash's low bits), within a bucket by improved hash as a signed Int (put0
// keeps a bucket's nodes in that order), equal hashes in put order.
func (t *memberTable) order(ids []string) []string {
	length := max(t.length, 16)
	out := slices.Clone(ids)
	slices.SortStableFunc(out, func(a, b string) int {
		ha, hb := improvedHash(a), improvedHash(b)
		if c := cmp.Compare(uint32(ha)&uint32(length-1), uint32(hb)&uint32(length-1)); c != 0 {
			return c
		}
		if c := cmp.Compare(ha, hb); c != 0 {
			return c
		}
		return cmp.Compare(t.putSeq[a], t.putSeq[b])
	})
	return out
}

// javaMapOrder returns members in the iteration order of a java.util.HashMap
// filled with them in the order given, as ConsumerCoordinator.onLeaderElected
// fills its map of subscriptions: by bucket, within a bucket in insertion
// order; a repeated member id keeps its first place (put replaces the value).
// The table starts at 16 and doubles when the size passes 0.75 of it, or when
// a bucket would hold a ninth entry in a table shorter than 64
// (HashMap.putVal, treeifyBin). A bucket made a tree (a ninth colliding id in
// a table of 64 or more) is not modelled: it keeps insertion order.
func javaMapOrder(members []MemberSubscription) []MemberSubscription {
	index := map[string]int{}
	var firsts []MemberSubscription
	length := 16
	bins := map[uint32]int{}
	for _, m := range members {
		if _, seen := index[m.MemberID]; seen {
			continue
		}
		index[m.MemberID] = len(firsts)
		firsts = append(firsts, m)
		h := uint32(improvedHash(m.MemberID))
		bins[h&uint32(length-1)]++
		grow := len(firsts) > length*3/4 || (bins[h&uint32(length-1)] > 8 && length < 64)
		if grow {
			length *= 2
			bins = map[uint32]int{}
			for _, f := range firsts {
				bins[uint32(improvedHash(f.MemberID))&uint32(length-1)]++
			}
		}
	}
	slices.SortStableFunc(firsts, func(a, b MemberSubscription) int {
		ba := uint32(improvedHash(a.MemberID)) & uint32(length-1)
		bb := uint32(improvedHash(b.MemberID)) & uint32(length-1)
		return cmp.Compare(ba, bb)
	})
	return firsts
}

// improvedHash is h ^ (h >>> 16) of Java's String.hashCode, as both
// java.util.HashMap.hash and Scala 2.13's mutable.HashMap.improveHash spread
// it (a String's ## is its hashCode).
func improvedHash(s string) int32 {
	h := javaStringHash(s)
	return h ^ int32(uint32(h)>>16)
}

// javaStringHash is Java's String.hashCode: s[0]*31^(n-1) + ... + s[n-1]
// over the UTF-16 code units of the string.
func javaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r < 0x10000 {
			h = 31*h + int32(r)
			continue
		}
		hi, lo := utf16.EncodeRune(r)
		h = 31*h + int32(hi)
		h = 31*h + int32(lo)
	}
	return h
}
