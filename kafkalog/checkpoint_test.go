package kafkalog

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/vfs"
)

func TestOffsetCheckpointRoundTrip(t *testing.T) {
	// J1: write then read gives the same map; the text is Kafka's.
	fsys := vfs.NewMem()
	require.NoError(t, fsys.MkdirAll("data", 0o755))
	want := map[TopicPartition]int64{{"foo", 1}: 5, {"bar", 2}: 10}
	require.NoError(t, WriteOffsetCheckpoint(fsys, "data/recovery-point-offset-checkpoint", want))
	got, err := ReadOffsetCheckpoint(fsys, "data/recovery-point-offset-checkpoint")
	require.NoError(t, err)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, err := readWholeFile(fsys, "data/recovery-point-offset-checkpoint")
	require.NoError(t, err)
	require.Equal(t, "0\n2\nbar 2 10\nfoo 1 5\n", string(b))
	names, err := fsys.List("data")
	require.NoError(t, err)
	require.Equal(t, []string{"recovery-point-offset-checkpoint"}, names, "the .tmp file is renamed away")
}

func TestOffsetCheckpointSurvivesPowerCut(t *testing.T) {
	fsys := vfs.NewMem()
	require.NoError(t, fsys.MkdirAll("data", 0o755))
	require.NoError(t, fsys.SyncDir("."))
	require.NoError(t, WriteOffsetCheckpoint(fsys, "data/c", map[TopicPartition]int64{{"t", 0}: 7}))
	fsys.PowerCut(func(string, int64, int64) int64 { return 0 }) // keep nothing unsynced
	got, err := ReadOffsetCheckpoint(fsys, "data/c")
	require.NoError(t, err)
	require.Equal(t, map[TopicPartition]int64{{"t", 0}: 7}, got, "a written checkpoint is durable")
}

