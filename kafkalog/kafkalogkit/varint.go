package kafkalogkit

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// VarintCodec is the surface of exercise ch01/varint.
type VarintCodec struct {
	// AppendVarint appends the zigzag varint encoding of v, a Kafka int32, to dst
	// and returns the extended slice, like kafkalog.AppendVarint.
	AppendVarint func(dst []byte, v int32) []byte
}

var varintExercise = kit.Exercise{
	Dir:  "exercises/ch01/varint",
	File: "varint.go",
	Note: note01 + "#varints-7-bits-at-a-time",
}

var (
	ruleV1 = kit.Rule{ID: "V1", Name: "append", Note: note01 + "#varints-7-bits-at-a-time"}
	ruleV2 = kit.Rule{ID: "V2", Name: "continuation bit", Note: note01 + "#varints-7-bits-at-a-time"}
	ruleV3 = kit.Rule{ID: "V3", Name: "length", Note: note01 + "#zigzag-small-negatives-stay-small"}
	ruleV4 = kit.Rule{ID: "V4", Name: "round trip", Note: note01 + "#zigzag-small-negatives-stay-small"}
	ruleV5 = kit.Rule{ID: "V5", Name: "Kafka's bytes", Note: note01 + "#varints-7-bits-at-a-time"}
	ruleV6 = kit.Rule{ID: "V6", Name: "no panic", Note: note01 + "#you-write"}
	ruleV7 = kit.Rule{ID: "V7", Name: "an earlier result stays", Note: note01 + "#a-result-is-the-callers"}

	varintRules = []kit.Rule{ruleV1, ruleV2, ruleV3, ruleV4, ruleV5, ruleV6, ruleV7}
)

// kafkaVarints are the signed varint vectors of Kafka's
// ByteUtilsTest.testVarintSerde.
var kafkaVarints = []int32{
	0, -1, 1, 63, -64, 64, -65, 8191, -8192, 8192, -8193, 1048575, -1048576,
	1048576, -1048577, 134217727, -134217728, 134217728, -134217729,
	2147483647, -2147483648,
}

// varintDsts are the slices the known answers append to: none, five bytes
// already there, and the same with spare capacity, room for a whole varint
// and room for less (append may write into a slice's spare capacity; the
// bytes before its length are the caller's).
var varintDsts = []varintDst{{}, {bytes: []byte("kafka")}, {bytes: []byte("kafka"), spare: 16}, {bytes: []byte("kafka"), spare: 2}}

// varintPairs are the known answers' sequences of two calls on a nil dst: the
// first result must read the same after the second call.
var varintPairs = [][2]int32{{1, 300}, {-1, 2147483647}, {-2147483648, 0}}

// CheckVarint checks c against Kafka's varint test vectors, each appended to an
// empty dst, a non-empty one and non-empty ones with spare capacity, then
// checks that a result stays as it was after a later call, and returns the
// first violation, shrunk to the smallest value that fails the same way. A
// failure that matches one of the known mistakes says so.
func CheckVarint(c VarintCodec, known ...kit.Known[VarintCodec]) error {
	return checkVarint(judgeVarint(c, known), kit.Replay("./"+varintExercise.Dir, "TestVarint"))
}

func checkVarint(c varintSubject, replay string) error {
	if err := probeVarint(c.VarintCodec); err != nil {
		return err
	}
	for _, dst := range varintDsts {
		for _, v := range kafkaVarints {
			in := varintInput{dst, v}
			if f := varintCase(c, in); f != nil {
				_, g := kit.Shrink(in, f, smallerVarint, func(in varintInput) *kit.Failure { return varintCase(c, in) })
				g.ShrunkFrom(fmt.Sprintf("%d (ByteUtilsTest) appended to %s", v, dst), f)
				g.Replay = replay
				return g
			}
		}
	}
	for _, p := range varintPairs {
		if f := varintAliasCase(c, p); f != nil {
			f.Replay = replay
			return f
		}
	}
	return nil
}

func probeVarint(c VarintCodec) error {
	return varintExercise.Probe(kit.Call{Func: "AppendVarint", Do: func() { c.AppendVarint(nil, 1) }})
}

