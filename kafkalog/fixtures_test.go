package kafkalog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// fixtureRecord is one record of a real log as a reader sees it.
type fixtureRecord struct {
	Entry     int  // index of the batch or legacy message holding it
	Magic     int8 // format of that entry
	Codec     Compression
	Offset    int64
	Timestamp int64
	TSType    TimestampType
	Key       []byte
	Value     []byte
	Headers   int
	Control   bool
}

// fixtureLog is a decoded .log file: its entries (batches or legacy messages)
// and every record in offset order.
type fixtureLog struct {
	Entries []LogEntry
	Records []fixtureRecord
}

// decodeLog walks a whole log with BatchIter, checks every entry's CRC and
// decodes every record, unwrapping compressed legacy messages. Any error, and a
// torn tail, fail the test.
func decodeLog(t *testing.T, path string) fixtureLog {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out fixtureLog
	var d Decoder
	var b RecordBatch
	it := NewBatchIter(data, 0)
	for it.Next() {
		e := *it.Entry()
		require.NoError(t, e.Check(), "%s: entry %d", path, len(out.Entries))
		i := len(out.Entries)
		out.Entries = append(out.Entries, e)
		if e.Magic == MagicV2 {
			_, err := d.Decode(e.Bytes, &b)
			require.NoError(t, err, "%s: batch %d at %d", path, i, e.Pos)
			for j := range b.Records {
				r := &b.Records[j]
				out.Records = append(out.Records, fixtureRecord{i, 2, b.Attributes.Compression(), b.Offset(r), b.Timestamp(r),
					b.Attributes.TimestampType(), bytes.Clone(r.Key), bytes.Clone(r.Value), len(r.Headers), b.Attributes.IsControl()})
			}
			continue
		}
		inner, err := DecompressLegacy(&e.Legacy, nil, 0)
		require.NoError(t, err, "%s: legacy message %d at %d", path, i, e.Pos)
		for _, m := range inner {
			out.Records = append(out.Records, fixtureRecord{i, m.Magic, e.Legacy.Compression(), m.Offset, m.Timestamp,
				m.TimestampType(), m.Key, m.Value, 0, false})
		}
	}
	require.NoError(t, it.Err(), path)
	torn, pos, n := it.TornTail()
	require.False(t, torn, "%s: torn tail of %d bytes at %d", path, n, pos)
	return out
}

// fixtureSummary is what the fixtures README states about a log.
type fixtureSummary struct {
	Shape      []string // per entry: "v2", "v2 gzip", "v1", "v1 gzip"...
	Offsets    []int64
	Keys       []string // "" for a null key; omitted (nil) where keys are binary
	Tombstones []int64  // offsets of records with a null value
}

func summarizeFixture(l fixtureLog, keys bool) fixtureSummary {
	var s fixtureSummary
	for _, e := range l.Entries {
		shape := fmt.Sprintf("v%d", e.Magic)
		c := e.Legacy.Compression()
		if e.Magic == MagicV2 {
			c = e.Header.Attributes.Compression()
		}
		if c != CompressionNone {
			shape += " " + c.String()
		}
		s.Shape = append(s.Shape, shape)
	}
	for _, r := range l.Records {
		s.Offsets = append(s.Offsets, r.Offset)
		if keys {
			s.Keys = append(s.Keys, string(r.Key))
		}
		if r.Value == nil {
			s.Tombstones = append(s.Tombstones, r.Offset)
		}
	}
	return s
}

func fixtureOffsets(from, to int64) []int64 {
	var s []int64
	for o := from; o <= to; o++ {
		s = append(s, o)
	}
	return s
}

func fixtureShapes(s string, n int) []string {
	var out []string
	for range n {
		out = append(out, s)
	}
	return out
}

// segmentioValue is the value kafka-go's fixtures give each key.
func segmentioValue(key string) string {
	letter := map[string]string{"alpha": "a", "beta": "b", "gamma": "c", "delta": "d", "epsilon": "e", "zeta": "f", "eta": "g", "theta": "h"}[key]
	return `{"count":0,"filler":"` + strings.Repeat(letter, 10) + `"}`
}

