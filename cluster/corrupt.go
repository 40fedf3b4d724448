package cluster

import (
	"fmt"
)

// corruptRange is the bytes a corrupt action damages: one flipped, or N zeroed.
func corruptRange(a Action) int64 {
	if a.Flip {
		return 1
	}
	return int64(a.N)
}

// validateCorrupt checks a corrupt action: a broker that is down (its disk is
// not being written), a file under its log.dirs, a range inside the file's
// durable bytes.
func (w *World) validateCorrupt(a Action) error {
	b, err := w.broker(a.Broker)
	if err != nil {
		return err
	}
	if b.State() == BrokerRunning {
		return fmt.Errorf("%w: corrupt: broker %d is running (stop, kill or power-cut it first)", ErrInvalidConfig, a.Broker)
	}
	if !a.Flip && a.N <= 0 {
		return fmt.Errorf("%w: corrupt: --zero N wants N > 0, or --flip", ErrInvalidConfig)
	}
	name := a.Name
	if !underLogDir(name) {
		return fmt.Errorf("%w: corrupt: %q is not a file's path under the log dir (e.g. notes-0/00000000000000000000.log)", ErrInvalidConfig, a.Name)
	}
	durable, _, err := b.FS().SizeOnDisk(LogDir + "/" + name)
	if err != nil {
		return fmt.Errorf("%w: corrupt: broker %d: %w", ErrInvalidConfig, a.Broker, err)
	}
	if a.Offset < 0 || a.Offset+corruptRange(a) > durable {
		return fmt.Errorf("%w: corrupt: bytes [%d, %d) outside the %d durable bytes of %s", ErrInvalidConfig, a.Offset, a.Offset+corruptRange(a), durable, name)
	}
	return nil
}

// corrupt damages the durable bytes a corrupt action names and records what changed.
func (w *World) corrupt(a Action) error {
	b := w.brokers[a.Broker-1]
	var before, after []byte
	err := b.FS().DamageDisk(LogDir+"/"+a.Name, a.Offset, corruptRange(a), func(p []byte) {
		before = append(before, p...)
		if a.Flip {
			p[0] ^= 0xff
		} else {
			clear(p)
		}
		after = append(after, p...)
	})
	if err != nil {
		return fmt.Errorf("corrupt: broker %d: %w", a.Broker, err)
	}
	if a.Flip {
		w.record(EventStorage, b.ID(), nil, "disk damage: byte %d of %s flipped on disk (0x%02x -> 0x%02x)", a.Offset, a.Name, before[0], after[0])
	} else {
		w.record(EventStorage, b.ID(), nil, "disk damage: bytes %d-%d of %s read back as zeros", a.Offset, a.Offset+int64(a.N)-1, a.Name)
	}
	return nil
}
