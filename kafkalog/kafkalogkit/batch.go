package kafkalogkit

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// BatchEncoder is the surface of exercise ch01/batch: the record batch v2
// encoder, uncompressed.
type BatchEncoder struct {
	// AppendRecord appends r in the v2 record format (kafkalog.Record.AppendTo).
	AppendRecord func(dst []byte, r *kafkalog.Record) []byte
	// AppendBatch appends b, uncompressed: the 61-byte header with magic 2,
	// recordsCount = len(b.Records), the length and the CRC computed, then the
	// records (kafkalog.RecordBatch.AppendTo). Every other field is written as set.
	AppendBatch func(dst []byte, b *kafkalog.RecordBatch) []byte
}

var batchExercise = kit.Exercise{
	Dir:  "exercises/ch01/batch",
	File: "batch.go",
	Note: note01 + "#a-record-inside-the-batch",
}

var (
	ruleB1 = kit.Rule{ID: "B1", Name: "record layout", Note: note01 + "#a-record-inside-the-batch"}
	ruleB2 = kit.Rule{ID: "B2", Name: "append", Note: note01 + "#the-61-byte-batch-header"}
	ruleB3 = kit.Rule{ID: "B3", Name: "header fields", Note: note01 + "#the-61-byte-batch-header"}
	ruleB4 = kit.Rule{ID: "B4", Name: "records section", Note: note01 + "#a-record-inside-the-batch"}
	ruleB5 = kit.Rule{ID: "B5", Name: "length field", Note: note01 + "#the-length-field"}
	ruleB6 = kit.Rule{ID: "B6", Name: "CRC-32C over [21, end)", Note: note01 + "#the-crc-covers-bytes-21-to-the-end"}
	ruleB7 = kit.Rule{ID: "B7", Name: "no panic", Note: note01 + "#you-write"}
	ruleB8 = kit.Rule{ID: "B8", Name: "an earlier result stays", Note: note01 + "#a-result-is-the-callers"}

	batchRules = []kit.Rule{ruleB1, ruleB2, ruleB3, ruleB4, ruleB5, ruleB6, ruleB7, ruleB8}
)

// knownDsts are the slices the known answers append batches to: none, the
// bytes of a batch before, and the same with spare capacity.
var knownDsts = [][]byte{nil, []byte("previous batch"), append(make([]byte, 0, 64), "previous batch"...)}

func probeBatch(e BatchEncoder) error {
	r := kafkalog.Record{Key: []byte("k"), Value: []byte("v")}
	return batchExercise.Probe(
		kit.Call{Func: "AppendRecord", Do: func() { e.AppendRecord(nil, &r) }},
		kit.Call{Func: "AppendBatch", Do: func() { e.AppendBatch(nil, &kafkalog.RecordBatch{Records: []kafkalog.Record{r}}) }},
	)
}

// CheckBatch checks e against the golden batches G1, G2, G3 and G5
// (goldenBatches: computed field by field from DefaultRecordBatch and
// DefaultRecord), the batch a real broker printed with kafka-dump-log, and
// every batch of the real-broker files in testdata: each is decoded with kafkalog and must be re-encoded byte
// for byte. It returns the first violation.
func CheckBatch(e BatchEncoder, known ...kit.Known[BatchEncoder]) error {
	return checkBatch(judgeBatch(e, known), kit.Replay("./"+batchExercise.Dir, "TestBatch"))
}

