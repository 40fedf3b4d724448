package kafkalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/internal/fixtures"
	"github.com/stretchr/testify/require"
)

// sharedFixtures returns the directory of fixture set set, named by
// KAFKALIVE_EXTRA_FIXTURES (see internal/fixtures), or skips the test:
// those sets come from repositories without a licence and are not
// redistributed with ours.
func sharedFixtures(t *testing.T, set string) string {
	t.Helper()
	return fixtures.Dir(t, set)
}

// logFacts is what the fixtures README tables state per partition log.
type logFacts struct {
	Bytes, Batches, Records int
	FirstOffset, LastOffset int64
}

func factsOf(t *testing.T, path string) (logFacts, fixtureLog) {
	st, err := os.Stat(path)
	require.NoError(t, err)
	l := decodeLog(t, path)
	f := logFacts{Bytes: int(st.Size()), Batches: len(l.Entries), Records: len(l.Records), FirstOffset: -1, LastOffset: -1}
	if len(l.Records) > 0 {
		f.FirstOffset, f.LastOffset = l.Records[0].Offset, l.Records[len(l.Records)-1].Offset
	}
	return f, l
}

// TestVolodymyrzeeFixtures decodes a Kafka ≈2.4 broker's log directory (clean
// shutdown, April 2020).
func TestVolodymyrzeeFixtures(t *testing.T) {
	dir := sharedFixtures(t, "volodymyrzee-kafka")
	tests := []struct {
		partition string
		want      logFacts
		nullKeys  bool
		tombs     int
	}{
		{"__consumer_offsets-12", logFacts{45702, 162, 470, 0, 469}, false, 0},
		{"__consumer_offsets-18", logFacts{57161, 277, 499, 0, 498}, false, 0},
		{"__consumer_offsets-32", logFacts{5058, 18, 50, 0, 49}, false, 0},
		{"__consumer_offsets-17", logFacts{630, 3, 3, 0, 2}, false, 1},
		{"first_topic-0", logFacts{804, 10, 11, 0, 10}, true, 0},
		{"first_topic-1", logFacts{971, 12, 12, 0, 11}, true, 0},
		{"first_topic-2", logFacts{1267, 16, 18, 0, 17}, true, 0},
		{"new_topic-0", logFacts{189, 2, 2, 0, 1}, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.partition, func(t *testing.T) {
			got, l := factsOf(t, filepath.Join(dir, tc.partition, "00000000000000000000.log"))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			tombs := 0
			for i, r := range l.Records {
				if r.Offset != int64(i) || r.Magic != MagicV2 || r.Codec != CompressionNone || r.TSType != CreateTime {
					t.Errorf("record %d: offset %d magic %d %v %v, want offset %d, v2, none, CreateTime", i, r.Offset, r.Magic, r.Codec, r.TSType, i)
				}
				if tc.nullKeys != (r.Key == nil) {
					t.Errorf("offset %d: key %q, null keys expected: %v", r.Offset, r.Key, tc.nullKeys)
				}
				if r.Value == nil {
					tombs++
				}
			}
			if tombs != tc.tombs {
				t.Errorf("%d tombstones, want %d", tombs, tc.tombs)
			}
			// The README says baseSequence -1 throughout, but the group
			// coordinator's offset-commit batches in __consumer_offsets carry
			// baseSequence 0 with producerId -1 (as in donaldy's cleaned segment).
			for _, e := range l.Entries {
				h := e.Header
				seqOK := h.BaseSequence == NoSequence || (h.BaseSequence == 0 && !tc.nullKeys)
				if h.PartitionLeaderEpoch != 0 || h.ProducerID != -1 || h.ProducerEpoch != -1 || !seqOK {
					t.Errorf("batch at %d: epoch %d pid %d producer epoch %d sequence %d, want 0 -1 -1 -1", e.Pos, h.PartitionLeaderEpoch, h.ProducerID, h.ProducerEpoch, h.BaseSequence)
				}
			}
		})
	}
	_, l := factsOf(t, filepath.Join(dir, "first_topic-0", "00000000000000000000.log"))
	first := l.Records[0]
	if string(first.Value) != "just for fun" || first.Timestamp != 1587576892921 {
		t.Errorf("first_topic-0 offset 0: %q at %d, want \"just for fun\" at 1587576892921", first.Value, first.Timestamp)
	}
	if h := l.Entries[7].Header; h.BaseOffset != 7 || h.LastOffset() != 8 || h.NumRecords != 2 {
		t.Errorf("first_topic-0 batch 7: %d..%d with %d records, want 7..8 with 2", h.BaseOffset, h.LastOffset(), h.NumRecords)
	}
	_, l = factsOf(t, filepath.Join(dir, "__consumer_offsets-12", "00000000000000000000.log"))
	if a, b := l.Records[0].Timestamp, l.Records[len(l.Records)-1].Timestamp; a != 1587580798823 || b != 1587581641137 {
		t.Errorf("__consumer_offsets-12 timestamps %d..%d, want 1587580798823..1587581641137", a, b)
	}
	_, l = factsOf(t, filepath.Join(dir, "new_topic-0", "00000000000000000000.log"))
	values := []string{string(l.Records[0].Value), string(l.Records[1].Value)}
	if diff := cmp.Diff([]string{"this is test message that doesnt exist", "another message"}, values); diff != "" {
		t.Errorf("new_topic-0 values (-want +got):\n%s", diff)
	}
}

