package kafkalog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

// logRec is a record as a test sees it: offset, key, value (nil value = tombstone).
type logRec struct {
	Offset int64
	Key    string
	Value  string
	Null   bool `cmp:"-"`
}

// kv is a record to encode: a key (empty = null key) and a value.
type kv struct {
	key, value string
	tombstone  bool
}

// encodeBatch encodes one uncompressed batch at base with one record per kv, every
// record timestamped ts.
func encodeBatch(base, ts int64, recs ...kv) []byte {
	b := RecordBatch{BatchHeader: BatchHeader{
		BaseOffset: base, PartitionLeaderEpoch: NoPartitionLeaderEpoch, BaseTimestamp: ts, MaxTimestamp: ts,
		ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch, BaseSequence: NoSequence,
		LastOffsetDelta: int32(len(recs) - 1),
	}}
	for i, r := range recs {
		rec := Record{OffsetDelta: int32(i)}
		if r.key != "" {
			rec.Key = []byte(r.key)
		}
		if !r.tombstone {
			rec.Value = []byte(r.value)
		}
		b.Records = append(b.Records, rec)
	}
	return b.AppendTo(nil)
}

// valueBatch is a batch of one record with value v and no key.
func valueBatch(ts int64, v string) []byte { return encodeBatch(0, ts, kv{value: v}) }

// testConfig is DefaultConfig with small segments and indexes.
func testConfig() Config {
	c := DefaultConfig()
	c.SegmentBytes = 1024
	c.SegmentIndexBytes = 1024
	c.IndexIntervalBytes = 128
	c.RetentionMs = -1
	return c
}

func openTestLog(t testing.TB, fsys vfs.FS, cfg Config, opts ...Option) *Log {
	t.Helper()
	l, err := Open(fsys, "logs/topic-0", cfg, 0, opts...)
	require.NoError(t, err)
	return l
}

// readAll reads every record from the log start offset to the LEO with small fetches.
func readAll(t testing.TB, l *Log) []logRec {
	t.Helper()
	recs, err := readAllErr(l)
	require.NoError(t, err)
	return recs
}

func readAllErr(l *Log) ([]logRec, error) {
	var out []logRec
	for off := l.LogStartOffset(); off < l.LogEndOffset(); {
		data, err := l.Read(off, 200)
		if err != nil {
			return out, err
		}
		if len(data) == 0 {
			return out, nil // the offsets up to the LEO are a gap (a follower of a compacted leader)
		}
		for p := 0; p < len(data); {
			b, n, err := ReadBatch(data[p:])
			if err != nil {
				return out, err
			}
			for i := range b.Records {
				r := &b.Records[i]
				if o := b.Offset(r); o >= off {
					out = append(out, logRec{Offset: o, Key: string(r.Key), Value: string(r.Value), Null: r.Value == nil})
				}
			}
			off = b.NextOffset()
			p += n
		}
	}
	return out, nil
}

func TestAppendAssignsOffsetsAndReads(t *testing.T) {
	fsys := vfs.NewMem()
	l := openTestLog(t, fsys, testConfig())
	var want []logRec
	for i := 0; i < 40; i++ {
		info, err := l.AppendAsLeader(encodeBatch(999, int64(i), kv{key: "k", value: fmt.Sprint("a", i)}, kv{value: fmt.Sprint("b", i)}), 3, 0)
		require.NoError(t, err)
		require.Equal(t, int64(2*i), info.FirstOffset)
		require.Equal(t, int64(2*i+1), info.LastOffset)
		want = append(want, logRec{Offset: int64(2 * i), Key: "k", Value: fmt.Sprint("a", i)}, logRec{Offset: int64(2*i + 1), Value: fmt.Sprint("b", i)})
	}
	require.Greater(t, len(l.Segments()), 2, "1 KiB segments must have rolled")
	if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
		t.Fatalf("records (-want +got):\n%s", diff)
	}
	// Every batch carries the leader epoch, and the cache learned it at offset 0.
	data, err := l.Read(10, 1)
	require.NoError(t, err)
	h, err := ReadBatchHeader(data)
	require.NoError(t, err)
	require.Equal(t, int32(3), h.PartitionLeaderEpoch)
	require.Equal(t, []EpochEntry{{Epoch: 3, StartOffset: 0}}, l.LeaderEpochCache().Entries())
}