// TestSegmentioFixtures decodes kafka-go's Fetch v10 record sets, which mix
// magic 1, magic 1 gzip wrappers, v2 and v2 gzip in one partition.
func TestSegmentioFixtures(t *testing.T) {
	tests := []struct {
		file string
		want fixtureSummary
	}{
		{"v2-v2", fixtureSummary{Shape: fixtureShapes("v2", 2), Offsets: fixtureOffsets(0, 3), Keys: []string{"alpha", "beta", "gamma", "delta"}}},
		{"v2c-v2c", fixtureSummary{Shape: fixtureShapes("v2 gzip", 2), Offsets: fixtureOffsets(0, 3), Keys: []string{"alpha", "beta", "gamma", "delta"}}},
		{"v2c-v2-v2c", fixtureSummary{Shape: []string{"v2 gzip", "v2", "v2 gzip"}, Offsets: fixtureOffsets(0, 5),
			Keys: []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}}},
		{"v2bc-v1-v1c", fixtureSummary{Shape: []string{"v2 gzip", "v1", "v1", "v1 gzip"}, Offsets: fixtureOffsets(0, 5),
			Keys: []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}}},
		{"v1c-v1c", fixtureSummary{Shape: fixtureShapes("v1 gzip", 3), Offsets: fixtureOffsets(0, 3), Keys: []string{"alpha", "beta", "gamma", "delta"}}},
		{"v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc", fixtureSummary{
			Shape:   []string{"v1", "v1", "v1 gzip", "v1 gzip", "v2", "v2", "v2 gzip", "v2 gzip", "v2", "v2 gzip", "v2", "v2 gzip", "v1", "v1", "v1 gzip"},
			Offsets: fixtureOffsets(0, 19),
			Keys: []string{"alpha", "beta", "alpha", "beta", "gamma", "delta", "gamma", "delta", "epsilon", "zeta",
				"epsilon", "zeta", "eta", "theta", "eta", "theta", "eta", "theta", "eta", "theta"}}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			l := decodeLog(t, filepath.Join("testdata", "kafka-real", "segmentio-kafka-go-fetch", tc.file+".records.log"))
			if diff := cmp.Diff(tc.want, summarizeFixture(l, true)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for _, r := range l.Records {
				if want := segmentioValue(string(r.Key)); string(r.Value) != want || r.TSType != CreateTime {
					t.Errorf("offset %d: value %q %v, want %q CreateTime", r.Offset, r.Value, r.TSType, want)
				}
			}
		})
	}
	// The v1 wrapper at offset 19 holds 18 and 19 (its offset is the last inner one).
	l := decodeLog(t, filepath.Join("testdata", "kafka-real", "segmentio-kafka-go-fetch", "v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc.records.log"))
	last := l.Entries[len(l.Entries)-1]
	if last.Legacy.Offset != 19 || last.LastOffset() != 19 || l.Records[18].Entry != 14 || l.Records[19].Entry != 14 {
		t.Errorf("wrapper offset %d holds entries %d and %d, want 19 holding offsets 18 and 19", last.Legacy.Offset, l.Records[18].Entry, l.Records[19].Entry)
	}
}

