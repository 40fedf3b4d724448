package cluster_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

// startOutcome is what a start of broker 1 after damage came to.
type startOutcome struct {
	State string
	// Said is the start's events that name the failure or the reset.
	Said []string
	// Failure is World.StartFailure's text, cut to its first clause.
	Failure string
}

// A damaged file that Kafka 3.7 cannot load stops the broker's start, as
// Kafka's does, and is not an internal error: a replication-offset-checkpoint
// or leader-epoch-checkpoint that does not parse is an IOException that takes
// the only log dir offline (the broker halts: "Shutdown broker because all
// log dirs in /kafka-logs have failed"); a log kafkalog refuses to open (a
// damaged batch above the recovery point in a segment that later segments
// follow) a fatal startup error. The broker stays failed, its files as they
// are, every time it is started; once the damaged file or the partition's
// directory is wiped it starts, and its replica catches up from the leader.
// A recovery-point or log-start-offset checkpoint that does not parse is
// reset, as LogManager.loadLogs warns and resets it: the broker starts.
func TestStartFailsOnFilesKafkaCannotLoad(t *testing.T) {
	for _, tc := range []struct {
		name string
		// kill kills broker 1 instead of stopping it; file is damaged at
		// offset (a batch of offset 8 when file is a segment).
		kill   bool
		file   string
		offset int64
		// wipe is what the operator removes (empty: the start succeeds).
		wipe string
		want startOutcome
	}{
		{name: "replication-offset-checkpoint", file: kafkalog.ReplicationOffsetCheckpointFile, wipe: kafkalog.ReplicationOffsetCheckpointFile,
			want: startOutcome{State: "failed", Failure: "Error while reading checkpoint file /kafka-logs/replication-offset-checkpoint",
				Said: []string{"start failed: Error while reading checkpoint file /kafka-logs/replication-offset-checkpoint"}}},
		{name: "leader-epoch-checkpoint", file: "t-0/" + kafkalog.LeaderEpochCheckpointFile, wipe: "t-0",
			want: startOutcome{State: "failed", Failure: "Error while reading checkpoint file /kafka-logs/t-0/leader-epoch-checkpoint",
				Said: []string{"start failed: Error while reading checkpoint file /kafka-logs/t-0/leader-epoch-checkpoint"}}},
		{name: "segment-followed-by-data", kill: true, file: "t-0/00000000000000000000.log", offset: -1, wipe: "t-0",
			want: startOutcome{State: "failed", Failure: "Fatal error during broker startup. Prepare to shutdown",
				Said: []string{"start failed: Fatal error during broker startup. Prepare to shutdown"}}},
		{name: "recovery-point-offset-checkpoint", file: kafkalog.RecoveryPointCheckpointFile,
			want: startOutcome{State: "running", Said: []string{"Error occurred while reading recovery-point-offset-checkpoint file of directory /kafka-logs, resetting the recovery checkpoint to 0"}}},
		{name: "log-start-offset-checkpoint", file: kafkalog.LogStartOffsetCheckpointFile,
			want: startOutcome{State: "running", Said: []string{"Error occurred while reading log-start-offset-checkpoint file of directory /kafka-logs, resetting to the base offset of the first segment"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := cluster.New(cluster.Config{Seed: 7, MinInsyncReplicas: 1, Rules: replica.Modern, LogFlushStartOffsetCheckpointIntervalMs: 60_000})
			require.NoError(t, err)
			logCfg := kafkalog.DefaultConfig()
			logCfg.SegmentBytes = 4000
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}, Config: &logCfg}))
			require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all"}))
			require.NoError(t, w.RunFor(500))
			for i := range 20 {
				require.NoError(t, w.Produce("p", "", strings.Repeat(string(rune('a'+i)), 900), 0))
				require.NoError(t, w.RunFor(300))
			}
			require.NoError(t, w.RunFor(2000))
			if tc.kill {
				require.NoError(t, w.Kill(1))
			} else {
				require.NoError(t, w.Stop(1))
			}
			require.NoError(t, w.RunFor(2000))
			off := tc.offset
			if off < 0 {
				off = batchPositions(t, w, 1, tc.file)[2] + kafkalog.HeaderLenUpToMagic + 10 // inside offset 2's batch: a CRC fails
			}
			require.NoError(t, w.Corrupt(1, tc.file, off, 1, true))
			fsys, err := w.BrokerFS(1)
			require.NoError(t, err)
			before := readFile(t, fsys, cluster.LogDir+"/"+tc.file)

			from := lastSeq(w)
			require.NoError(t, w.Start(1))
			got := outcome(w, from)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("start after damage to %s (-want +got):\n%s", tc.file, diff)
			}
			if ie := w.InternalErrors(); len(ie) > 0 {
				t.Fatalf("internal errors: %v", ie)
			}
			if tc.wipe == "" {
				return
			}
			require.Equal(t, before, readFile(t, fsys, cluster.LogDir+"/"+tc.file), "a failed start leaves the damaged file as it is")
			require.Error(t, w.Stop(1), "a failed broker does not run")

			require.NoError(t, w.RunFor(5000))
			from = lastSeq(w)
			require.NoError(t, w.Start(1))
			require.Equal(t, tc.want, outcome(w, from), "a second start fails the same way")

			require.NoError(t, w.Wipe(1, tc.wipe))
			require.NoError(t, w.Start(1))
			require.NoError(t, w.RunFor(20_000))
			st := w.State()
			require.Equal(t, "running", st.Brokers[0].State)
			for _, p := range st.Partitions {
				if p.Topic != "t" {
					continue
				}
				leos := map[int32]int64{}
				for _, l := range p.Logs {
					leos[l.Broker] = l.LogEndOffset
				}
				if diff := cmp.Diff(map[int32]int64{1: 20, 2: 20, 3: 20}, leos); diff != "" {
					t.Errorf("log end offsets after the wipe (-want +got):\n%s", diff)
				}
				require.Equal(t, []int32{1, 2, 3}, slices.Sorted(slices.Values(p.ISR)), "broker 1 is back in the ISR")
			}
			require.Empty(t, w.InternalErrors())
		})
	}
}

