package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/replica"
)

// DefaultMaxRequestSize is the producer's max.request.size (1 MiB): the
// producer refuses, itself, a record whose batch would be larger
// (KafkaProducer.ensureValidRecordSize, RecordTooLargeException).
const DefaultMaxRequestSize = 1 << 20

// refuseRecordTooLarge is the producer's own check of the record it just
// took (its result is the last): a batch larger than max.request.size
// fails at once with RecordTooLargeException, whose code is
// MESSAGE_TOO_LARGE, and is never sent (KafkaProducer.doSend,
// ensureValidRecordSize, after the partitioner chose). It reports whether
// it refused the record.
func (w *World) refuseRecordTooLarge(p *Producer, tp partitionKey) bool {
	i := p.dropped + len(p.results) - 1
	r := p.result(i)
	rec := replica.Record{Value: []byte(r.Value)}
	if r.Key != "" {
		rec.Key = []byte(r.Key)
	}
	n := replicalog.EncodedSize(w.now, []replica.Record{rec})
	if n <= DefaultMaxRequestSize {
		return false
	}
	r.Failed, r.Error = true, replica.MessageTooLarge.String()
	w.record(EventProduce, 0, &tp, "%s: a record of %d bytes refused: %s (larger than max.request.size %d)", p.cfg.Name, n, r.Error, DefaultMaxRequestSize)
	return true
}
