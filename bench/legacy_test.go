package bench

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// kmsgLegacy encodes a magic 0 or 1 message with kmsg, filling in the size and
// the CRC-32/IEEE of the bytes from magic on, as a producer for old brokers does.
func kmsgLegacy(m kafkalog.LegacyMessage) []byte {
	var enc func(size, crc int32) []byte
	if m.Magic == 0 {
		enc = func(size, crc int32) []byte {
			v := kmsg.MessageV0{Offset: m.Offset, MessageSize: size, CRC: crc, Attributes: m.Attributes, Key: m.Key, Value: m.Value}
			return v.AppendTo(nil)
		}
	} else {
		enc = func(size, crc int32) []byte {
			v := kmsg.MessageV1{Offset: m.Offset, MessageSize: size, CRC: crc, Magic: 1, Attributes: m.Attributes, Timestamp: m.Timestamp, Key: m.Key, Value: m.Value}
			return v.AppendTo(nil)
		}
	}
	b := enc(0, 0)
	size := int32(len(b) - kafkalog.LogOverhead)
	b = enc(size, 0)
	return enc(size, int32(crc32.ChecksumIEEE(b[16:])))
}

// TestDifferentialLegacy: magic 0 and 1 messages (read by kafkalog so that old
// data directories can be dumped) are byte for byte kmsg's MessageV0/MessageV1,
// and kafkalog reads kmsg's back to the same fields.
func TestDifferentialLegacy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := kafkalog.LegacyMessage{
			Offset:     rapid.Int64().Draw(t, "offset"),
			Magic:      int8(rapid.IntRange(0, 1).Draw(t, "magic")),
			Attributes: int8(rapid.SampledFrom([]int{0, 0x08}).Draw(t, "attributes (0 or LogAppendTime)")),
			Timestamp:  kafkalog.NoTimestamp,
			Key:        drawBytes(t, "key"),
			Value:      drawBytes(t, "value"),
		}
		if m.Magic == 0 {
			m.Attributes = 0
		} else {
			m.Timestamp = rapid.Int64().Draw(t, "timestamp")
		}
		ours := m.AppendTo(nil)
		theirs := kmsgLegacy(m)
		if !bytes.Equal(ours, theirs) {
			t.Fatalf("kafkalog's magic %d message differs from kmsg's: %s", m.Magic, firstDiff(ours, theirs))
		}
		got, n, err := kafkalog.ReadLegacyMessage(theirs)
		if err != nil || n != len(theirs) {
			t.Fatalf("kafkalog rejected kmsg's magic %d message (read %d of %d): %v", m.Magic, n, len(theirs), err)
		}
		want := m // AppendTo filled in MessageSize and CRC
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("kafkalog read kmsg's magic %d message wrongly (-want +got):\n%s", m.Magic, diff)
		}
		if crc := binary.BigEndian.Uint32(theirs[12:]); crc != m.CRC {
			t.Fatalf("kmsg message CRC 0x%08x, kafkalog computed 0x%08x", crc, m.CRC)
		}
		var k kmsg.MessageV1 // reads magic 0 too, but for the timestamp
		if m.Magic == 0 {
			var k0 kmsg.MessageV0
			if err := k0.ReadFrom(ours); err != nil {
				t.Fatalf("kmsg rejected kafkalog's magic 0 message: %v", err)
			}
			k = kmsg.MessageV1{Offset: k0.Offset, MessageSize: k0.MessageSize, CRC: k0.CRC, Magic: k0.Magic, Attributes: k0.Attributes, Timestamp: kafkalog.NoTimestamp, Key: k0.Key, Value: k0.Value}
		} else if err := k.ReadFrom(ours); err != nil {
			t.Fatalf("kmsg rejected kafkalog's magic 1 message: %v", err)
		}
		kgot := kafkalog.LegacyMessage{Offset: k.Offset, MessageSize: k.MessageSize, CRC: uint32(k.CRC), Magic: k.Magic, Attributes: k.Attributes, Timestamp: k.Timestamp, Key: k.Key, Value: k.Value}
		if diff := cmp.Diff(want, kgot); diff != "" {
			t.Fatalf("kmsg read kafkalog's magic %d message to something else (-want +got):\n%s", m.Magic, diff)
		}
	})
}