// VarintProperties returns the rapid property for c: for any int32 (its
// extremes and the boundaries of every byte count included) and any dst
// (with or without spare capacity), AppendVarint keeps dst and appends
// exactly Kafka's bytes, and what it returned stays as it was after another
// call.
func VarintProperties(c VarintCodec, known ...kit.Known[VarintCodec]) func(*rapid.T) {
	return varintProperties(judgeVarint(c, known), kit.Replay("./"+varintExercise.Dir, "TestVarint/properties"))
}

func varintProperties(c varintSubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		in := varintInput{
			dst: varintDst{bytes: kit.Draw(t, rapid.SliceOfN(rapid.Byte(), 0, 8), "dst"), spare: kit.Draw(t, rapid.IntRange(0, 8), "spareCapacity")},
			v:   kit.Draw(t, drawInt32(), "v"),
		}
		if f := varintCase(c, in); f != nil {
			f.Replay = replay
			kit.Fatal(t, f)
		}
		if f := varintAliasCase(c, [2]int32{in.v, kit.Draw(t, drawInt32(), "nextV")}); f != nil {
			f.Replay = replay
			kit.Fatal(t, f)
		}
	}
}

// int32Extremes are the values at the edges of an int32 and of each varint
// length: where a signed shift, an overflow or an off-by-one shows.
var int32Extremes = []int32{
	0, 1, -1, 63, 64, -64, -65, 8191, 8192, -8192, -8193,
	1<<20 - 1, 1 << 20, -1 << 20, -1<<20 - 1, 1<<27 - 1, 1 << 27, -1 << 27, -1<<27 - 1,
	1<<30 - 1, 1 << 30, -1 << 30, -1<<30 - 1,
	math.MaxInt32 - 1, math.MaxInt32, math.MinInt32 + 1, math.MinInt32,
}

// drawInt32 draws any int32, half the time one of its extremes.
func drawInt32() *rapid.Generator[int32] {
	return rapid.OneOf(rapid.Int32(), rapid.SampledFrom(int32Extremes))
}

// TestVarint runs CheckVarint and VarintProperties as subtests of t. An
// untouched stub fails once, naming the note to read and the function to write.
func TestVarint(t *testing.T, c VarintCodec, known ...kit.Known[VarintCodec]) {
	t.Helper()
	s := judgeVarint(c, known)
	kit.Run(t, 1, kit.Suite{
		Exercise:  varintExercise,
		Probe:     func() error { return probeVarint(c) },
		Check:     func(replay string) error { return checkVarint(s, replay) },
		Props:     func(replay string) func(*rapid.T) { return varintProperties(s, replay) },
		PropsName: "properties",
	})
}

// varintCase checks one encoding against the rules in order and returns the
// first one broken.
func varintCase(c varintSubject, in varintInput) *kit.Failure {
	dst, v := in.dst.slice(), in.v
	prefix := bytes.Clone(dst)
	want := kafkalog.AppendVarint(nil, v)
	call := fmt.Sprintf("AppendVarint(dst=%s, %d)", in.dst, v)
	var out []byte
	if p := kit.Guard(func() { out = c.AppendVarint(dst, v) }); kit.IsTimeout(p) {
		return kit.Timeout(ruleV5, call, termination01)
	} else if p != nil {
		return &kit.Failure{Rule: ruleV6, What: fmt.Sprintf("%s panicked: %v.", call, p),
			Hint: func() []kit.Match {
				return c.values.PanicsLike(varintOf(c.AppendVarint), in, c.aliases.Agrees(aliasOf(c.AppendVarint)))
			}}
	}
	fail := func(r kit.Rule, what string, details ...string) *kit.Failure {
		return &kit.Failure{
			Rule: r, What: what, Details: details, Got: out, Want: append(bytes.Clone(prefix), want...),
			Hint: func() []kit.Match {
				return c.values.LooksLike(varintOf(c.AppendVarint), in, out, c.aliases.Agrees(aliasOf(c.AppendVarint)))
			},
		}
	}
	if len(out) < len(prefix) || !bytes.Equal(out[:len(prefix)], prefix) {
		return fail(ruleV1, call+" must keep the bytes already in dst and append the varint after them.")
	}
	enc := out[len(prefix):]
	if len(enc) == 0 {
		return fail(ruleV1, fmt.Sprintf("%s must append the varint after the bytes already in dst; it appended nothing.", call), "want  "+kit.Hex(want, 16)+" after dst")
	}
	if i := badContinuation(enc); i >= 0 {
		return fail(ruleV2, call+": every byte but the last must have the high bit (0x80) set, and the last must not.",
			fmt.Sprintf("byte %d of the varint (%02x) breaks it", i, enc[i]))
	}
	if len(enc) != len(want) {
		return fail(ruleV3, fmt.Sprintf("%s must take %d byte(s): zigzag maps %d to %d, which needs %d byte(s) at 7 bits a byte.",
			call, len(want), v, zigzag(v), len(want)), "want  "+kit.Hex(want, 16), "got   "+kit.Hex(enc, 16))
	}
	if got, n := kafkalog.Varint(enc); got != v || n != len(enc) {
		return fail(ruleV4, fmt.Sprintf("%s must decode back to %d with Kafka's reader; it reads %d.", call, v, got),
			"want  "+kit.Hex(want, 16), "got   "+kit.Hex(enc, 16))
	}
	if !bytes.Equal(enc, want) {
		return fail(ruleV5, call+" must append exactly Kafka's bytes.", "want  "+kit.Hex(want, 16), "got   "+kit.Hex(enc, 16))
	}
	return nil
}

