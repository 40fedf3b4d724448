package broker

import (
	"fmt"
	"path"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// What happens to a broker's files while it is down: a disk that damages
// bytes (Kafka's LogSegment.recover checks every batch for it), and an
// operator who removes a file or a partition directory for a broker that
// cannot start.

// CheckCorrupt checks a disk damage to name (a path under the log dir):
// the broker is down (its disk is not being written), name is a file
// under its log.dirs, and the n bytes from offset (one flipped byte, or n
// zeroed) lie inside the file's durable bytes.
func (b *Broker) CheckCorrupt(name string, offset int64, n int, flip bool) error {
	if b.state == BrokerRunning {
		return fmt.Errorf("%w: corrupt: broker %d is running (stop, kill or power-cut it first)", metadata.ErrInvalidConfig, b.id)
	}
	if !flip && n <= 0 {
		return fmt.Errorf("%w: corrupt: --zero N wants N > 0, or --flip", metadata.ErrInvalidConfig)
	}
	if !underLogDir(name) {
		return fmt.Errorf("%w: corrupt: %q is not a file's path under the log dir (e.g. notes-0/00000000000000000000.log)", metadata.ErrInvalidConfig, name)
	}
	durable, _, err := b.fs.SizeOnDisk(LogDir + "/" + name)
	if err != nil {
		return fmt.Errorf("%w: corrupt: broker %d: %w", metadata.ErrInvalidConfig, b.id, err)
	}
	if size := damaged(n, flip); offset < 0 || offset+size > durable {
		return fmt.Errorf("%w: corrupt: bytes [%d, %d) outside the %d durable bytes of %s", metadata.ErrInvalidConfig, offset, offset+size, durable, name)
	}
	return nil
}

// damaged is how many bytes a damage changes: one flipped, or n zeroed.
func damaged(n int, flip bool) int64 {
	if flip {
		return 1
	}
	return int64(n)
}

// Corrupt damages the durable bytes of name (checked with CheckCorrupt):
// with flip the byte at offset has its bits flipped, otherwise n bytes
// from offset read back as zeros. A note says what changed.
func (b *Broker) Corrupt(env Env, name string, offset int64, n int, flip bool) error {
	var before, after []byte
	err := b.fs.DamageDisk(LogDir+"/"+name, offset, damaged(n, flip), func(p []byte) {
		before = append(before, p...)
		if flip {
			p[0] ^= 0xff
		} else {
			clear(p)
		}
		after = append(after, p...)
	})
	if err != nil {
		return fmt.Errorf("corrupt: broker %d: %w", b.id, err)
	}
	if flip {
		env.Record(event.Storage, b.id, nil, "disk damage: byte %d of %s flipped on disk (0x%02x -> 0x%02x)", offset, name, before[0], after[0])
	} else {
		env.Record(event.Storage, b.id, nil, "disk damage: bytes %d-%d of %s read back as zeros", offset, offset+int64(n)-1, name)
	}
	return nil
}

// CheckWipe checks an operator's removal of name: the broker is down (its
// files are not open), and name is a path under its log.dirs that exists
// and is not the log dir itself: a partition directory ("orders-0"), a
// file in one ("orders-0/leader-epoch-checkpoint") or a file at its root
// (a checkpoint, "replication-offset-checkpoint").
func (b *Broker) CheckWipe(name string) error {
	if b.state == BrokerRunning {
		return fmt.Errorf("%w: wipe: broker %d is running (stop, kill or power-cut it first: a running broker's files are open)", metadata.ErrInvalidConfig, b.id)
	}
	if !underLogDir(name) {
		return fmt.Errorf("%w: wipe: %q is not a path under %s (a partition directory such as orders-0, or a checkpoint file such as %s)",
			metadata.ErrInvalidConfig, name, LogDir, kafkalog.ReplicationOffsetCheckpointFile)
	}
	if _, err := b.fs.Stat(LogDir + "/" + name); err != nil {
		return fmt.Errorf("%w: wipe: broker %d has no %s/%s", metadata.ErrInvalidConfig, b.id, LogDir, name)
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

// Wipe removes name (checked with CheckWipe) with everything in it, as an
// operator's `rm -rf /kafka-logs/PATH; sync` on the broker's host does:
// the removal is durable (the directory above it is synced). The next
// start reads a missing checkpoint file as empty, and creates a partition
// whose directory is gone empty: the replica fetches everything from its
// leader again, Kafka's own way back for a lost replica (if it was the
// only replica in the ISR, what it held is gone with it).
func (b *Broker) Wipe(env Env, name string) error {
	p := LogDir + "/" + name
	files, bytes := b.countFiles(p)
	if err := b.fs.RemoveAll(p); err != nil {
		return fmt.Errorf("wipe: broker %d: %w", b.id, err)
	}
	if err := b.fs.SyncDir(path.Dir(p)); err != nil {
		return fmt.Errorf("wipe: broker %d: %w", b.id, err)
	}
	next := "the next start reads it as missing"
	if _, ok := kafkalog.ParseTopicPartitionDir(path.Base(p)); ok && path.Dir(p) == LogDir {
		next = "the next start creates the replica empty, and it fetches everything from its leader"
	}
	plural := "s"
	if files == 1 {
		plural = ""
	}
	env.Record(event.Storage, b.id, nil, "wipe: rm -rf %s (%d file%s, %d bytes): %s", p, files, plural, bytes, next)
	return nil
}

// countFiles counts the files under p (p itself if it is a file) and their
// bytes.
func (b *Broker) countFiles(p string) (files int, bytes int64) {
	fi, err := b.fs.Stat(p)
	if err != nil {
		return 0, 0
	}
	if !fi.IsDir() {
		return 1, fi.Size()
	}
	names, _ := b.fs.List(p)
	for _, n := range names {
		f, s := b.countFiles(p + "/" + n)
		files, bytes = files+f, bytes+s
	}
	return files, bytes
}