func TestReadReturnsWholeBatchesAndAtLeastOne(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), testConfig())
	b := valueBatch(1, "0123456789")
	for i := 0; i < 5; i++ {
		_, err := l.AppendAsLeader(append([]byte(nil), b...), 0, 0)
		require.NoError(t, err)
	}
	cases := []struct {
		offset   int64
		maxBytes int
		batches  int
	}{
		{0, 1, 1},            // at least one batch even if larger than maxBytes
		{0, len(b), 1},       // exactly one
		{0, 2*len(b) - 1, 1}, // no partial batch
		{0, 2 * len(b), 2},   // two
		{3, 100 * len(b), 2}, // to the end
		{4, 0, 1},            // the last one
		{5, 100, 0},          // at the LEO: nothing
	}
	for _, c := range cases {
		data, err := l.Read(c.offset, c.maxBytes)
		require.NoError(t, err)
		if got := len(data) / len(b); got != c.batches || len(data)%len(b) != 0 {
			t.Errorf("Read(%d, %d) returned %d bytes, want %d whole batches of %d", c.offset, c.maxBytes, len(data), c.batches, len(b))
		}
	}
	_, err := l.Read(6, 100)
	require.ErrorIs(t, err, ErrOffsetOutOfRange)
}

func TestReadUpToStopsBeforeHighWatermark(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), testConfig())
	for i := 0; i < 10; i++ {
		_, err := l.AppendAsLeader(valueBatch(1, "v"), 0, 0)
		require.NoError(t, err)
	}
	data, err := l.ReadUpTo(2, 1<<20, 5)
	require.NoError(t, err)
	var offsets []int64
	for p := 0; p < len(data); {
		h, n, err := CheckBatch(data[p:])
		require.NoError(t, err)
		offsets = append(offsets, h.BaseOffset)
		p += n
	}
	require.Equal(t, []int64{2, 3, 4}, offsets)
}

func TestAppendAsFollowerKeepsOffsetsAndRejectsOld(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), testConfig())
	b := encodeBatch(5, 1, kv{value: "x"}, kv{value: "y"})
	binaryPutEpoch(b, 7)
	_, err := l.AppendAsFollower(b, 0)
	require.NoError(t, err)
	require.Equal(t, int64(7), l.LogEndOffset())
	_, err = l.AppendAsFollower(encodeBatch(6, 1, kv{value: "z"}), 0)
	require.ErrorIs(t, err, ErrUnexpectedOffset)
	require.Equal(t, []EpochEntry{{Epoch: 7, StartOffset: 5}}, l.LeaderEpochCache().Entries())
}

func binaryPutEpoch(b []byte, epoch int32) {
	b[posLeaderEpoch], b[posLeaderEpoch+1], b[posLeaderEpoch+2], b[posLeaderEpoch+3] = byte(epoch>>24), byte(epoch>>16), byte(epoch>>8), byte(epoch)
}

func TestAppendRejectsBadInput(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes = 100
	l := openTestLog(t, vfs.NewMem(), cfg)
	good := valueBatch(1, "v")
	corrupt := append([]byte(nil), good...)
	corrupt[len(corrupt)-1] ^= 1
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrTruncated},
		{"crc", corrupt, ErrCorruptBatch},
		{"torn", good[:len(good)-3], ErrTruncated},
		{"too large", valueBatch(1, string(make([]byte, 200))), ErrRecordTooLarge},
		{"larger than a segment", bytes.Repeat(good, 1+int(cfg.SegmentBytes)/len(good)), ErrAppendTooLarge},
	}
	for _, c := range cases {
		_, err := l.AppendAsLeader(c.in, 0, 0)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	require.Equal(t, int64(0), l.LogEndOffset(), "nothing may be appended")
}

func TestCloseAndReopenClean(t *testing.T) {
	fsys := vfs.NewMem()
	l := openTestLog(t, fsys, testConfig())
	for i := 0; i < 30; i++ {
		_, err := l.AppendAsLeader(valueBatch(int64(100+i), fmt.Sprint("v", i)), 0, 0)
		require.NoError(t, err)
	}
	want := readAll(t, l)
	segs := len(l.Segments())
	require.NoError(t, l.Close())
	// A clean close trims every index to its entries.
	names, err := fsys.List("logs/topic-0")
	require.NoError(t, err)
	for _, n := range names {
		if _, suf, ok := ParseSegmentFileName(n); ok && (suf == IndexSuffix || suf == TimeIndexSuffix) {
			fi, err := fsys.Stat("logs/topic-0/" + n)
			require.NoError(t, err)
			require.Less(t, fi.Size(), int64(1000), "%s left preallocated", n)
		}
	}
	fsys.PowerCut(nil) // everything was synced by Close
	l = openTestLog(t, fsys, testConfig(), WithCleanShutdown(), WithRecoveryPoint(0))
	require.Equal(t, 0, l.RecoveryReport().SegmentsRecovered)
	require.Equal(t, segs, len(l.Segments()))
	require.Equal(t, int64(30), l.RecoveryPoint())
	if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
		t.Fatalf("records after clean reopen (-want +got):\n%s", diff)
	}
}

