package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
)

// bigValueBatch is a one-record batch whose value is n bytes of v.
func bigValueBatch(ts int64, v byte, n int) []byte {
	return encodeBatch(0, ts, kv{key: fmt.Sprintf("k%c", v), value: strings.Repeat(string(v), n)})
}

// logShape is what an append may change: the LEO, the .log bytes and the segments.
type logShape struct {
	LEO      int64
	Size     int64
	Segments []int64
}

func shapeOf(l *Log) logShape {
	return logShape{LEO: l.LogEndOffset(), Size: l.Size(), Segments: segmentBases(l)}
}

// An append larger than segment.bytes is refused as Kafka's UnifiedLog.append refuses it
// (RecordBatchTooLargeException, RECORD_LIST_TOO_LARGE), after the per-batch checks
// (max.message.bytes before the CRC, MESSAGE_TOO_LARGE); a follower ignores
// max.message.bytes. A refused append leaves the log as it was and the next one works.
func TestAppendSizeLimitsAsKafka(t *testing.T) {
	cfg := testConfig() // segment.bytes 1024
	cfg.MaxMessageBytes = 1500
	big := bigValueBatch(1, 'a', 1200)  // > segment.bytes, ≤ max.message.bytes
	huge := bigValueBatch(1, 'b', 2000) // > both
	mid := bigValueBatch(1, 'c', 900)   // ≤ segment.bytes
	hugeCorrupt := append([]byte(nil), huge...)
	hugeCorrupt[len(hugeCorrupt)-1] ^= 1
	var many []byte // small batches adding up to more than segment.bytes
	for len(many) <= 1024 {
		many = append(many, valueBatch(1, "small")...)
	}
	follower := func(b []byte, base int64) []byte {
		b = append([]byte(nil), b...)
		for p := 0; p < len(b); {
			h, _ := ReadBatchHeader(b[p:])
			binary.BigEndian.PutUint64(b[p:], uint64(base))
			base += int64(h.LastOffsetDelta) + 1
			p += int(h.Size())
		}
		return b
	}
	cases := []struct {
		name     string
		leader   bool
		in       []byte
		want     error
		wantCode int16
	}{
		{"leader: one batch larger than segment.bytes", true, big, ErrAppendTooLarge, 18},
		{"leader: batches adding up to more than segment.bytes", true, many, ErrAppendTooLarge, 18},
		{"leader: larger than max.message.bytes and segment.bytes", true, huge, ErrRecordTooLarge, 10},
		{"leader: max.message.bytes is checked before the CRC", true, hugeCorrupt, ErrRecordTooLarge, 10},
		{"leader: fits", true, mid, nil, 0},
		{"follower: larger than max.message.bytes, fits segment.bytes", false, follower(mid, 0), nil, 0},
		{"follower: larger than segment.bytes", false, follower(huge, 0), ErrAppendTooLarge, 18},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := cfg
			if !c.leader {
				cfg.MaxMessageBytes = 500 // lowered after the leader took the batch
			}
			l := openTestLog(t, vfs.NewMem(), cfg)
			before := shapeOf(l)
			var err error
			if c.leader {
				_, err = l.AppendAsLeader(append([]byte(nil), c.in...), 0, 0)
			} else {
				_, err = l.AppendAsFollower(c.in, 0)
			}
			if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Fatalf("append: %v, want %v", err, c.want)
			}
			if code, name := ErrorCode(err); code != c.wantCode {
				t.Fatalf("ErrorCode = %d %s, want %d", code, name, c.wantCode)
			}
			if err == nil {
				return
			}
			if diff := cmp.Diff(before, shapeOf(l)); diff != "" {
				t.Fatalf("a refused append changed the log (-want +got):\n%s", diff)
			}
			info, err := l.AppendAsLeader(valueBatch(2, "after"), 0, 0)
			if err != nil || info.FirstOffset != 0 {
				t.Fatalf("the append after a refused one: %+v, %v", info, err)
			}
		})
	}
}

