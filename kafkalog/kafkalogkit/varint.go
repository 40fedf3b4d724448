package kafkalogkit

import (
	"bytes"
	"fmt"
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

	varintRules = []kit.Rule{ruleV1, ruleV2, ruleV3, ruleV4, ruleV5, ruleV6}
)

// kafkaVarints are the signed varint vectors of Kafka's
// ByteUtilsTest.testVarintSerde.
var kafkaVarints = []int32{
	0, -1, 1, 63, -64, 64, -65, 8191, -8192, 8192, -8193, 1048575, -1048576,
	1048576, -1048577, 134217727, -134217728, 134217728, -134217729,
	2147483647, -2147483648,
}

// CheckVarint checks c against Kafka's varint test vectors, each appended to an
// empty and to a non-empty dst, and returns the first violation. A failure
// that matches one of the known mistakes says so.
func CheckVarint(c VarintCodec, known ...kit.Known[VarintCodec]) error {
	return checkVarint(c, varintSignatures(known), kit.Replay("./"+varintExercise.Dir, "TestVarint", false))
}

func checkVarint(c VarintCodec, sigs *kit.Signatures[varintInput, []byte], replay string) error {
	if err := probeVarint(c); err != nil {
		return err
	}
	for _, dst := range [][]byte{nil, []byte("kafka")} {
		for _, v := range kafkaVarints {
			if f := varintCase(c, sigs, dst, v); f != nil {
				f.Replay = replay
				return f
			}
		}
	}
	return nil
}

func probeVarint(c VarintCodec) error {
	return varintExercise.Probe(kit.Call{Func: "AppendVarint", Do: func() { c.AppendVarint(nil, 1) }})
}

// VarintProperties returns the rapid property for c: for any int32 and any dst,
// AppendVarint keeps dst and appends exactly Kafka's bytes.
func VarintProperties(c VarintCodec, known ...kit.Known[VarintCodec]) func(*rapid.T) {
	return varintProperties(c, varintSignatures(known), kit.Replay("./"+varintExercise.Dir, "TestVarint/properties", true))
}

func varintProperties(c VarintCodec, sigs *kit.Signatures[varintInput, []byte], replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		dst := kit.Draw(t, rapid.SliceOfN(rapid.Byte(), 0, 8), "dst")
		v := kit.Draw(t, rapid.Int32(), "v")
		if f := varintCase(c, sigs, dst, v); f != nil {
			f.Replay = replay
			kit.Fatal(t, f)
		}
	}
}

// TestVarint runs CheckVarint and VarintProperties as subtests of t. An
// untouched stub fails once, naming the note to read and the function to write.
func TestVarint(t *testing.T, c VarintCodec, known ...kit.Known[VarintCodec]) {
	t.Helper()
	dir := kit.CallerDir(1, varintExercise.Dir)
	sigs := varintSignatures(known)
	if err := probeVarint(c); err != nil {
		t.Fatal(err)
	}
	kit.KnownAnswersFirst(t, func(t *testing.T) {
		t.Helper()
		if err := checkVarint(c, sigs, kit.Replay(dir, t.Name(), false)); err != nil {
			kit.Report(t, err)
		}
	}, "properties", func(t *testing.T) {
		t.Helper()
		rapid.Check(t, varintProperties(c, sigs, kit.Replay(dir, t.Name(), true)))
	})
}

// varintCase checks one encoding against the rules in order and returns the
// first one broken.
func varintCase(c VarintCodec, sigs *kit.Signatures[varintInput, []byte], dst []byte, v int32) *kit.Failure {
	prefix := bytes.Clone(dst)
	want := kafkalog.AppendVarint(nil, v)
	var out []byte
	if p := kit.Guard(func() { out = c.AppendVarint(dst, v) }); kit.IsTimeout(p) {
		return kit.Timeout(ruleV5, fmt.Sprintf("AppendVarint(dst=%s, %d)", kit.Hex(prefix, 16), v), termination01)
	} else if p != nil {
		return &kit.Failure{Rule: ruleV6, What: fmt.Sprintf("AppendVarint(dst=%s, %d) panicked: %v.", kit.Hex(prefix, 16), v, p)}
	}
	fail := func(r kit.Rule, what string, details ...string) *kit.Failure {
		return &kit.Failure{
			Rule: r, What: what, Details: details, Got: out, Want: append(bytes.Clone(prefix), want...),
			Hint: func() []kit.Match { return sigs.LooksLike(varintOf(c.AppendVarint), varintInput{prefix, v}, out) },
		}
	}
	call := fmt.Sprintf("AppendVarint(dst=%s, %d)", kit.Hex(prefix, 16), v)
	if len(out) < len(prefix) || !bytes.Equal(out[:len(prefix)], prefix) || len(out) == len(prefix) {
		return fail(ruleV1, call+" must keep the bytes already in dst and append the varint after them.")
	}
	enc := out[len(prefix):]
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