func TestTruncateTo(t *testing.T) {
	fsys := vfs.NewMem()
	l := openTestLog(t, fsys, testConfig())
	for i := 0; i < 30; i++ {
		_, err := l.AppendAsLeader(valueBatch(int64(i), fmt.Sprint("v", i)), int32(i/10), 0)
		require.NoError(t, err)
	}
	require.NoError(t, l.TruncateTo(12, 0))
	require.Equal(t, int64(12), l.LogEndOffset())
	got := readAll(t, l)
	require.Len(t, got, 12)
	require.Equal(t, int64(11), got[11].Offset)
	require.Equal(t, []EpochEntry{{0, 0}, {1, 10}}, l.LeaderEpochCache().Entries())
	// Appending continues at 12, and the truncation survives a power cut.
	_, err := l.AppendAsLeader(valueBatch(99, "new"), 2, 0)
	require.NoError(t, err)
	require.NoError(t, l.Flush(l.LogEndOffset()))
	fsys.PowerCut(nil)
	l = openTestLog(t, fsys, testConfig(), WithRecoveryPoint(0))
	got = readAll(t, l)
	require.Len(t, got, 13)
	require.Equal(t, logRec{Offset: 12, Value: "new"}, got[12])
}

// 30 rounds of appending two batches and truncating to the second.
func TestSegmentTruncateRounds(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), testConfig())
	for o := int64(0); o < 30; o++ {
		_, err := l.AppendAsFollower(encodeBatch(o, 1, kv{value: "hello"}), 0)
		require.NoError(t, err)
		_, err = l.AppendAsFollower(encodeBatch(o+1, 1, kv{value: "hello"}), 0)
		require.NoError(t, err)
		require.NoError(t, l.TruncateTo(o+1, 0))
		data, err := l.Read(o, 1<<20)
		require.NoError(t, err)
		h, n, err := CheckBatch(data)
		require.NoError(t, err)
		require.Equal(t, len(data), n, "round %d: only the first batch remains", o)
		require.Equal(t, o, h.BaseOffset)
	}
}

