package cluster_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// fetchedAt3 is what a client's Fetch at offset 3 got.
type fetchedAt3 struct {
	Code       int16
	BaseOffset int64 // of the first batch, -1 if none
	CRCFails   bool
}

// batchPositions reads where each batch of broker id's segment name
// begins (the broker is down).
func batchPositions(t require.TestingT, w *cluster.World, id int32, name string) []int64 {
	fsys, err := w.BrokerFS(id)
	require.NoError(t, err)
	st, err := fsys.Stat(cluster.LogDir + "/" + name)
	require.NoError(t, err)
	f, err := fsys.Open(cluster.LogDir + "/" + name)
	require.NoError(t, err)
	defer f.Close()
	var out []int64
	head := make([]byte, kafkalog.HeaderLenUpToMagic)
	for pos := int64(0); pos+int64(len(head)) <= st.Size(); {
		_, err := f.ReadAt(head, pos)
		require.NoError(t, err)
		size, _, err := kafkalog.PeekBatch(head)
		require.NoError(t, err)
		out = append(out, pos)
		pos += size
	}
	return out
}

// Disk damage below the recovery point of a broker that starts cleanly is
// not checked (Kafka 3.7's LogLoader recovers only from the recovery
// point; kafkalog checks a segment's batches after its last offset index
// entry, and the records of 1000 bytes put entries past offset 3): the
// broker starts, and the damaged bytes stay. Broker 1 then leads t-0 with
// the batch at offset 3 damaged while broker 3 lacks offsets 3 to 7. The bytes go as they are to whoever reads them: broker
// 3's append refuses them (AbstractFetcherThread: "Found invalid
// messages during fetch", retried after replica.fetch.backoff.ms), so it
// stays at 3 and out of the ISR; a consumer reading from 0 gets 0 to 2,
// then its poll throws at 3, every time; a client's fetch at 3 gets the
// batch as stored, and its own check (check.crcs) finds the CRC wrong, or
// CORRUPT_MESSAGE when the broker's read meets a length below 14. A header whose length runs past
// its segment reads as the segment's end: the fetch from inside it gets
// nothing, the follower and the consumer wait there.
func TestDiskDamageBelowTheRecoveryPointIsMetByItsReaders(t *testing.T) {
	for _, tc := range []struct {
		name string
		// at is the damaged byte in the batch of offset 3, n the
		// number zeroed (0: flipped).
		at, n int64
		// thrown is the consumer's KafkaException ("" when the fetch
		// reads on past, to nothing).
		thrown string
		// fetched is what a client's Fetch at offset 3 gets: its error
		// code, and what the client's own check of the batch (CRC-32C,
		// check.crcs) finds of the bytes.
		fetched fetchedAt3
	}{
		{name: "crc", at: kafkalog.HeaderLenUpToMagic, thrown: "Record batch for partition t-0 at offset 3 is invalid, cause: Record is corrupt (stored crc = ",
			fetched: fetchedAt3{BaseOffset: 3, CRCFails: true}},
		{name: "length-zeroed", at: 8, n: 4, thrown: "Encountered corrupt message when fetching offset 3 for topic-partition t-0",
			fetched: fetchedAt3{Code: 2, BaseOffset: -1}},
		{name: "length-past-the-end", at: 9, fetched: fetchedAt3{BaseOffset: -1}},
		{name: "records", at: 70, thrown: "Record batch for partition t-0 at offset 3 is invalid, cause: Record is corrupt (stored crc = ",
			fetched: fetchedAt3{BaseOffset: 3, CRCFails: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, produce := damageWorld(t)
			produce("a", "b", "c")
			require.NoError(t, w.Stop(3))
			require.NoError(t, w.RunFor(2000))
			produce("d", "e", "f", "g", "h")
			require.NoError(t, w.Stop(1))
			require.NoError(t, w.RunFor(5000))
			const seg = "t-0/00000000000000000000.log"
			pos := batchPositions(t, w, 1, seg)
			require.Len(t, pos, 8)
			if tc.n > 0 {
				require.NoError(t, w.Corrupt(1, seg, pos[3]+tc.at, int(tc.n), false))
			} else {
				require.NoError(t, w.Corrupt(1, seg, pos[3]+tc.at, 0, true))
			}
			damagedLeads(t, w)
			require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "reader", Topic: "t", Partition: 0}))
			require.NoError(t, w.RunFor(35_000))
			for range 3 {
				require.NoError(t, w.Poll("reader"))
				require.NoError(t, w.RunFor(1000))
			}

			resp := ask[*kmsg.FetchResponse](t, w, 1, fetchReq(3, -1), 1000)
			got3 := fetchedAt3{Code: resp.Topics[0].Partitions[0].ErrorCode, BaseOffset: -1}
			if raw := resp.Topics[0].Partitions[0].RecordBatches; len(raw) > 0 {
				h, _, err := kafkalog.CheckBatch(raw)
				got3.BaseOffset, got3.CRCFails = h.BaseOffset, errors.Is(err, kafkalog.ErrCorruptBatch)
			}
			if diff := cmp.Diff(tc.fetched, got3); diff != "" {
				t.Errorf("a client's fetch at offset 3 (-want +got):\n%s", diff)
			}

			for _, ie := range w.InternalErrors() {
				t.Errorf("internal error at t=%d: %s", ie.TimeMs, ie.Error)
			}
			st := w.State()
			var leo3 int64 = -1
			var isr []int32
			for _, p := range st.Partitions {
				if p.Topic != "t" {
					continue
				}
				isr = p.ISR
				for _, l := range p.Logs {
					if l.Broker == 3 {
						leo3 = l.LogEndOffset
					}
				}
			}
			var reader cluster.ConsumerInfo
			for _, c := range st.Consumers {
				if c.Name == "reader" {
					reader = c
				}
			}
			var refused, thrown []string
			for _, e := range w.Events() {
				switch {
				case strings.Contains(e.Text, "Found invalid messages"):
					refused = append(refused, fmt.Sprintf("b%d %s", e.Broker, e.Text))
				case strings.Contains(e.Text, "poll threw"):
					thrown = append(thrown, e.Text)
				}
			}
			type outcome struct {
				LEO3      int64
				ISR       []int32
				Position  int64
				Read      int
				Refused   []string
				Thrown    int
				ThrownPfx bool
			}
			want := outcome{LEO3: 3, ISR: []int32{1}, Position: 3, Read: 3}
			if tc.thrown != "" {
				want.Refused = []string{"b3 Found invalid messages during fetch from leader 1 at offset 3 (CorruptRecordException): nothing appended, retried after replica.fetch.backoff.ms"}
				want.Thrown, want.ThrownPfx = 1, true
			}
			got := outcome{LEO3: leo3, ISR: slices.Sorted(slices.Values(isr)), Position: reader.Position, Read: reader.Read, Refused: refused, Thrown: len(thrown)}
			if len(thrown) > 0 {
				got.ThrownPfx = strings.HasPrefix(thrown[0], "reader: poll threw KafkaException: "+tc.thrown)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("damage %s (-want +got):\n%s\nthrown: %q", tc.name, diff, thrown)
			}
		})
	}
}

