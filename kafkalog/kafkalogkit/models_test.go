package kafkalogkit

import (
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// These tests check the suites' own models and fixtures against answers
// written down independently (Kafka's own tests and their expected values), so
// that a suite cannot be wrong in the same way as the solutions it judges.

func TestMain(m *testing.M) {
	flag.Parse()
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestBatchModelMatchesLibrary(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		if got, want := kafkaBatchEncoding.appendBatch(nil, &b), b.AppendTo(nil); !bytes.Equal(got, want) {
			t.Fatalf("the suite's encoder and kafkalog disagree on %s:\nsuite   %x\nlibrary %x", describeBatch(&b), got, want)
		}
	})
}

func TestGoldenBatchesRoundTrip(t *testing.T) {
	for _, g := range goldenBatches {
		want, err := hex.DecodeString(g.hex)
		if err != nil {
			t.Fatal(err)
		}
		c := decodeAll(g.name, want)
		if len(c) != 1 {
			t.Fatalf("%s: %d batches, want 1", g.name, len(c))
		}
		if got := kafkaBatchEncoding.appendBatch(nil, &c[0].batch); !bytes.Equal(got, want) {
			t.Errorf("%s: re-encoded\n%x\nwant\n%x", g.name, got, want)
		}
	}
}

func TestKnownBatchesIncludeRealBrokerBatches(t *testing.T) {
	real := 0
	for _, c := range knownBatches() {
		if bytes.Contains([]byte(c.source), []byte("a real broker's")) {
			real++
		}
	}
	// donaldy -39: 3 + 1 batches, -17: 1, -8: 3; kafkajs: 1 + 6; segmentio: 2.
	if real != 17 {
		t.Errorf("%d real-broker batches, want 17", real)
	}
}

func TestIndexModelKafkaAnswers(t *testing.T) {
	idx := &segmentModel{baseOffset: 45, index: []indexEntry{{45, 0}, {46, 10}, {47, 23}, {48, 37}}}
	got := map[int64]indexEntry{}
	for _, target := range []int64{44, 45, 46, 47, 48, 50} {
		got[target] = idx.lookup(target)
	}
	want := map[int64]indexEntry{44: {45, 0}, 45: {45, 0}, 46: {46, 10}, 47: {47, 23}, 48: {48, 37}, 50: {48, 37}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(indexEntry{})); diff != "" {
		t.Errorf("OffsetIndexTest lookups (-want +got):\n%s", diff)
	}
	f5 := buildSegment(segmentSpec{baseOffset: 40, indexIntervalBytes: 10, batches: []batchSpec{{gap: 10, records: 2, valueSize: 5}, {gap: 8, records: 2, valueSize: 5}}})
	for target, wantBase := range map[int64]int64{41: 50, 52: 60, 55: 60, 61: 60} {
		if b, ok := f5.find(0, target); !ok || b.baseOffset != wantBase {
			t.Errorf("LogSegmentTest read(%d): batch %d..%d (found %v), want the batch at %d", target, b.baseOffset, b.lastOffset, ok, wantBase)
		}
	}
	if _, ok := f5.find(0, 62); ok {
		t.Errorf("read(62) past the last offset 61 found a batch")
	}
}

func TestRetentionModelKafkaAnswers(t *testing.T) {
	want := []int{1, 0, 3, 0, 0, 3, 1, 0, 1, 2, 0, 5, 5, 6, 20, 3, 0, 3, 0, 2, 0, 1, 2, 2, 0, 0, 0, 0, 3, 3}
	cases := retentionKnownAnswers()
	if len(cases) != len(want) {
		t.Fatalf("%d retention cases, want answers for %d", len(cases), len(want))
	}
	for i, c := range cases {
		if got := kafkaRetention(c.log, c.cfg, c.now).count(); got != want[i] {
			t.Errorf("%s: the model deletes %d segment(s), Kafka %d", c.name, got, want[i])
		}
	}
}