func TestOffsetForTimestamp(t *testing.T) {
	// On a log: batches at offsets 40..49 with timestamps 10*i.
	cfg := testConfig()
	l := openTestLog(t, vfs.NewMem(), cfg)
	require.NoError(t, l.TruncateFullyAndStartAt(40, 0))
	for i := int64(40); i < 50; i++ {
		_, err := l.AppendAsLeader(valueBatch(10*i, "x"), 0, 0)
		require.NoError(t, err)
	}
	cases := []struct {
		ts     int64
		offset int64
		ok     bool
	}{{420, 42, true}, {421, 43, true}, {430, 43, true}, {431, 44, true}, {491, 0, false}, {401, 41, true}, {399, 40, true}}
	for _, c := range cases {
		off, _, ok, err := l.OffsetForTimestamp(c.ts)
		require.NoError(t, err)
		if ok != c.ok || (ok && off != c.offset) {
			t.Errorf("OffsetForTimestamp(%d) = %d, %v; want %d, %v", c.ts, off, ok, c.offset, c.ok)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	require.NoError(t, DefaultConfig().Validate())
	bad := []func(*Config){
		func(c *Config) { c.SegmentBytes = 13 },
		func(c *Config) { c.RetentionMs = -2 },
		func(c *Config) { c.CleanupPolicy = "forever" },
		func(c *Config) { c.MinCleanableDirtyRatio = 1.5 },
		func(c *Config) { c.SegmentIndexBytes = 4 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		require.ErrorIs(t, c.Validate(), ErrInvalidConfig, "case %d", i)
	}
	c := DefaultConfig()
	c.CleanupPolicy = "compact,delete"
	require.True(t, c.Compact() && c.Delete())
}

// Compacted is Config().Compact(), from the open and after SetConfig.
func TestCompactedIsTheConfigsCleanupPolicy(t *testing.T) {
	for _, tc := range []struct {
		open, set string
		want      [2]bool
	}{
		{open: CleanupPolicyDelete, set: CleanupPolicyCompact, want: [2]bool{false, true}},
		{open: CleanupPolicyCompact, set: CleanupPolicyDelete, want: [2]bool{true, false}},
		{open: "compact,delete", set: "delete,compact", want: [2]bool{true, true}},
	} {
		cfg := testConfig()
		cfg.CleanupPolicy = tc.open
		l := openTestLog(t, vfs.NewMem(), cfg)
		got := [2]bool{l.Compacted()}
		cfg.CleanupPolicy = tc.set
		require.NoError(t, l.SetConfig(cfg))
		got[1] = l.Compacted()
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("cleanup.policy %q then %q: Compacted (-want +got):\n%s", tc.open, tc.set, diff)
		}
		require.Equal(t, l.Config().Compact(), l.Compacted())
	}
}

// Several small batches in one append call reach the .log in one write.
func TestAppendCoalescesIntoOneWrite(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	l := openTestLog(t, fsys, cfg)
	var set []byte
	for i := 0; i < 8; i++ {
		set = append(set, valueBatch(int64(i), "small")...)
	}
	logWrites := 0
	fsys.SetHook(func(op vfs.Op) error {
		if op.Kind == vfs.OpWrite && op.Name == segPath(0, LogSuffix) {
			logWrites++
		}
		return nil
	})
	info, err := l.AppendAsLeader(set, 0, 0)
	require.NoError(t, err)
	require.Equal(t, 8, info.Batches)
	require.Equal(t, int64(7), info.LastOffset)
	require.Equal(t, 1, logWrites)
}

// With message.timestamp.type=LogAppendTime the leader stamps its clock and the CRC
// still holds.
func TestAppendLogAppendTime(t *testing.T) {
	cfg := testConfig()
	cfg.MessageTimestampType = LogAppendTime
	l := openTestLog(t, vfs.NewMem(), cfg)
	info, err := l.AppendAsLeader(valueBatch(5, "v"), 0, 12345)
	require.NoError(t, err)
	require.Equal(t, int64(12345), info.LogAppendTime)
	data, err := l.Read(0, 100)
	require.NoError(t, err)
	b, _, err := ReadBatch(data)
	require.NoError(t, err)
	require.Equal(t, LogAppendTime, b.Attributes.TimestampType())
	require.Equal(t, int64(12345), b.Timestamp(&b.Records[0]))
}

// A partition log on an in-memory file system: append as leader, fetch, flush, lose
// the power, recover.
func Example_partitionLog() {
	fsys := vfs.NewMem()
	l, _ := Open(fsys, "logs/orders-0", DefaultConfig(), 0)
	for i, v := range []string{"placed", "paid", "shipped"} {
		if i == 2 {
			_ = l.Flush(l.LogEndOffset()) // offsets 0 and 1 become durable
		}
		info, _ := l.AppendAsLeader(encodeBatch(0, 1000, kv{key: "order-1", value: v}), 0, 1000)
		fmt.Println("appended at", info.FirstOffset)
	}
	fsys.PowerCut(func(string, int64, int64) int64 { return 10 }) // the unsynced write is torn
	l, _ = Open(fsys, "logs/orders-0", DefaultConfig(), 0, WithRecoveryPoint(2))
	r := l.RecoveryReport()
	fmt.Println("cut:", r.Truncations[0].Bytes, "bytes,", r.Truncations[0].Reason)
	data, _ := l.Read(0, 1<<20)
	for len(data) > 0 {
		b, n, _ := ReadBatch(data)
		fmt.Printf("offset %d: %s\n", b.BaseOffset, b.Records[0].Value)
		data = data[n:]
	}
	fmt.Println("log end offset", l.LogEndOffset())
	// Output:
	// appended at 0
	// appended at 1
	// appended at 2
	// cut: 10 bytes, torn tail
	// offset 0: placed
	// offset 1: paid
	// log end offset 2
}

// Flush fsyncs each file at most once, only the segments above the recovery point, and
// nothing when nothing changed.
func TestFlushSyncsEachFileOnce(t *testing.T) {
	fsys := vfs.NewMem()
	l := openTestLog(t, fsys, testConfig())
	for i := 0; i < 40; i++ {
		appendLeader(t, l, valueBatch(int64(i), "v"), 0)
	}
	require.Greater(t, len(l.Segments()), 2)
	syncs := map[string]int{}
	fsys.SetHook(func(op vfs.Op) error {
		if op.Kind == vfs.OpSync || op.Kind == vfs.OpSyncDir {
			syncs[op.Name]++
		}
		return nil
	})
	require.NoError(t, l.Flush(l.LogEndOffset()))
	for name, n := range syncs {
		require.Equal(t, 1, n, "%s synced %d times", name, n)
	}
	active := l.Segments()[len(l.Segments())-1].BaseOffset()
	require.Contains(t, syncs, segPath(active, LogSuffix))
	for _, s := range l.Segments()[:len(l.Segments())-2] {
		require.NotContains(t, syncs, segPath(s.BaseOffset(), LogSuffix), "segment %d was flushed by its roll", s.BaseOffset())
	}
	clear(syncs)
	require.NoError(t, l.Flush(l.LogEndOffset()))
	require.Empty(t, syncs, "nothing new to flush")
}

func TestListOffset(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), testConfig())
	for i := int64(0); i < 6; i++ {
		appendLeader(t, l, valueBatch(100*i, "v"), 0)
	}
	_, err := l.DeleteRecords(2, 6)
	require.NoError(t, err)
	cases := []struct {
		ts     int64
		offset int64
		ok     bool
	}{{ListOffsetsLatest, 6, true}, {ListOffsetsEarliest, 2, true}, {0, 2, true}, {250, 3, true}, {500, 5, true}, {501, 0, false}, {-3, 0, false}}
	for _, c := range cases {
		off, ok, err := l.ListOffset(c.ts)
		require.NoError(t, err)
		if ok != c.ok || (ok && off != c.offset) {
			t.Errorf("ListOffset(%d) = %d, %v; want %d, %v", c.ts, off, ok, c.offset, c.ok)
		}
	}
}

