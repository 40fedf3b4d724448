package cluster_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/stretchr/testify/require"
)

// A corrupt action damages the disk of a broker that is down, and the log recovery
// after its crash meets the damage at the next start: a flipped byte in the second batch's CRC
// cuts the log there. It is refused on a running broker, for a file that is not
// there and for bytes beyond the file's durable size.
func TestCorruptDamagesTheDiskOfABrokerThatIsDown(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 1})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 1}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all"}))
	for _, v := range []string{"a", "b", "c"} {
		require.NoError(t, w.Produce("p", "", v, 0))
		require.NoError(t, w.RunFor(100))
	}
	const seg = "t-0/00000000000000000000.log"
	if err := w.Corrupt(1, seg, 0, 0, true); !errors.Is(err, cluster.ErrInvalidConfig) {
		t.Fatalf("corrupt on a running broker: %v, want ErrInvalidConfig", err)
	}
	require.NoError(t, w.Writeback(1))
	require.NoError(t, w.Kill(1))
	fsys, err := w.BrokerFS(1)
	require.NoError(t, err)
	f, err := fsys.Open(cluster.LogDir + "/" + seg)
	require.NoError(t, err)
	head := make([]byte, kafkalog.HeaderLenUpToMagic)
	_, err = f.ReadAt(head, 0)
	require.NoError(t, err)
	size, _, err := kafkalog.PeekBatch(head)
	require.NoError(t, err)
	for _, bad := range []func() error{
		func() error { return w.Corrupt(1, "t-0/00000000000000000099.log", 0, 1, false) },
		func() error { return w.Corrupt(1, "../t-0/00000000000000000000.log", 0, 1, false) },
		func() error { return w.Corrupt(1, seg, 1<<20, 1, false) },
		func() error { return w.Corrupt(1, seg, 0, 0, false) },
	} {
		if err := bad(); !errors.Is(err, cluster.ErrInvalidConfig) {
			t.Errorf("a corrupt to refuse: %v, want ErrInvalidConfig", err)
		}
	}
	// The CRC of the second batch: after baseOffset, length, partitionLeaderEpoch, magic.
	require.NoError(t, w.Corrupt(1, seg, size+kafkalog.HeaderLenUpToMagic, 0, true))
	require.NoError(t, w.Start(1))
	var got []string
	for _, e := range w.Events() {
		if strings.Contains(e.Text, "disk damage") || strings.Contains(e.Text, "recovery cut") {
			got = append(got, e.Text)
		}
	}
	want := []string{fmt.Sprintf("disk damage: byte %d of %s flipped on disk", size+kafkalog.HeaderLenUpToMagic, seg), "log recovery cut the log at 1"}
	for i := range got {
		if i < len(want) && strings.HasPrefix(got[i], want[i]) {
			got[i] = want[i]
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events of the damage and the recovery (-want +got):\n%s", diff)
	}
}
