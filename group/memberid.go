package group

import (
	"encoding/hex"
)

// newMemberID makes the id of a member joining g: prefix (the client.id,
// or a static member's group.instance.id), "-" and a UUID, as Kafka's
// GroupMetadata.generateMemberId does (3.7; ClassicGroup.generateMemberId
// in 4.x), when the coordinator has a member id seed; prefix-N, N counted
// per group, without one.
func (c *Coordinator) newMemberID(g *classicGroup, prefix string) string {
	if c.cfg.MemberIDSeed == 0 {
		return g.newMemberID(prefix)
	}
	hi, lo := c.nextRandom(), c.nextRandom()
	return prefix + "-" + javaRandomUUID(hi, lo)
}

// nextRandom draws the next 64 bits of the member id stream (SplitMix64).
func (c *Coordinator) nextRandom() uint64 {
	c.memberIDs += 0x9E3779B97F4A7C15
	return splitMix64(c.memberIDs - 0x9E3779B97F4A7C15)
}

// javaRandomUUID formats 128 random bits as java.util.UUID.randomUUID
// does: version 4, the IETF variant, printed 8-4-4-4-12 in lower-case hex.
func javaRandomUUID(hi, lo uint64) string {
	hi = hi&^0xF000 | 0x4000                                 // version 4
	lo = lo&^(0xC000_0000_0000_0000) | 0x8000_0000_0000_0000 // variant 2
	var b [16]byte
	for i := range 8 {
		b[i] = byte(hi >> (56 - 8*i))
		b[8+i] = byte(lo >> (56 - 8*i))
	}
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