// damagedLeads starts broker 1 of a damageWorld, whose disk was damaged
// while it was down, lets it catch up, stops broker 2 so that broker 1
// leads t-0 (with broker 3 down, as the damage tests leave it), and starts
// broker 3 again to follow it.
func damagedLeads(t *testing.T, w *cluster.World) {
	t.Helper()
	require.NoError(t, w.Start(1))
	require.NoError(t, w.RunFor(10_000))
	require.NoError(t, w.Stop(2))
	require.NoError(t, w.RunFor(5000))
	require.Equal(t, int32(1), w.PartitionLeader("t", 0), "broker 1 leads t-0")
	require.NoError(t, w.Start(3))
}

// damageWorld is three brokers with topic t on all three, min.insync.replicas
// 1, and producer p (acks=all); produce sends 1,000-byte values, one at a
// time, and lets them replicate.
func damageWorld(t *testing.T) (*cluster.World, func(vs ...string)) {
	t.Helper()
	w, err := cluster.New(cluster.Config{Seed: 5, MinInsyncReplicas: 1, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all"}))
	require.NoError(t, w.RunFor(500))
	return w, func(vs ...string) {
		for _, v := range vs {
			require.NoError(t, w.Produce("p", "", strings.Repeat(v, 1000), 0))
			require.NoError(t, w.RunFor(200))
		}
		require.NoError(t, w.RunFor(2000))
	}
}
