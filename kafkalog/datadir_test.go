package kafkalog

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

// memCopy copies the directory tree at dir (on the OS) into a new MemFS under "data",
// durably, so that tests can open real data dirs without touching the fixtures.
func memCopy(t *testing.T, dir string) *vfs.MemFS {
	t.Helper()
	m := vfs.NewMem()
	require.NoError(t, filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		dst := filepath.ToSlash(filepath.Join("data", rel))
		if e.IsDir() {
			return m.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := m.Create(dst)
		if err != nil {
			return err
		}
		if _, err := f.WriteAt(b, 0); err != nil {
			return err
		}
		return f.Close()
	}))
	m.Writeback()
	return m
}

func openFixture(t *testing.T, dir string) (*vfs.MemFS, *DataDir) {
	t.Helper()
	m := memCopy(t, dir)
	d, err := OpenDataDir(m, "data", 0, DataDirOptions{})
	require.NoError(t, err)
	return m, d
}

// The Apache-2.0 copy of a Kafka 2.7.1 broker's log dir: a cleaned segment with gaps,
// partitions emptied by retention, active segments whose 10 MiB indexes were not kept.
func TestDataDirDonaldy(t *testing.T) {
	_, d := openFixture(t, "testdata/kafka-real/donaldy-kafka-2.7.1")
	require.False(t, d.WasCleanShutdown())
	tp39 := TopicPartition{Topic: "__consumer_offsets", Partition: 39}
	l := d.Log(tp39)
	require.NotNil(t, l)
	require.Equal(t, []int64{4, 16, 17, 18, 19}, offsetsOf(readAll(t, l)), "compaction left offsets 4, 16, 17")
	require.Equal(t, int64(20), l.LogEndOffset())
	require.Contains(t, l.RecoveryReport().IndexesRebuilt, int64(18), "the missing preallocated index is rebuilt, not an error")
	require.Empty(t, l.RecoveryReport().Truncations)
	require.Equal(t, int64(18), d.CleanerOffset(tp39))

	my := d.Log(TopicPartition{Topic: "myTopic", Partition: 0})
	require.NotNil(t, my)
	require.Equal(t, []int64{38}, segmentBases(my))
	require.Equal(t, int64(38), my.LogStartOffset())
	require.Equal(t, int64(38), my.LogEndOffset())
	require.Equal(t, []EpochEntry{{Epoch: 0, StartOffset: 38}}, my.LeaderEpochCache().Entries())
	_, err := my.Read(0, 100)
	require.ErrorIs(t, err, ErrOffsetOutOfRange, "data expired by retention is gone")

	want := []PartitionInfo{
		{TopicPartition{"__consumer_offsets", 8}, 1, 0, 0, 3, 0},
		{TopicPartition{"__consumer_offsets", 17}, 2, 0, 0, 3, 0},
		{TopicPartition{"__consumer_offsets", 28}, 2, 0, 0, 3, 0},
		{TopicPartition{"__consumer_offsets", 33}, 1, 0, 0, 3, 0},
		{TopicPartition{"__consumer_offsets", 39}, 2, 0, 0, 20, 0},
		{TopicPartition{"myTopic", 0}, 1, 0, 38, 38, 0},
		{TopicPartition{"test_topic", 0}, 1, 0, 12, 12, 0},
		{TopicPartition{"test_topic_0603", 0}, 1, 0, 9, 9, 0},
	}
	got := d.Describe()
	for i := range got {
		got[i].Size, got[i].RecoveryPoint = 0, 0
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("partitions (-want +got):\n%s", diff)
	}
}

// Close writes the checkpoints and the marker; the next open skips recovery and keeps
// everything.
func TestDataDirCloseAndReopen(t *testing.T) {
	m, d := openFixture(t, "testdata/kafka-real/donaldy-kafka-2.7.1")
	tp := TopicPartition{Topic: "__consumer_offsets", Partition: 39}
	before := readAll(t, d.Log(tp))
	d.SetCleanerOffset(tp, 18)
	require.NoError(t, d.Close(10))
	m.PowerCut(nil)
	d2, err := OpenDataDir(m, "data", 0, DataDirOptions{})
	require.NoError(t, err)
	require.True(t, d2.WasCleanShutdown())
	require.Equal(t, 0, d2.Log(tp).RecoveryReport().SegmentsRecovered, "%+v", d2.Log(tp).RecoveryReport())
	require.Equal(t, before, readAll(t, d2.Log(tp)))
	require.Equal(t, int64(20), d2.Log(tp).RecoveryPoint())
	require.Equal(t, int64(18), d2.CleanerOffset(tp))
	_, err = m.Stat("data/" + CleanShutdownFile)
	require.ErrorIs(t, err, fs.ErrNotExist, "the marker is removed at open")
}

