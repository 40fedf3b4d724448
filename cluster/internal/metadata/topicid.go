package metadata

import (
	"encoding/base64"
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
)

// NewTopicID returns the topic id of the topic named name: a random
// (version 4) UUID as Kafka's Uuid.randomUuid draws one, printed in
// base64 without padding (Uuid.toString), never starting with "-" (Kafka
// draws again). It is drawn from a generator of its own, seeded by the
// world's seed and the name, so that creating a topic does not move the
// world's generator (which the partitioners and torn writes draw from).
func NewTopicID(seed uint64, name string) string {
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
