package cluster

import (
	"fmt"
	"path"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// validateWipe checks a wipe action: a broker that is down (its files are
// not open), and a path under its log.dirs that exists and is not the log
// dir itself: a partition directory ("orders-0"), a file in one
// ("orders-0/leader-epoch-checkpoint") or a file at its root (a checkpoint,
// "replication-offset-checkpoint").
func (w *World) validateWipe(a Action) error {
	b, err := w.broker(a.Broker)
	if err != nil {
		return err
	}
	if b.State() == BrokerRunning {
		return fmt.Errorf("%w: wipe: broker %d is running (stop, kill or power-cut it first: a running broker's files are open)", ErrInvalidConfig, a.Broker)
	}
	if !underLogDir(a.Name) {
		return fmt.Errorf("%w: wipe: %q is not a path under %s (a partition directory such as orders-0, or a checkpoint file such as %s)",
			ErrInvalidConfig, a.Name, LogDir, kafkalog.ReplicationOffsetCheckpointFile)
	}
	if _, err := b.FS().Stat(LogDir + "/" + a.Name); err != nil {
		return fmt.Errorf("%w: wipe: broker %d has no %s/%s", ErrInvalidConfig, a.Broker, LogDir, a.Name)
	}
	return nil
}

// underLogDir reports whether name is a clean relative path below the log
// dir, not the log dir itself and not above it ("orders-0",
// "orders-0/00000000000000000000.log", "replication-offset-checkpoint").
func underLogDir(name string) bool {
	clean := path.Clean(name)
	return name != "" && clean == name && name != "." && !strings.HasPrefix(name, "/") && name != ".." && !strings.HasPrefix(name, "../")
}

// wipe removes a path under a down broker's log.dirs, with everything in it,
// as an operator's `rm -rf /kafka-logs/PATH; sync` on the broker's host
// does: the removal is durable (the directory above it is synced). The
// next start reads a missing checkpoint file as empty, and creates a
// partition whose directory is gone empty: the replica fetches everything
// from its leader again, Kafka's own way back for a lost replica (if it
// was the only replica in the ISR, what it held is gone with it).
func (w *World) wipe(a Action) error {
	b := w.brokers[a.Broker-1]
	p := LogDir + "/" + a.Name
	files, bytes := w.countFiles(b, p)
	if err := b.FS().RemoveAll(p); err != nil {
		return fmt.Errorf("wipe: broker %d: %w", a.Broker, err)
	}
	if err := b.FS().SyncDir(path.Dir(p)); err != nil {
		return fmt.Errorf("wipe: broker %d: %w", a.Broker, err)
	}
	next := "the next start reads it as missing"
	if _, ok := kafkalog.ParseTopicPartitionDir(path.Base(p)); ok && path.Dir(p) == LogDir {
		next = "the next start creates the replica empty, and it fetches everything from its leader"
	}
	plural := "s"
	if files == 1 {
		plural = ""
	}
	w.record(EventStorage, b.ID(), nil, "wipe: rm -rf %s (%d file%s, %d bytes): %s", p, files, plural, bytes, next)
	return nil
}

// countFiles counts the files under p (p itself if it is a file) and their
// bytes.
func (w *World) countFiles(b *broker.Broker, p string) (files int, bytes int64) {
	fi, err := b.FS().Stat(p)
	if err != nil {
		return 0, 0
	}
	if !fi.IsDir() {
		return 1, fi.Size()
	}
	names, _ := b.FS().List(p)
	for _, n := range names {
		f, s := w.countFiles(b, p+"/"+n)
		files, bytes = files+f, bytes+s
	}
	return files, bytes
}

// Wipe removes a path under broker id's log.dirs (see [ActWipe]); the
// broker must be down.
func (w *World) Wipe(id int32, name string) error {
	return w.Do(Action{Kind: ActWipe, Broker: id, Name: name})
}
