package broker

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
)

// deletedLog is a replica's directory renamed -delete, waiting for the
// broker's log manager to delete it.
type deletedLog struct {
	dir  string
	atMs int64
}

// deleteDirName is LocalLog.logDeleteDirName: topic-partition, a dot, a
// random UUID's 32 hex digits, "-delete"; the topic is cut so that the name
// stays within 255 bytes.
func (b *Broker) deleteDirName(env Env, tp tp) string {
	var id [16]byte
	for i := range id {
		id[i] = byte(env.Rand().Uint32())
	}
	id[6] = id[6]&0x0f | 0x40 // UUID.randomUUID: version 4
	id[8] = id[8]&0x3f | 0x80 // IETF variant
	suffix := fmt.Sprintf("-%d.%x-delete", tp.Partition, id)
	topic := tp.Topic
	if n := 255 - len(suffix); len(topic) > n {
		topic = topic[:n]
	}
	return topic + suffix
}

// deleteLogs is the log manager's kafka-delete-logs task on a running
// broker: it deletes the directories renamed -delete whose
// file.delete.delay.ms has passed.
func (b *Broker) deleteLogs(env Env) {
	kept := b.deleted[:0]
	for _, d := range b.deleted {
		if env.Now() < d.atMs {
			kept = append(kept, d)
			continue
		}
		if err := b.fs.RemoveAll(d.dir); err != nil {
			env.InternalError(b.id, fmt.Errorf("broker %d: delete %s: %w", b.id, d.dir, err))
		}
		env.Record(event.Storage, b.id, nil, "deleted %s", d.dir[len(LogDir)+1:])
	}
	clear(b.deleted[len(kept):])
	b.deleted = kept
}