// badContinuation returns the index of the first byte of enc whose high bit is
// wrong, or -1.
func badContinuation(enc []byte) int {
	if len(enc) > kafkalog.MaxVarintLen {
		return kafkalog.MaxVarintLen - 1
	}
	for i, b := range enc {
		last := i == len(enc)-1
		if (b&0x80 != 0) == last {
			return i
		}
	}
	return -1
}

func zigzag(v int32) uint32 { return uint32(v<<1) ^ uint32(v>>31) }

// varintAliasCase appends p[0] to a nil dst, then p[1], and checks that the
// first result still holds p[0]'s bytes.
func varintAliasCase(c varintSubject, p [2]int32) *kit.Failure {
	var first, second []byte
	if g := kit.Guard(func() { first = c.AppendVarint(nil, p[0]) }); g != nil {
		return nil // the value's own case reports it
	}
	kept := bytes.Clone(first)
	if g := kit.Guard(func() { second = c.AppendVarint(nil, p[1]) }); g != nil {
		return nil
	}
	if bytes.Equal(first, kept) {
		return nil
	}
	return &kit.Failure{
		Rule: ruleV7,
		What: fmt.Sprintf("AppendVarint(nil, %d) returned %s; after AppendVarint(nil, %d) returned %s, the first result reads %s. What AppendVarint returns is the caller's: append to dst (a new slice when dst is nil), and never return a buffer you keep and write again.",
			p[0], kit.Hex(kept, 16), p[1], kit.Hex(second, 16), kit.Hex(first, 16)),
		Hint: func() []kit.Match {
			return c.aliases.LooksLike(aliasOf(c.AppendVarint), p, first, c.values.Agrees(varintOf(c.AppendVarint)))
		},
	}
}

// smallerVarint proposes smaller cases than in: a value nearer zero (half
// of it, its lowest set bit cleared, the edges of each byte count below
// it), an empty dst, less spare capacity.
func smallerVarint(in varintInput) []varintInput {
	var out []varintInput
	add := func(v int32) {
		if abs64(int64(v)) < abs64(int64(in.v)) {
			out = append(out, varintInput{in.dst, v})
		}
	}
	for _, v := range []int32{0, 1, -1} {
		add(v)
	}
	for k := 1; k < 31; k++ { // the powers of two, where every length and sign changes
		add(1 << k)
		add(-1 << k)
		add(1<<k - 1)
		add(-1<<k - 1)
	}
	add(in.v / 2)
	add(in.v & (in.v - 1))
	if in.dst.spare > 0 {
		out = append(out, varintInput{varintDst{bytes: in.dst.bytes}, in.v})
	}
	if len(in.dst.bytes) > 0 {
		out = append(out, varintInput{varintDst{spare: in.dst.spare}, in.v})
	}
	slices.SortStableFunc(out, func(a, b varintInput) int { return cmp.Compare(abs64(int64(a.v)), abs64(int64(b.v))) })
	return out
}

func abs64(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}