func checkBatch(e batchSubject, replay string) error {
	if err := probeBatch(e.BatchEncoder); err != nil {
		return err
	}
	cases := knownBatches()
	for _, c := range cases {
		for i := range c.batch.Records {
			if f := recordCase(e, c.source, &c.batch.Records[i], i); f != nil {
				in := recordInput{&c.batch.Records[i], i}
				_, g := kit.Shrink(in, f, smallerRecord, func(in recordInput) *kit.Failure { return recordCase(e, "the smallest failing batch", in.r, in.i) })
				g.ShrunkFrom(fmt.Sprintf("record %d of %s", i, c.source), f)
				g.Replay = replay
				return g
			}
		}
	}
	for _, dst := range knownDsts {
		for _, c := range cases {
			if f := batchCaseCheck(e, c.source, dst, &c.batch, c.want); f != nil {
				in := batchInput{dst, &c.batch}
				_, g := kit.Shrink(in, f, smallerBatch, func(in batchInput) *kit.Failure {
					return batchCaseCheck(e, "the smallest failing batch", in.dst, in.b, in.b.AppendTo(nil))
				})
				g.ShrunkFrom(c.source, f)
				g.Replay = replay
				return g
			}
		}
	}
	return checkBatchAliases(e, recordPairs(), batchPairs(), replay)
}

// checkBatchAliases makes each pair of calls on a nil dst and checks that the
// first result stays as it was.
func checkBatchAliases(e batchSubject, records []recordPair, batches []batchPair, replay string) error {
	for _, p := range records {
		if f := recordAliasCase(e, p); f != nil {
			f.Replay = replay
			return f
		}
	}
	for _, p := range batches {
		if f := batchAliasCase(e, p); f != nil {
			f.Replay = replay
			return f
		}
	}
	return nil
}

// BatchProperties returns the rapid property for e: for any uncompressed batch
// (any header fields, records with null or empty keys and values, headers,
// offset gaps, large timestamp deltas) e writes exactly Kafka's bytes.
func BatchProperties(e BatchEncoder, known ...kit.Known[BatchEncoder]) func(*rapid.T) {
	return batchProperties(judgeBatch(e, known), kit.Replay("./"+batchExercise.Dir, "TestBatch/properties"))
}

func batchProperties(e batchSubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		b := drawBatch(t)
		dst := kit.Draw(t, rapid.SliceOfN(rapid.Byte(), 0, 4), "dst")
		dst = append(make([]byte, 0, len(dst)+kit.Draw(t, rapid.IntRange(0, 200), "dstSpareCapacity")), dst...)
		for i := range b.Records {
			if f := recordCase(e, "a generated batch", &b.Records[i], i); f != nil {
				f.Replay = replay
				kit.Fatal(t, f)
			}
		}
		if f := batchCaseCheck(e, "a generated batch", dst, &b, b.AppendTo(nil)); f != nil {
			f.Replay = replay
			kit.Fatal(t, f)
		}
		next := drawBatch(t)
		var pair recordPair
		if len(b.Records) > 0 && len(next.Records) > 0 {
			pair = recordPair{&b.Records[0], &next.Records[0]}
		}
		var records []recordPair
		if pair[0] != nil {
			records = append(records, pair)
		}
		if f := checkBatchAliases(e, records, []batchPair{{&b, &next}}, replay); f != nil {
			kit.Fatal(t, f.(*kit.Failure))
		}
	}
}

// recordAliasCase and batchAliasCase append p[0] to a nil dst, then p[1],
// and check that the first result still holds p[0]'s bytes.
func recordAliasCase(e batchSubject, p recordPair) *kit.Failure {
	a, b := *p[0], *p[1]
	return aliasCase(func() []byte { return e.AppendRecord(nil, &a) }, func() []byte { return e.AppendRecord(nil, &b) },
		"AppendRecord(nil, "+describeRecord(0, p[0])+")", "AppendRecord(nil, "+describeRecord(1, p[1])+")",
		func(first []byte) []kit.Match {
			return e.recordAliases.LooksLike(recordAliasOf(e.AppendRecord), p, first, e.agreesElsewhere(e.recordAliases)...)
		})
}

func batchAliasCase(e batchSubject, p batchPair) *kit.Failure {
	return aliasCase(func() []byte { return e.AppendBatch(nil, p[0]) }, func() []byte { return e.AppendBatch(nil, p[1]) },
		"AppendBatch(nil, the first batch below)", "AppendBatch(nil, the second)",
		func(first []byte) []kit.Match {
			return e.batchAliases.LooksLike(batchAliasOf(e.AppendBatch), p, first, e.agreesElsewhere(e.batchAliases)...)
		}, describeBatch(p[0]), describeBatch(p[1]))
}