// lastSeq is the sequence number of the world's last event.
func lastSeq(w *cluster.World) int64 {
	evs := w.Events()
	if len(evs) == 0 {
		return -1
	}
	return int64(evs[len(evs)-1].Seq)
}

// outcome is what broker 1's start after the event numbered from came to.
func outcome(w *cluster.World, from int64) startOutcome {
	o := startOutcome{State: w.State().Brokers[0].State}
	for _, e := range w.Events() {
		if int64(e.Seq) <= from {
			continue
		}
		for _, k := range []string{"start failed: ", "Error occurred while reading"} {
			if i := strings.Index(e.Text, k); i >= 0 {
				o.Said = append(o.Said, firstClause(e.Text[i:]))
			}
		}
	}
	o.Failure = firstClause(w.StartFailure(1))
	return o
}

// firstClause cuts s at its first " (" or ": " after its start.
func firstClause(s string) string {
	start := 0
	if strings.HasPrefix(s, "start failed: ") {
		start = len("start failed: ")
	}
	end := len(s)
	for _, sep := range []string{" (", ": "} {
		if i := strings.Index(s[start:], sep); i >= 0 && start+i < end {
			end = start + i
		}
	}
	return s[:end]
}

func readFile(t *testing.T, fsys vfs.FS, name string) []byte {
	t.Helper()
	fi, err := fsys.Stat(name)
	require.NoError(t, err)
	f, err := fsys.Open(name)
	require.NoError(t, err)
	defer f.Close()
	b := make([]byte, fi.Size())
	require.NoError(t, vfs.ReadAtFull(f, b, 0))
	return b
}

// A batch's base offset is not covered by its CRC: damaged below the
// recovery point of a broker that starts cleanly, it passes every check
// and the leader sends it as it is. A follower whose log it does not follow
// appends nothing (Kafka 3.7's UnifiedLog.append throws
// OffsetsOutOfOrderException or UnexpectedAppendOffsetException; here the
// fetch is refused and retried, as for a corrupt batch) and stays behind;
// it is no internal error.
func TestDamagedBaseOffsetIsRefusedByAFollower(t *testing.T) {
	for _, at := range []int64{0, 6, 7} {
		w, produce := damageWorld(t)
		produce("a", "b", "c")
		require.NoError(t, w.Stop(3))
		require.NoError(t, w.RunFor(2000))
		produce("d", "e", "f")
		require.NoError(t, w.Stop(1))
		require.NoError(t, w.RunFor(5000))
		require.NoError(t, w.Corrupt(1, "t-0/00000000000000000000.log", at, 0, true)) // a byte of batch 0's base offset
		damagedLeads(t, w)
		require.NoError(t, w.RunFor(35_000))
		require.Empty(t, w.InternalErrors(), "base offset byte %d", at)
		var refused []string
		for _, e := range w.Events() {
			if strings.Contains(e.Text, "Found invalid messages") {
				refused = append(refused, fmt.Sprintf("b%d %s", e.Broker, e.Text))
			}
		}
		if diff := cmp.Diff([]string{"b3 Found invalid messages during fetch from leader 1 at offset 3 (CorruptRecordException): nothing appended, retried after replica.fetch.backoff.ms"}, refused); diff != "" {
			t.Errorf("base offset byte %d: follower refusals (-want +got):\n%s", at, diff)
		}
	}
}