func TestRecoveryModelKafkaAnswers(t *testing.T) {
	log, starts := oneRecordBatches(0, 20)
	for _, k := range []int{0, 5, 19} {
		damaged := bytes.Clone(log)
		copy(damaged[starts[k]+30:], garbage(len(damaged)-starts[k]-30))
		r := kafkaRecover(damaged, 0, 10)
		if r.validBytes != starts[k] || len(r.batches) != k {
			t.Errorf("garbage from inside batch %d: kept %d bytes (%d batches), want %d bytes (batches 0..%d)", k, r.validBytes, len(r.batches), starts[k], k-1)
		}
	}
	three, s3 := oneRecordBatches(1000, 3)
	tests := []struct {
		name   string
		log    []byte
		base   int64
		valid  int
		reason stopReason
	}{
		{"whole", three, 1000, len(three), stopEnd},
		{"torn header", three[:s3[2]+16], 1000, s3[2], stopTornHeader},
		{"torn batch", three[:len(three)-1], 1000, s3[2], stopTornBatch},
		{"zero padding", append(bytes.Clone(three), make([]byte, 100)...), 1000, len(three), stopShortLength},
		{"epoch flipped: outside the CRC", flipped(three, s3[1]+15), 1000, len(three), stopEnd},
		{"value flipped", flipped(three, s3[1]+70), 1000, s3[1], stopCRC},
		{"magic flipped", flipped(three, s3[1]+16), 1000, s3[1], stopMagic},
		{"below the base offset", three, 1001, 0, stopOffsets},
	}
	for _, tt := range tests {
		r := kafkaRecover(tt.log, tt.base, 0)
		if r.validBytes != tt.valid || r.reason != tt.reason {
			t.Errorf("%s: kept %d bytes (%v), want %d (%v)", tt.name, r.validBytes, r.reason, tt.valid, tt.reason)
		}
	}
}

func flipped(b []byte, at int) []byte {
	c := bytes.Clone(b)
	c[at] ^= 1
	return c
}

func TestRecoveryIndexRule(t *testing.T) {
	log, starts := oneRecordBatches(0, 4)
	r := kafkaRecover(log, 0, 0)
	var want []string
	for i := 1; i < 4; i++ { // no entry for the first batch: 0 - 0 > 0 is false
		want = append(want, fmt.Sprintf("%d->%d", i, starts[i]))
	}
	var got []string
	for i := 0; i+8 <= len(r.index); i += 8 {
		got = append(got, fmt.Sprintf("%d->%d", be32(r.index[i:]), be32(r.index[i+4:])))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rebuilt index with index.interval.bytes 0 (-want +got):\n%s", diff)
	}
}

func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// TestRetentionMachineRollsLikeKafka checks the state machine's roll rule
// against UnifiedLogTest: testSizeBasedLogRoll (segment.bytes 10·(S-1),
// 11 appends of S: 2 segments) and the 5-batch segments of its retention
// tests.
func TestRetentionMachineRollsLikeKafka(t *testing.T) {
	s := singleBatchSize()
	for _, tt := range []struct {
		name                   string
		segmentBytes, appends  int64
		wantSegments, wantLast int
	}{
		{"G10 testSizeBasedLogRoll", 10 * (s - 1), 11, 2, 2},
		{"segment.bytes 5·S", 5 * s, 15, 3, 5},
	} {
		m := &retentionMachine{segmentBytes: tt.segmentBytes, now: nowMs}
		m.log.Segments = []RetentionSegment{{FirstTimestamp: -1, LargestTimestamp: -1}}
		for range tt.appends {
			m.appendBatch(s, 1, nowMs)
		}
		if got := len(m.log.Segments); got != tt.wantSegments || m.active().SizeInBytes != int64(tt.wantLast)*s {
			t.Errorf("%s: %d segments, the last of %d bytes; want %d, the last of %d batches", tt.name, got, m.active().SizeInBytes, tt.wantSegments, tt.wantLast)
		}
	}
}