// aliasCase makes two calls and checks that the first result is unchanged
// by the second.
func aliasCase(first, second func() []byte, firstCall, secondCall string, hint func([]byte) []kit.Match, details ...string) *kit.Failure {
	var a []byte
	if kit.Guard(func() { a = first() }) != nil {
		return nil // the call's own case reports it
	}
	kept := bytes.Clone(a)
	if kit.Guard(func() { second() }) != nil {
		return nil
	}
	if bytes.Equal(a, kept) {
		return nil
	}
	return &kit.Failure{
		Rule:    ruleB8,
		What:    fmt.Sprintf("%s returned %d bytes; after %s they changed: the caller owns what an Append function returns. Append to dst (a new slice when dst is nil), and never return a buffer you keep and write again.", firstCall, len(kept), secondCall),
		Details: append(details, "first result when returned: "+kit.Hex(kept, 48), "and after the second call:  "+kit.Hex(a, 48)),
		Got:     a, Want: kept,
		Hint: func() []kit.Match { return hint(a) },
	}
}

// TestBatch runs CheckBatch and BatchProperties as subtests of t.
func TestBatch(t *testing.T, enc BatchEncoder, known ...kit.Known[BatchEncoder]) {
	t.Helper()
	e := judgeBatch(enc, known)
	kit.Run(t, 1, kit.Suite{
		Exercise:  batchExercise,
		Probe:     func() error { return probeBatch(enc) },
		Check:     func(replay string) error { return checkBatch(e, replay) },
		Props:     func(replay string) func(*rapid.T) { return batchProperties(e, replay) },
		PropsName: "properties",
	})
}

func recordCase(e batchSubject, source string, r *kafkalog.Record, i int) *kit.Failure {
	want := r.AppendTo(nil)
	var got []byte
	if p := kit.Guard(func() { got = e.AppendRecord(nil, r) }); kit.IsTimeout(p) {
		return kit.Timeout(ruleB1, fmt.Sprintf("AppendRecord on record %d of %s", i, source), termination01, describeRecord(i, r))
	} else if p != nil {
		return &kit.Failure{Rule: ruleB7, What: fmt.Sprintf("AppendRecord panicked on record %d of %s: %v.", i, source, p), Details: []string{describeRecord(i, r)}}
	}
	if bytes.Equal(got, want) {
		return nil
	}
	return &kit.Failure{
		Rule:    ruleB1,
		What:    fmt.Sprintf("AppendRecord must write record %d of %s in Kafka's v2 record layout.", i, source),
		Details: []string{describeRecord(i, r), "want  " + kit.Hex(want, 48), "got   " + kit.Hex(got, 48)},
		Got:     got, Want: want,
		Field: func(pos int) string { n, _ := recordField(want, pos); return n },
		Hint: func() []kit.Match {
			return e.records.LooksLike(recordOf(e.AppendRecord), recordInput{r, i}, got, e.batches.Agrees(batchOf(e.AppendBatch)))
		},
	}
}