// TestKRaftFixtures decodes a KRaft broker's metadata log (a LEADER_CHANGE
// control batch first), idempotent producers, and the bootstrap checkpoint.
func TestKRaftFixtures(t *testing.T) {
	dir := sharedFixtures(t, "niloufar-ldi-poc-kraft")
	meta, l := factsOf(t, filepath.Join(dir, "__cluster_metadata-0", "00000000000000000000.log"))
	if diff := cmp.Diff(logFacts{353439, 4814, 4929, 0, 4928}, meta); diff != "" {
		t.Errorf("__cluster_metadata-0 (-want +got):\n%s", diff)
	}
	for i, e := range l.Entries {
		if e.Header.PartitionLeaderEpoch != 1 || e.Header.Attributes.Compression() != CompressionNone {
			t.Fatalf("metadata batch %d at %d: epoch %d, %v; want epoch 1, uncompressed", i, e.Pos, e.Header.PartitionLeaderEpoch, e.Header.Attributes.Compression())
		}
	}
	for i, r := range l.Records {
		if r.Offset != int64(i) || (!r.Control && r.Key != nil) {
			t.Fatalf("metadata record %d: offset %d key %x; want offset %d and a null key", i, r.Offset, r.Key, i)
		}
	}
	requireLeaderChangeFirst(t, l)

	type producer struct {
		ProducerID    int64
		ProducerEpoch int16
		BaseSequence  int32
	}
	patient, l := factsOf(t, filepath.Join(dir, "TestTopicPatient-0", "00000000000000000000.log"))
	var producers []producer
	for _, e := range l.Entries {
		producers = append(producers, producer{e.Header.ProducerID, e.Header.ProducerEpoch, e.Header.BaseSequence})
	}
	for _, r := range l.Records {
		if r.Key != nil {
			t.Errorf("TestTopicPatient-0 offset %d has key %q, want null", r.Offset, r.Key)
		}
	}
	if diff := cmp.Diff([]any{logFacts{3271, 3, 3, 0, 2}, []producer{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}}}, []any{patient, producers}); diff != "" {
		t.Errorf("TestTopicPatient-0 (-want +got):\n%s", diff)
	}
	offsets, _ := factsOf(t, filepath.Join(dir, "__consumer_offsets-6", "00000000000000000000.log"))
	if diff := cmp.Diff(logFacts{13751, 13, 13, 0, 12}, offsets); diff != "" {
		t.Errorf("__consumer_offsets-6 (-want +got):\n%s", diff)
	}
	empty, _ := factsOf(t, filepath.Join(dir, "Retry.TestTopicPatient-0", "00000000000000000000.log"))
	if diff := cmp.Diff(logFacts{0, 0, 0, -1, -1}, empty); diff != "" {
		t.Errorf("Retry.TestTopicPatient-0 (-want +got):\n%s", diff)
	}
	_, l = factsOf(t, filepath.Join(dir, "bootstrap.checkpoint"))
	if len(l.Entries) == 0 || l.Entries[0].Header.Attributes != 0x0020 {
		t.Errorf("bootstrap.checkpoint: first batch is not a control batch with attributes 0x0020")
	}
}

func requireLeaderChangeFirst(t *testing.T, l fixtureLog) {
	t.Helper()
	first := l.Entries[0].Header
	require.Equal(t, Attributes(0x0020), first.Attributes, "first metadata batch is a control batch")
	require.True(t, l.Records[0].Control)
	key, err := ParseControlRecordKey(l.Records[0].Key)
	require.NoError(t, err)
	if diff := cmp.Diff(ControlRecordKey{Version: 0, Type: ControlLeaderChange, TypeID: 2}, key); diff != "" {
		t.Errorf("first metadata record's control key (-want +got):\n%s", diff)
	}
}
