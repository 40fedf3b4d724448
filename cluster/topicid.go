package cluster

import (
	"encoding/base64"
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"slices"
)

// newTopicID returns the topic id of the topic named name: a random
// (version 4) UUID as Kafka's Uuid.randomUuid draws one, printed in
// base64 without padding (Uuid.toString), never starting with "-" (Kafka
// draws again). It is drawn from a generator of its own, seeded by the
// world's seed and the name, so that creating a topic does not move the
// world's generator (which the partitioners and torn writes draw from).
func newTopicID(seed uint64, name string) string {
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(seed, h.Sum64()))
	for {
		var b [16]byte
		binary.BigEndian.PutUint64(b[:8], r.Uint64())
		binary.BigEndian.PutUint64(b[8:], r.Uint64())
		b[6] = b[6]&0x0f | 0x40 // version 4
		b[8] = b[8]&0x3f | 0x80 // IETF variant
		id := base64.RawURLEncoding.EncodeToString(b[:])
		if id[0] != '-' {
			return id
		}
	}
}

// TopicPartitions returns the controller's view of every partition of
// topic: leader, leader epoch, replicas and ISR (no offsets, no logs).
// Unlike [World.State] it includes __consumer_offsets.
func (w *World) TopicPartitions(topic string) []PartitionInfo {
	var out []PartitionInfo
	for _, tp := range w.ctl.order {
		if tp.Topic != topic {
			continue
		}
		p := w.ctl.parts[tp]
		out = append(out, PartitionInfo{Topic: tp.Topic, Partition: tp.Partition, Leader: p.leader, LeaderEpoch: p.leaderEpoch,
			Replicas: slices.Clone(p.replicas), ISR: slices.Clone(p.isr), LogStartOffset: -1, HighWatermark: -1, LogEndOffset: -1})
	}
	return out
}