// TestKafkaJSFixtures decodes KafkaJS's captured fetch responses: raw (not
// xerial) snappy, gzip, headers, a Scala producer, and gzip + LogAppendTime.
func TestKafkaJSFixtures(t *testing.T) {
	dir := filepath.Join("testdata", "kafka-real", "kafkajs-fetch")
	type batchFacts struct {
		Attributes                 Attributes
		BaseTimestamp, MaxTimestmp int64
		ProducerID                 int64
		ProducerEpoch              int16
		BaseSequence               int32
	}
	tests := []struct {
		file       string
		want       fixtureSummary
		first      batchFacts
		timestamps []int64
		headers    []int
		values     []string
	}{
		{"requests_fetch_v4_response_snappy", fixtureSummary{Shape: []string{"v2 snappy"}, Offsets: fixtureOffsets(0, 0), Keys: []string{"key-149"}},
			batchFacts{0x0002, 1549293228209, 1549293228209, -1, 0, 0}, []int64{1549293228209}, []int{0},
			[]string{"value-149-2019-02-04T15:13:48.187Z"}},
		{"requests_fetch_v4_response_gzip", fixtureSummary{Shape: fixtureShapes("v2 gzip", 2), Offsets: fixtureOffsets(0, 5),
			Keys: []string{"key-0", "key-1", "key-2", "key-1", "key-2", "key-3"}},
			batchFacts{0x0001, 1509827900073, 1509827900073, -1, 0, 0}, fixtureStamps(1509827900073, 6), make([]int, 6), nil},
		{"requests_fetch_v4_response", fixtureSummary{Shape: []string{"v2"}, Offsets: fixtureOffsets(0, 2), Keys: []string{"key-0", "key-1", "key-2"}},
			batchFacts{0, 1509827900073, 1509827900073, -1, 0, 0}, fixtureStamps(1509827900073, 3), []int{1, 1, 1},
			[]string{"some-value-0", "some-value-1", "some-value-2"}},
		{"requests_fetch_v4_from_scala_producer_response", fixtureSummary{Shape: fixtureShapes("v2", 6), Offsets: fixtureOffsets(0, 5),
			Keys: []string{"KEY-1", "KEY-2", "KEY-3", "KEY-4", "KEY-5", "KEY-6"}},
			batchFacts{0, 1539644731680, 1539644731680, -1, -1, -1},
			[]int64{1539644731680, 1539644732194, 1539644732699, 1539644733203, 1539644733708, 1539644734213}, make([]int, 6),
			[]string{"VALUE-Lorem ipsum dolor sit amet-1", "VALUE-Lorem ipsum dolor sit amet-2", "VALUE-Lorem ipsum dolor sit amet-3",
				"VALUE-Lorem ipsum dolor sit amet-4", "VALUE-Lorem ipsum dolor sit amet-5", "VALUE-Lorem ipsum dolor sit amet-6"}},
		{"recordBatch_v0_recordbatch", fixtureSummary{Shape: []string{"v2 gzip"}, Offsets: fixtureOffsets(0, 0), Keys: []string{"key-0"}},
			batchFacts{0x0009, 1597425188775, 1597425188809, -1, 0, 0}, []int64{1597425188809}, []int{0},
			[]string{"value-0-2020-08-14T17:13:08.682Z"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			l := decodeLog(t, filepath.Join(dir, tc.file+".records.log"))
			if diff := cmp.Diff(tc.want, summarizeFixture(l, true)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			h := l.Entries[0].Header
			if diff := cmp.Diff(tc.first, batchFacts{h.Attributes, h.BaseTimestamp, h.MaxTimestamp, h.ProducerID, h.ProducerEpoch, h.BaseSequence}); diff != "" {
				t.Errorf("first batch (-want +got):\n%s", diff)
			}
			var stamps []int64
			var headers []int
			var values []string
			for _, r := range l.Records {
				stamps, headers, values = append(stamps, r.Timestamp), append(headers, r.Headers), append(values, string(r.Value))
			}
			if tc.values == nil {
				values = nil
			}
			if diff := cmp.Diff([]any{tc.timestamps, tc.headers, tc.values}, []any{stamps, headers, values}); diff != "" {
				t.Errorf("timestamps, header counts, values (-want +got):\n%s", diff)
			}
		})
	}
	raw, err := os.ReadFile(filepath.Join(dir, "requests_fetch_v4_response_snappy.records.log"))
	require.NoError(t, err)
	if bytes.HasPrefix(raw[BatchHeaderLen:], xerialMagic) {
		t.Errorf("the snappy fixture was meant to hold a raw snappy block, not xerial framing")
	}
}

func fixtureStamps(v int64, n int) []int64 {
	var out []int64
	for range n {
		out = append(out, v)
	}
	return out
}

// TestDonaldyFixtures decodes a Kafka 2.7.1 log directory where compaction
// left offset gaps and tombstones, and retention left empty segments.
func TestDonaldyFixtures(t *testing.T) {
	dir := filepath.Join("testdata", "kafka-real", "donaldy-kafka-2.7.1")
	tests := []struct {
		file string
		want fixtureSummary
	}{
		{"__consumer_offsets-39/00000000000000000000.log", fixtureSummary{Shape: fixtureShapes("v2", 3), Offsets: []int64{4, 16, 17}, Tombstones: []int64{4}}},
		{"__consumer_offsets-39/00000000000000000018.log", fixtureSummary{Shape: []string{"v2"}, Offsets: fixtureOffsets(18, 19), Tombstones: fixtureOffsets(18, 19)}},
		{"__consumer_offsets-17/00000000000000000000.log", fixtureSummary{Shape: []string{"v2"}, Offsets: fixtureOffsets(0, 0)}},
		{"__consumer_offsets-17/00000000000000000001.log", fixtureSummary{Shape: fixtureShapes("v2", 2), Offsets: fixtureOffsets(1, 2), Tombstones: []int64{2}}},
		{"__consumer_offsets-28/00000000000000000000.log", fixtureSummary{Shape: []string{"v2"}, Offsets: []int64{1}}},
		{"__consumer_offsets-28/00000000000000000002.log", fixtureSummary{Shape: []string{"v2"}, Offsets: []int64{2}, Tombstones: []int64{2}}},
		{"__consumer_offsets-8/00000000000000000000.log", fixtureSummary{Shape: fixtureShapes("v2", 3), Offsets: fixtureOffsets(0, 2), Tombstones: []int64{2}}},
		{"__consumer_offsets-33/00000000000000000000.log", fixtureSummary{Shape: fixtureShapes("v2", 3), Offsets: fixtureOffsets(0, 2), Tombstones: []int64{2}}},
		{"myTopic-0/00000000000000000038.log", fixtureSummary{}},
		{"test_topic-0/00000000000000000012.log", fixtureSummary{}},
		{"test_topic_0603-0/00000000000000000009.log", fixtureSummary{}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			l := decodeLog(t, filepath.Join(dir, tc.file))
			if diff := cmp.Diff(tc.want, summarizeFixture(l, false)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for _, e := range l.Entries {
				if e.Header.PartitionLeaderEpoch != 0 || e.Header.ProducerID != NoProducerID {
					t.Errorf("batch at %d: epoch %d pid %d, want 0 and -1", e.Pos, e.Header.PartitionLeaderEpoch, e.Header.ProducerID)
				}
			}
		})
	}
	l := decodeLog(t, filepath.Join(dir, "__consumer_offsets-39/00000000000000000000.log"))
	if h := l.Entries[1].Header; h.BaseOffset != 16 || h.BaseSequence != 0 || h.ProducerID != NoProducerID {
		t.Errorf("batch 16 of the cleaned segment: base %d sequence %d pid %d, want 16, 0, -1", h.BaseOffset, h.BaseSequence, h.ProducerID)
	}
}
