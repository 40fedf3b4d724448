package cluster_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

func TestBrokerFSShowsTheLogsAndRefusesChanges(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 2})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 2}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all", RecordsPerSec: 10}))
	require.NoError(t, w.RunFor(1000))
	fsys, err := w.BrokerFS(2)
	require.NoError(t, err)
	names, err := fsys.List(cluster.LogDir + "/t-0")
	require.NoError(t, err)
	require.Contains(t, names, "00000000000000000000.log")
	seg := cluster.LogDir + "/t-0/00000000000000000000.log"
	fi, err := fsys.Stat(seg)
	require.NoError(t, err)
	before := fi.Size()
	if before == 0 {
		t.Fatalf("broker 2's segment is empty after 10 records")
	}
	require.NoError(t, w.RunFor(1000))
	fi, err = fsys.Stat(seg)
	require.NoError(t, err)
	if fi.Size() != before {
		t.Fatalf("the view changed with the broker: %d bytes, then %d", before, fi.Size())
	}
	for name, try := range map[string]func(vfs.FS) error{
		"create": func(f vfs.FS) error { _, err := f.Create(cluster.LogDir + "/x"); return err },
		"remove": func(f vfs.FS) error { return f.Remove(seg) },
		"write":  func(f vfs.FS) error { _, err := f.OpenReadWrite(seg); return err },
	} {
		if err := try(fsys); !errors.Is(err, fs.ErrPermission) {
			t.Errorf("%s through BrokerFS: %v, want a permission error", name, err)
		}
	}
	if _, err := w.BrokerFS(3); err == nil {
		t.Fatalf("BrokerFS(3) of a two-broker world gave a view")
	}
}