// An append of exactly segment.bytes is taken and rolls into a segment of its own,
// which the next append rolls away from (LogSegment.shouldRoll: size > segment.bytes −
// the append's size).
func TestAppendOfSegmentBytesGetsItsOwnSegment(t *testing.T) {
	cfg := testConfig()
	l := openTestLog(t, vfs.NewMem(), cfg)
	if _, err := l.AppendAsLeader(valueBatch(1, "first"), 0, 0); err != nil {
		t.Fatal(err)
	}
	n := int(cfg.SegmentBytes)
	b := bigValueBatch(1, 'x', n)
	for ; int64(len(b)) > cfg.SegmentBytes; b = bigValueBatch(1, 'x', n) {
		n--
	}
	if int64(len(b)) != cfg.SegmentBytes {
		t.Fatalf("test batch of %d bytes, want %d", len(b), cfg.SegmentBytes)
	}
	if _, err := l.AppendAsLeader(b, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := l.AppendAsLeader(valueBatch(1, "last"), 0, 0); err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for _, s := range l.Segments() {
		sizes = append(sizes, s.Size())
	}
	want := []int64{int64(len(valueBatch(1, "first"))), cfg.SegmentBytes, int64(len(valueBatch(1, "last")))}
	if diff := cmp.Diff(want, sizes); diff != "" {
		t.Fatalf("segment sizes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{0, 1, 2}, segmentBases(l)); diff != "" {
		t.Fatalf("segment bases (-want +got):\n%s", diff)
	}
}

// oversizedLog writes keyed batches of about 900 bytes under segment.bytes 4096, so that
// after segment.bytes is lowered to 1024 (an altered topic config) every segment is
// larger than segment.bytes. It returns the file system, crashed or closed.
func oversizedLog(t *testing.T, compact, crash bool) (*vfs.MemFS, []logRec) {
	t.Helper()
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 4096
	if compact {
		cfg.CleanupPolicy = CleanupPolicyCompact
	}
	l := openTestLog(t, fsys, cfg)
	for i := 0; i < 20; i++ {
		if _, err := l.AppendAsLeader(bigValueBatch(int64(i), byte('a'+i%4), 850+i), 0, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	want := readAll(t, l)
	if crash {
		fsys.Crash()
	} else if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return fsys, want
}

func lowered(compact bool) Config {
	cfg := testConfig() // segment.bytes 1024
	if compact {
		cfg.CleanupPolicy = CleanupPolicyCompact
	}
	return cfg
}

// Segments larger than segment.bytes (written before it was lowered) recover, take
// appends (each rolls), and are deleted by retention.bytes one by one.
func TestSegmentsLargerThanSegmentBytes(t *testing.T) {
	for _, crash := range []bool{false, true} {
		t.Run(fmt.Sprintf("crash=%v", crash), func(t *testing.T) {
			fsys, want := oversizedLog(t, false, crash)
			var opts []Option
			if !crash {
				opts = append(opts, WithCleanShutdown())
			}
			l := openTestLog(t, fsys, lowered(false), opts...)
			r := l.RecoveryReport()
			if len(r.Truncations) > 0 || len(r.SegmentsDeleted) > 0 {
				t.Fatalf("recovery cut an oversized segment: %+v", r)
			}
			if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
				t.Fatalf("records (-want +got):\n%s", diff)
			}
			checkIndexes(t, l)
			segs := len(l.Segments())
			for i := 0; i < 2; i++ {
				if _, err := l.AppendAsLeader(bigValueBatch(100, 'z', 900), 0, 100); err != nil {
					t.Fatal(err)
				}
			}
			if got := len(l.Segments()); got != segs+2 {
				t.Fatalf("%d segments after two appends of 900 bytes to a full log, want %d", got, segs+2)
			}
			cfg := lowered(false)
			cfg.RetentionBytes = 2000
			l.cfg = cfg
			if _, err := l.DeleteOldSegments(l.LogEndOffset(), 100); err != nil {
				t.Fatal(err)
			}
			// Kafka's rule (UnifiedLog.deleteRetentionSizeBreachedSegments): delete the
			// oldest segment while the log stays at least retention.bytes without it.
			if first := l.Segments()[0]; l.Size()-first.Size() >= cfg.RetentionBytes {
				t.Fatalf("size %d after retention.bytes %d: segment %d (%d bytes) should have gone", l.Size(), cfg.RetentionBytes, first.BaseOffset(), first.Size())
			}
			lso := l.LogStartOffset()
			if lso == 0 || lso >= 20 {
				t.Fatalf("log start offset %d: retention deleted no oversized segment, or all of them", lso)
			}
			if diff := cmp.Diff(offsetRange(lso, 22), offsetsOf(readAll(t, l))); diff != "" {
				t.Fatalf("offsets left by retention (-want +got):\n%s", diff)
			}
		})
	}
}

// The cleaner compacts segments larger than segment.bytes: each is a group of its own
// (LogCleaner.groupSegmentsBySize), the latest value of every key stays.
func TestCleanSegmentsLargerThanSegmentBytes(t *testing.T) {
	fsys, all := oversizedLog(t, true, false)
	l := openTestLog(t, fsys, lowered(true), WithCleanShutdown())
	if _, err := l.AppendAsLeader(valueBatch(100, "tail"), 0, 100); err != nil {
		t.Fatal(err)
	}
	res, err := l.Clean(0, l.LogEndOffset(), 1000, CleanerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) == 0 {
		t.Fatalf("nothing cleaned: %+v", res)
	}
	latest := map[string]logRec{}
	for _, r := range all {
		latest[r.Key] = r
	}
	var want []logRec
	for _, r := range all {
		if latest[r.Key] == r {
			want = append(want, r)
		}
	}
	want = append(want, logRec{Offset: 20, Value: "tail"})
	if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
		t.Fatalf("records after cleaning (-want +got):\n%s", diff)
	}
	checkIndexes(t, l)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	fsys.PowerCut(nil)
	l = openTestLog(t, fsys, lowered(true))
	if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
		t.Fatalf("records after cleaning, a power cut and recovery (-want +got):\n%s", diff)
	}
}
