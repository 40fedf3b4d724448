package bench

import (
	"bytes"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// TestDifferentialTxnMarker: an end-transaction marker batch (COMMIT or ABORT)
// built by kafkalog equals, byte for byte, the one built from kmsg's
// ControlRecordKey and EndTxnMarker, and each side parses the other's key and
// value.
func TestDifferentialTxnMarker(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := rapid.Int64Min(0).Draw(t, "baseOffset")
		ts := rapid.Int64().Draw(t, "timestamp")
		pid := rapid.Int64Range(0, 1<<40).Draw(t, "producerId")
		pepoch := rapid.Int16Min(0).Draw(t, "producerEpoch")
		typ := rapid.SampledFrom([]kafkalog.ControlRecordType{kafkalog.ControlAbort, kafkalog.ControlCommit}).Draw(t, "marker")
		coord := rapid.Int32().Draw(t, "coordinatorEpoch")

		ob := kafkalog.NewEndTxnMarkerBatch(base, ts, pid, pepoch, typ, coord)
		ours := ob.AppendTo(nil)

		kkey := kmsg.ControlRecordKey{Type: kmsg.ControlRecordKeyType(typ)}
		kval := kmsg.EndTxnMarker{CoordinatorEpoch: coord}
		kh := kmsg.RecordBatch{
			FirstOffset: base, PartitionLeaderEpoch: -1, Attributes: 0x30,
			FirstTimestamp: ts, MaxTimestamp: ts, ProducerID: pid, ProducerEpoch: pepoch, FirstSequence: -1,
		}
		theirs := KmsgAppendBatch(nil, kh, []kmsg.Record{{Key: kkey.AppendTo(nil), Value: kval.AppendTo(nil)}})
		if !bytes.Equal(ours, theirs) {
			t.Fatalf("kafkalog's %s marker batch differs from kmsg's: %s", typ, firstDiff(ours, theirs))
		}

		got, _, err := kafkalog.ReadBatch(theirs)
		if err != nil || len(got.Records) != 1 {
			t.Fatalf("kafkalog could not read kmsg's %s marker batch (%d records): %v", typ, len(got.Records), err)
		}
		if !got.Attributes.IsControl() || !got.Attributes.IsTransactional() {
			t.Fatalf("kmsg's marker batch reads with attributes %s, want transactional|control", got.Attributes)
		}
		key, err := kafkalog.ParseControlRecordKey(got.Records[0].Key)
		if err != nil || key.Type != typ {
			t.Fatalf("kafkalog parsed kmsg's control key as %+v (%v), want type %s", key, err, typ)
		}
		m, err := kafkalog.ParseEndTxnMarker(got.Records[0].Value)
		if err != nil || m.CoordinatorEpoch != coord {
			t.Fatalf("kafkalog parsed kmsg's marker as %+v (%v), want coordinator epoch %d", m, err, coord)
		}

		var kd KmsgDecoder
		if err := kd.Decode(ours); err != nil || len(kd.Records) != 1 {
			t.Fatalf("kmsg could not read kafkalog's %s marker batch: %v", typ, err)
		}
		var k2 kmsg.ControlRecordKey
		var v2 kmsg.EndTxnMarker
		if err := k2.ReadFrom(kd.Records[0].Key); err != nil || k2.Type != kkey.Type {
			t.Fatalf("kmsg parsed kafkalog's control key as %+v (%v), want type %d", k2, err, typ)
		}
		if err := v2.ReadFrom(kd.Records[0].Value); err != nil || v2.CoordinatorEpoch != coord {
			t.Fatalf("kmsg parsed kafkalog's marker as %+v (%v), want coordinator epoch %d", v2, err, coord)
		}
	})
}