// A Kafka ≈2.4 broker's log dir after a clean shutdown: indexes are trusted as they are.
func TestDataDirVolodymyrzee(t *testing.T) {
	_, d := openFixture(t, sharedFixtures(t, "volodymyrzee-kafka"))
	require.True(t, d.WasCleanShutdown())
	l := d.Log(TopicPartition{Topic: "__consumer_offsets", Partition: 12})
	require.NotNil(t, l)
	require.Equal(t, 0, l.RecoveryReport().SegmentsRecovered, "clean shutdown: no recovery")
	require.Equal(t, offsetRange(0, 470), offsetsOf(readAll(t, l)))
	require.Equal(t, 10, l.segments[0].oidx.Entries())
	require.Equal(t, OffsetPosition{Offset: 37, Position: 4295}, l.segments[0].oidx.Lookup(40))
	data, err := l.Read(40, 1)
	require.NoError(t, err)
	h, err := ReadBatchHeader(data)
	require.NoError(t, err)
	require.Equal(t, int64(38), h.BaseOffset, "lookup(40) → (37, 4295), then the scan finds the batch 38..40")
	require.Equal(t, int64(40), h.LastOffset())
	off, _, ok, err := l.OffsetForTimestamp(1587580883405)
	require.NoError(t, err)
	require.True(t, ok)
	require.LessOrEqual(t, off, int64(37))
	checkIndexes(t, l)
}

// The KRaft metadata log: 4929 records, no index files stored (rebuilt).
func TestDataDirKRaftMetadataLog(t *testing.T) {
	_, d := openFixture(t, sharedFixtures(t, "niloufar-ldi-poc-kraft"))
	l := d.Log(TopicPartition{Topic: "__cluster_metadata", Partition: 0})
	require.NotNil(t, l)
	require.Equal(t, offsetRange(0, 4929), offsetsOf(readAll(t, l)))
	require.Equal(t, []EpochEntry{{Epoch: 1, StartOffset: 0}}, l.LeaderEpochCache().Entries())
	require.Empty(t, l.RecoveryReport().Truncations)
	checkIndexes(t, l)
	c6 := d.Log(TopicPartition{Topic: "__consumer_offsets", Partition: 6})
	require.Equal(t, offsetRange(0, 13), offsetsOf(readAll(t, c6)))
	require.NotNil(t, d.Log(TopicPartition{Topic: "Retry.TestTopicPatient", Partition: 0}))
}

// A data dir with rubbish in it: foreign files and directories are ignored, a partition
// that cannot be opened is reported and the others work.
func TestDataDirBadEntries(t *testing.T) {
	m := vfs.NewMem()
	d, err := OpenDataDir(m, "data", 0, DataDirOptions{})
	require.NoError(t, err)
	l, err := d.CreateLog(TopicPartition{Topic: "good", Partition: 0}, testConfig(), 0)
	require.NoError(t, err)
	appendLeader(t, l, valueBatch(1, "v"), 0)
	require.NoError(t, d.Close(-1))
	writeFile(t, m, "data/notes.txt", 0, []byte("hello"))
	require.NoError(t, m.MkdirAll("data/old-topic-0.abc-delete", 0o755))
	require.NoError(t, m.MkdirAll("data/lost+found", 0o755))
	require.NoError(t, m.MkdirAll("data/bad-0", 0o755))
	writeFile(t, m, "data/bad-0/"+LeaderEpochCheckpointFile, 0, []byte("0\n3\n1 1\n"))
	d, err = OpenDataDir(m, "data", 0, DataDirOptions{})
	require.Error(t, err)
	require.Contains(t, d.Failed(), TopicPartition{Topic: "bad", Partition: 0})
	require.Equal(t, []TopicPartition{{Topic: "good", Partition: 0}}, d.Partitions())
	require.Len(t, readAll(t, d.Log(TopicPartition{Topic: "good", Partition: 0})), 1)

	writeFile(t, m, "data/"+RecoveryPointCheckpointFile, 0, []byte("7\n"))
	_, err = OpenDataDir(m, "data", 0, DataDirOptions{})
	require.Error(t, err, "an unreadable root checkpoint is an error, as Kafka marks the dir offline")
}

// The log start offset survives a restart through log-start-offset-checkpoint, which
// lists only partitions whose log start is above their first segment's base.
func TestDataDirCheckpointsLogStartOffset(t *testing.T) {
	m := vfs.NewMem()
	d, err := OpenDataDir(m, "data", 0, DataDirOptions{Config: func(TopicPartition) Config { return testConfig() }})
	require.NoError(t, err)
	a, err := d.CreateLog(TopicPartition{Topic: "a", Partition: 0}, testConfig(), 0)
	require.NoError(t, err)
	b, err := d.CreateLog(TopicPartition{Topic: "b", Partition: 0}, testConfig(), 0)
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		appendLeader(t, a, valueBatch(1, "v"), 0)
		appendLeader(t, b, valueBatch(1, "v"), 0)
	}
	_, err = a.DeleteRecords(3, 5)
	require.NoError(t, err)
	require.NoError(t, d.Close(1))
	lsos, err := ReadOffsetCheckpoint(m, "data/"+LogStartOffsetCheckpointFile)
	require.NoError(t, err)
	require.Equal(t, map[TopicPartition]int64{{Topic: "a", Partition: 0}: 3}, lsos)
	d, err = OpenDataDir(m, "data", 0, DataDirOptions{Config: func(TopicPartition) Config { return testConfig() }})
	require.NoError(t, err)
	require.Equal(t, int64(3), d.Log(TopicPartition{Topic: "a", Partition: 0}).LogStartOffset())
	require.Equal(t, int64(0), d.Log(TopicPartition{Topic: "b", Partition: 0}).LogStartOffset())
}