func TestDecodeOffsetCheckpoint(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[TopicPartition]int64
		err  bool
	}{
		{"J2 empty file", "", map[TopicPartition]int64{}, false},
		{"J3 version line only", "0\n", map[TopicPartition]int64{}, false},
		{"J4 unknown version", "1\n0\n", nil, true},
		{"J5 fewer entries than counted", "0\n2\nfoo 1 5\n", nil, true},
		{"more entries than counted", "0\n0\nfoo 1 5\n", nil, true},
		{"J6 two fields", "0\n1\nfoo 5\n", nil, true},
		{"J6 non-numeric", "0\n1\nfoo x 5\n", nil, true},
		{"non-numeric count", "0\nx\n", nil, true},
		{"tabs and CRLF", "0\r\n1\r\nfoo\t1  5\r\n", map[TopicPartition]int64{{"foo", 1}: 5}, false},
		{"no final newline", "0\n1\nfoo 1 5", map[TopicPartition]int64{{"foo", 1}: 5}, false},
		{"leading space makes an empty field", "0\n1\n foo 1 5\n", nil, true},
		{"blank line", "0\n1\n\n", nil, true},
		{"negative offset parses", "0\n1\nfoo 1 -1\n", map[TopicPartition]int64{{"foo", 1}: -1}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeOffsetCheckpoint([]byte(tc.text))
			if tc.err {
				if !errors.Is(err, ErrCorruptCheckpoint) {
					t.Fatalf("decoding %q gave %v, %v; want ErrCorruptCheckpoint", tc.text, got, err)
				}
				return
			}
			require.NoError(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestOffsetCheckpointRealFiles(t *testing.T) {
	tests := []struct {
		file    string
		entries int
		check   map[TopicPartition]int64
	}{
		{"donaldy-kafka-2.7.1/cleaner-offset-checkpoint", 3,
			map[TopicPartition]int64{{"__consumer_offsets", 28}: 2, {"__consumer_offsets", 17}: 1, {"__consumer_offsets", 39}: 18}},
		{"donaldy-kafka-2.7.1/recovery-point-offset-checkpoint", -1, map[TopicPartition]int64{{"myTopic", 0}: 38}},
		{"donaldy-kafka-2.7.1/log-start-offset-checkpoint", 0, nil},
		{"volodymyrzee-kafka/recovery-point-offset-checkpoint", 54, map[TopicPartition]int64{{"first_topic", 0}: 11}},
		{"volodymyrzee-kafka/replication-offset-checkpoint", 54, map[TopicPartition]int64{{"first_topic", 0}: 11}},
		{"niloufar-ldi-poc-kraft/log-start-offset-checkpoint", 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(realFile(t, tc.file))
			require.NoError(t, err)
			got, err := DecodeOffsetCheckpoint(b)
			require.NoError(t, err)
			if tc.entries >= 0 {
				require.Len(t, got, tc.entries)
			}
			for tp, off := range tc.check {
				require.Equal(t, off, got[tp], "%v", tp)
			}
			if tc.entries == 3 {
				// Our writer sorts; Kafka's order differs, the content does not.
				again, err := DecodeOffsetCheckpoint(AppendOffsetCheckpoint(nil, got))
				require.NoError(t, err)
				require.Equal(t, got, again)
			}
		})
	}
}

func FuzzDecodeOffsetCheckpoint(f *testing.F) {
	f.Add([]byte("0\n3\n__consumer_offsets 28 2\n__consumer_offsets 17 1\n__consumer_offsets 39 18\n"))
	f.Add([]byte("0\n0\n"))
	f.Add([]byte("0\n1\nfoo 1 5"))
	f.Add([]byte("1\n"))
	f.Add([]byte("0\r\n1\r\n a\t1 2\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeOffsetCheckpoint(b)
		if err != nil {
			if !errors.Is(err, ErrCorruptCheckpoint) {
				t.Fatalf("error %v does not wrap ErrCorruptCheckpoint", err)
			}
			return
		}
		again, err := DecodeOffsetCheckpoint(AppendOffsetCheckpoint(nil, m))
		if err != nil && !containsSpace(m) {
			t.Fatalf("re-encoding %v does not decode: %v", m, err)
		}
		if err == nil && !containsSpace(m) && !cmp.Equal(m, again) {
			t.Fatalf("round trip changed %v into %v", m, again)
		}
	})
}

// containsSpace reports whether a topic name would not survive a checkpoint line
// (Kafka's topic names never contain whitespace or are empty).
func containsSpace(m map[TopicPartition]int64) bool {
	for tp := range m {
		if tp.Topic == "" {
			return true
		}
		for _, r := range tp.Topic {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' {
				return true
			}
		}
	}
	return false
}

func ExampleAppendOffsetCheckpoint() {
	b := AppendOffsetCheckpoint(nil, map[TopicPartition]int64{{"myTopic", 0}: 38, {"__consumer_offsets", 39}: 18})
	fmt.Print(string(b))
	m, err := DecodeOffsetCheckpoint(b)
	fmt.Println(m[TopicPartition{"myTopic", 0}], err)
	// Output:
	// 0
	// 2
	// __consumer_offsets 39 18
	// myTopic 0 38
	// 38 <nil>
}

// TestCheckpointWriteSurvivesEveryPowerCut cuts the power before each operation
// of a checkpoint rewrite (keeping none, half or all of the unsynced bytes) and
// checks that the file then reads as the old or the new content, never a mix or
// garbage; and that a finished write survives a power cut.
func TestCheckpointWriteSurvivesEveryPowerCut(t *testing.T) {
	oldCP := map[TopicPartition]int64{{"a", 0}: 5, {"b", 1}: 7}
	newCP := map[TopicPartition]int64{{"a", 0}: 50, {"b", 1}: 70, {"c", 2}: 9}
	base := vfs.NewMem()
	require.NoError(t, base.MkdirAll("logs", 0o755))
	require.NoError(t, base.SyncDir("."))
	require.NoError(t, WriteOffsetCheckpoint(base, "logs/"+RecoveryPointCheckpointFile, oldCP))

	probe := base.Clone()
	start := probe.OpCount()
	require.NoError(t, WriteOffsetCheckpoint(probe, "logs/"+RecoveryPointCheckpointFile, newCP))
	ops := probe.OpCount() - start

	keeps := map[string]func(string, int64, int64) int64{
		"none": func(string, int64, int64) int64 { return 0 },
		"half": func(_ string, durable, cached int64) int64 { return (cached - durable) / 2 },
		"all":  func(_ string, durable, cached int64) int64 { return cached - durable },
	}
	cuts := 0
	for cut := int64(1); cut <= ops+1; cut++ {
		for name, keep := range keeps {
			fsys := base.Clone()
			at := fsys.OpCount() + cut
			fsys.SetHook(func(op vfs.Op) error {
				if op.Seq == at {
					fsys.PowerCut(keep)
				}
				return nil
			})
			err := WriteOffsetCheckpoint(fsys, "logs/"+RecoveryPointCheckpointFile, newCP)
			fsys.SetHook(nil)
			if err == nil {
				fsys.PowerCut(keep)
			}
			got, rerr := ReadOffsetCheckpoint(fsys, "logs/"+RecoveryPointCheckpointFile)
			if rerr != nil {
				t.Fatalf("power cut before operation %d of %d (keep %s): checkpoint unreadable: %v", cut, ops, name, rerr)
			}
			if err == nil && !cmp.Equal(newCP, got) {
				t.Fatalf("a completed checkpoint write was lost by a power cut (keep %s): %v", name, got)
			}
			if !cmp.Equal(oldCP, got) && !cmp.Equal(newCP, got) {
				t.Fatalf("power cut before operation %d of %d (keep %s): checkpoint reads %v, neither old nor new", cut, ops, name, got)
			}
			cuts++
		}
	}
	t.Logf("%d power cuts over %d operations", cuts, ops)
}