// batchCaseCheck checks one encoded batch against the rules in order.
func batchCaseCheck(e batchSubject, source string, dst []byte, b *kafkalog.RecordBatch, want []byte) *kit.Failure {
	prefix := bytes.Clone(dst)
	var out []byte
	if p := kit.Guard(func() { out = e.AppendBatch(dst, b) }); kit.IsTimeout(p) {
		return kit.Timeout(ruleB3, "AppendBatch on "+source, termination01, describeBatch(b))
	} else if p != nil {
		return &kit.Failure{Rule: ruleB7, What: fmt.Sprintf("AppendBatch panicked on %s: %v.", source, p), Details: []string{describeBatch(b)}}
	}
	fail := func(r kit.Rule, from int, what string, details ...string) *kit.Failure {
		f := &kit.Failure{
			From: len(prefix) + from,
			Rule: r, What: what, Details: append([]string{describeBatch(b)}, details...),
			Got: out, Want: append(bytes.Clone(prefix), want...),
			Field: func(pos int) string {
				if pos < len(prefix) {
					return "dst (bytes that were there before)"
				}
				return batchField(want, pos-len(prefix))
			},
			Hint: func() []kit.Match {
				return e.batches.LooksLike(batchOf(e.AppendBatch), batchInput{prefix, b}, out, e.records.Agrees(recordOf(e.AppendRecord)))
			},
		}
		return f
	}
	if len(out) < len(prefix) || !bytes.Equal(out[:len(prefix)], prefix) {
		return fail(ruleB2, -len(prefix), fmt.Sprintf("AppendBatch must keep the %d bytes already in dst and append the batch after them.", len(prefix)))
	}
	got := out[len(prefix):]
	if i := headerDiff(want, got); i >= 0 {
		return fail(ruleB3, i, fmt.Sprintf("Encoding %s: header field %s must be %s (big-endian).", source, batchField(want, i), fieldHex(want, i)),
			fmt.Sprintf("got %s", fieldHex(got, i)))
	}
	if len(got) < kafkalog.BatchHeaderLen || !bytes.Equal(got[kafkalog.BatchHeaderLen:], want[kafkalog.BatchHeaderLen:]) {
		return fail(ruleB4, kafkalog.BatchHeaderLen, fmt.Sprintf("Encoding %s: the records section (from byte 61) must hold the records back to back, each in the v2 record layout.", source))
	}
	// A field whose bytes are the right ones in reverse was written
	// little-endian: that is the header rule, not the length's or the CRC's.
	for _, at := range []int{8, 17} {
		if w, g := binary.BigEndian.Uint32(want[at:]), binary.BigEndian.Uint32(got[at:]); w != g && g == binary.LittleEndian.Uint32(want[at:]) {
			return fail(ruleB3, at, fmt.Sprintf("Encoding %s: header field %s must be %s (big-endian); it was written little-endian.", source, batchField(want, at), fieldHex(want, at)),
				fmt.Sprintf("got %s", fieldHex(got, at)))
		}
	}
	if wantLen, gotLen := binary.BigEndian.Uint32(want[8:]), binary.BigEndian.Uint32(got[8:]); wantLen != gotLen {
		return fail(ruleB5, 8, fmt.Sprintf("Encoding %s: the length field must count the bytes after it: %d-byte batch - 12 = %d, not %d.", source, len(want), wantLen, int32(gotLen)))
	}
	if wantCRC, gotCRC := binary.BigEndian.Uint32(want[17:]), binary.BigEndian.Uint32(got[17:]); wantCRC != gotCRC {
		return fail(ruleB6, 17, fmt.Sprintf("Encoding %s: the crc field must be the CRC-32C (Castagnoli) of bytes [21, %d): 0x%08x, not 0x%08x.", source, len(want), wantCRC, gotCRC))
	}
	if !bytes.Equal(got, want) {
		return fail(ruleB3, 0, fmt.Sprintf("Encoding %s must give exactly Kafka's bytes.", source))
	}
	return nil
}

// headerDiff returns the first position in the header, other than the length
// and crc fields (checked by their own rules), where got differs from want, or -1.
func headerDiff(want, got []byte) int {
	for i := 0; i < kafkalog.BatchHeaderLen; i++ {
		if (i >= 8 && i < 12) || (i >= 17 && i < 21) {
			continue
		}
		if i >= len(got) || got[i] != want[i] {
			return i
		}
	}
	return -1
}

// fieldHex returns the bytes of the header field that contains position i.
func fieldHex(b []byte, i int) string {
	bounds := []int{0, 8, 12, 16, 17, 21, 23, 27, 35, 43, 51, 53, 57, 61}
	for k := 1; k < len(bounds); k++ {
		if i < bounds[k] {
			return kit.Hex(b[min(bounds[k-1], len(b)):min(bounds[k], len(b))], 8)
		}
	}
	return "?"
}
