package main

import (
	"slices"
	"strings"
)

// peerImpl is the implementation ratios "x kmsg" are taken against.
const peerImpl = "kmsg"

// subjectImpl is the implementation the goals are about.
const subjectImpl = "kafkalog"

// pairs names, for a family not about the codec or the log, the
// implementation its goals are about and the peer its ratios are taken
// against; every other family has subjectImpl and peerImpl.
var pairs = map[string]struct{ subject, peer string }{
	"KgoProduce": {"kafkalive", "kfake"},
}

// subjectOf is the implementation family's goals are about.
func subjectOf(family string) string {
	if p, ok := pairs[family]; ok {
		return p.subject
	}
	return subjectImpl
}

// peerOf is the implementation family's ratios are taken against.
func peerOf(family string) string {
	if p, ok := pairs[family]; ok {
		return p.peer
	}
	return peerImpl
}

// floorPrefix marks a benchmark's floor implementation.
const floorPrefix = "limit-"

// samples are one implementation's figures of one benchmark, one per round.
type samples struct {
	ns, mb, allocs []float64
	xPeer, xFloor  []float64 // only from rounds where the peer (floor) ran too
}

// bench is one benchmark (family and workload) across rounds.
type bench struct {
	family, workload string
	impls            []string // in the order the benchmark ran them
	by               map[string]*samples
}

// table is every benchmark of a report, in the order they first ran.
type table struct {
	benches []*bench
	byKey   map[string]*bench
	rounds  int
	metric  string // "wall" or "cpu": what the times are
}

// aggregate groups the results of every round by benchmark and implementation,
// computing each round's ratios within that round.
func aggregate(rounds [][]result) *table {
	t := &table{byKey: map[string]*bench{}, rounds: len(rounds)}
	for _, round := range rounds {
		byKey := map[string]map[string]result{}
		for _, r := range round {
			b := t.bench(r)
			if byKey[r.key()] == nil {
				byKey[r.key()] = map[string]result{}
			}
			byKey[r.key()][r.impl] = r
			s := b.samples(r.impl)
			s.ns = append(s.ns, r.nsPerOp)
			s.mb = append(s.mb, r.mbPerSec)
			s.allocs = append(s.allocs, r.allocs)
		}
		for key, impls := range byKey {
			t.addRatios(t.byKey[key], impls)
		}
	}
	return t
}

func (t *table) bench(r result) *bench {
	b := t.byKey[r.key()]
	if b == nil {
		b = &bench{family: r.family, workload: r.workload, by: map[string]*samples{}}
		t.byKey[r.key()] = b
		t.benches = append(t.benches, b)
	}
	return b
}

func (b *bench) samples(impl string) *samples {
	s := b.by[impl]
	if s == nil {
		s = &samples{}
		b.by[impl] = s
		b.impls = append(b.impls, impl)
	}
	return s
}

// floor returns the benchmark's floor implementation, or "".
func (b *bench) floor() string {
	for _, impl := range b.impls {
		if strings.HasPrefix(impl, floorPrefix) {
			return impl
		}
	}
	return ""
}

func (t *table) addRatios(b *bench, round map[string]result) {
	peer, hasPeer := round[peerOf(b.family)]
	floor, hasFloor := round[b.floor()]
	for impl, r := range round {
		s := b.by[impl]
		if hasPeer && peer.nsPerOp > 0 {
			s.xPeer = append(s.xPeer, r.nsPerOp/peer.nsPerOp)
		}
		if hasFloor && floor.nsPerOp > 0 {
			s.xFloor = append(s.xFloor, r.nsPerOp/floor.nsPerOp)
		}
	}
}

// median returns the median of xs (the mean of the middle two for an even
// count), or -1 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return -1
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// families returns the benchmark families in the order they ran.
func (t *table) families() []string {
	var fs []string
	for _, b := range t.benches {
		if !slices.Contains(fs, b.family) {
			fs = append(fs, b.family)
		}
	}
	return fs
}