// An append records every batch's leader epoch as Kafka 2.1 and later do
// (UnifiedLog.append, LeaderEpochFileCache.assign): an epoch below the
// latest, which a follower meets when it fetches a batch whose epoch field
// was damaged on its leader (the field is outside the CRC), removes the
// entries it contradicts. With WithOnlyNewerEpochsOnAppend, as 0.11 to 2.0
// did, it is ignored.
func TestAppendEpochRuleByVersion(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		want []EpochEntry
	}{
		{"2.1 and later", nil, []EpochEntry{{0, 0}, {1, 2}}},
		{"0.11 to 2.0", []Option{WithOnlyNewerEpochsOnAppend()}, []EpochEntry{{0, 0}, {2, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Open(vfs.NewMem(), testDir, testConfig(), 0, tc.opts...)
			require.NoError(t, err)
			for i, epoch := range []int32{0, 2, 1} {
				b := encodeBatch(int64(i), 0, kv{value: "v"})
				binaryPutEpoch(b, epoch)
				_, err := l.AppendAsFollower(b, 0)
				require.NoError(t, err)
			}
			require.Equal(t, tc.want, l.LeaderEpochCache().Entries())
		})
	}
}

// TestSetConfigAppliesFromTheNextAppendAndCheck: a log's configs changed
// while it is open (UnifiedLog.updateConfig) apply from the next append
// (a smaller segment.bytes rolls, refuses a batch no segment can hold)
// and the next retention check (a retention.bytes deletes segments); a
// config Validate refuses changes nothing.
func TestSetConfigAppliesFromTheNextAppendAndCheck(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	l := openTestLog(t, fsys, cfg)
	for i := range 20 {
		_, err := l.AppendAsLeader(valueBatch(int64(i), strings.Repeat("v", 100)), 0, 0)
		require.NoError(t, err)
	}
	require.Len(t, segmentBases(l), 1, "one segment under 1 MiB")

	bad := cfg
	bad.RetentionMs = -5
	require.ErrorIs(t, l.SetConfig(bad), ErrInvalidConfig)
	require.Equal(t, cfg, l.Config(), "a refused config changes nothing")

	small := cfg
	small.SegmentBytes, small.RetentionBytes = 500, 1000
	require.NoError(t, l.SetConfig(small))
	_, err := l.AppendAsLeader(valueBatch(20, strings.Repeat("v", 100)), 0, 0)
	require.NoError(t, err)
	require.Len(t, segmentBases(l), 2, "the next append rolls the segment past the new segment.bytes")
	_, err = l.AppendAsLeader(valueBatch(21, strings.Repeat("w", 600)), 0, 0)
	require.ErrorIs(t, err, ErrAppendTooLarge, "a batch no 500-byte segment can hold")

	for i := range 10 {
		_, err := l.AppendAsLeader(valueBatch(int64(22+i), strings.Repeat("v", 100)), 0, 0)
		require.NoError(t, err)
	}
	deleted, err := l.DeleteOldSegments(l.LogEndOffset(), 100)
	require.NoError(t, err)
	require.NotEmpty(t, deleted, "retention.bytes 1000 deletes the oldest segments")
	require.Positive(t, l.LogStartOffset())
}
