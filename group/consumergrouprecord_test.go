package group_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// TestConsumerGroupRecordBytes spells out one record of each type field by
// field as Kafka 4.0's group-coordinator schemas lay them out
// (ConsumerGroup*Key.json: not flexible, the version names the type;
// ConsumerGroup*Value.json: version 0, flexible: compact strings and
// arrays as an unsigned varint of length+1, 00 for null, uuids as 16
// bytes, a 00 tagged-field count after each struct).
func TestConsumerGroupRecordBytes(t *testing.T) {
	id := strings.Repeat("ab", 16) // a topic id
	for _, tc := range []struct {
		name       string
		rec        group.ConsumerGroupRecord
		key, value string
	}{{
		name:  "group epoch",
		rec:   group.ConsumerGroupRecord{Type: group.ConsumerGroupMetadataType, Group: "g", Epoch: 7},
		key:   "0003" + "0001" + "67",
		value: "0000" + "00000007" + "00",
	}, {
		name: "subscription metadata",
		rec: group.ConsumerGroupRecord{Type: group.ConsumerGroupPartitionMetadataType, Group: "g",
			Topics: []group.TopicMetadata{{Topic: "t", Partitions: 3, ID: topicIDHex(t, id)}}},
		key: "0004" + "0001" + "67",
		// [Topics: TopicId, TopicName "t", NumPartitions 3, PartitionMetadata [] , tags] tags
		value: "0000" + "02" + id + "0274" + "00000003" + "01" + "00" + "00",
	}, {
		name: "member metadata",
		rec: group.ConsumerGroupRecord{Type: group.ConsumerGroupMemberMetadataType, Group: "g", MemberID: "m",
			Member: group.ConsumerMemberMetadata{InstanceID: "i", ClientID: "c", ClientHost: "/h", SubscribedTopicNames: []string{"a", "b"},
				RebalanceTimeoutMs: 300000, ServerAssignor: "uniform"}},
		key: "0005" + "0001" + "67" + "0001" + "6d",
		// InstanceId "i", RackId null, ClientId "c", ClientHost "/h", [a b], regex null,
		// RebalanceTimeoutMs, ServerAssignor "uniform", tags (no ClassicMemberMetadata)
		value: "0000" + "0269" + "00" + "0263" + "032f68" + "03" + "0261" + "0262" + "00" + "000493e0" + "08756e69666f726d" + "00",
	}, {
		name:  "target assignment epoch",
		rec:   group.ConsumerGroupRecord{Type: group.ConsumerGroupTargetAssignmentMetadataType, Group: "g", Epoch: 9},
		key:   "0006" + "0001" + "67",
		value: "0000" + "00000009" + "00",
	}, {
		name: "member's target assignment",
		rec: group.ConsumerGroupRecord{Type: group.ConsumerGroupTargetAssignmentMemberType, Group: "g", MemberID: "m",
			Partitions: []group.TopicIDPartitions{{TopicID: topicIDHex(t, id), Partitions: []int32{0, 2}}}},
		key:   "0007" + "0001" + "67" + "0001" + "6d",
		value: "0000" + "02" + id + "03" + "00000000" + "00000002" + "00" + "00",
	}, {
		name: "member's current assignment",
		rec: group.ConsumerGroupRecord{Type: group.ConsumerGroupCurrentMemberAssignmentType, Group: "g", MemberID: "m",
			Current: group.ConsumerMemberAssignment{MemberEpoch: 5, PreviousMemberEpoch: 4, State: group.MemberUnrevokedPartitions,
				Assigned: []group.TopicIDPartitions{{TopicID: topicIDHex(t, id), Partitions: []int32{1}}}, Revoking: []group.TopicIDPartitions{}}},
		key:   "0008" + "0001" + "67" + "0001" + "6d",
		value: "0000" + "00000005" + "00000004" + "01" + "02" + id + "02" + "00000001" + "00" + "01" + "00",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(mustHex(t, tc.key), group.AppendConsumerGroupRecordKey(nil, tc.rec)); diff != "" {
				t.Errorf("key bytes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(mustHex(t, tc.value), group.AppendConsumerGroupRecordValue(nil, tc.rec)); diff != "" {
				t.Errorf("value bytes (-want +got):\n%s", diff)
			}
			got, err := group.ReadConsumerGroupRecord(mustHex(t, tc.key), mustHex(t, tc.value))
			if err != nil {
				t.Fatalf("ReadConsumerGroupRecord: %v", err)
			}
			if diff := cmp.Diff(tc.rec, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("read back (-want +got):\n%s", diff)
			}
		})
	}
}

func topicIDHex(t *testing.T, s string) [16]byte {
	var id [16]byte
	copy(id[:], mustHex(t, s))
	return id
}

// TestReadConsumerGroupRecordKinds: other records' keys are told apart
// from corrupt bytes, a null value is a tombstone, and a value with a
// tagged field this package does not know (KIP-1101's hash in 4.1's group
// metadata) is read.
func TestReadConsumerGroupRecordKinds(t *testing.T) {
	commit := group.AppendOffsetCommitKey(nil, "g", group.TopicPartition{Topic: "t"})
	for _, k := range [][]byte{commit, group.AppendGroupMetadataKey(nil, "g"), {0, 11, 0, 1, 'g'}} {
		if _, err := group.ReadConsumerGroupRecord(k, nil); !errors.Is(err, group.ErrNotConsumerGroupRecord) {
			t.Errorf("key %x: %v, want ErrNotConsumerGroupRecord", k, err)
		}
	}
	for _, kv := range [][2][]byte{{nil, nil}, {{0xff, 0xff}, nil}, {{0, 3, 0, 5, 'g'}, nil}, {{0, 3, 0, 1, 'g'}, {0, 0, 0, 0}},
		{{0, 3, 0, 1, 'g'}, {0, 1, 0, 0, 0, 1, 0}}, {{0, 7, 0, 1, 'g', 0, 1, 'm'}, {0, 0, 0x7f, 0xff, 0xff, 0xff, 0x0f}}} {
		if _, err := group.ReadConsumerGroupRecord(kv[0], kv[1]); !errors.Is(err, group.ErrCorruptOffsetRecord) {
			t.Errorf("key %x value %x: %v, want ErrCorruptOffsetRecord", kv[0], kv[1], err)
		}
	}
	key := mustHex(t, "0003"+"0001"+"67")
	rec, err := group.ReadConsumerGroupRecord(key, nil)
	if err != nil || !rec.Tombstone || rec.Group != "g" || rec.Type != group.ConsumerGroupMetadataType {
		t.Errorf("tombstone: %+v, %v", rec, err)
	}
	// Epoch 7, then one tagged field: tag 0, 8 bytes.
	rec, err = group.ReadConsumerGroupRecord(key, mustHex(t, "0000"+"00000007"+"01"+"00"+"08"+"0102030405060708"))
	if err != nil || rec.Epoch != 7 {
		t.Errorf("value with a tagged field: %+v, %v", rec, err)
	}
}

// drawConsumerGroupRecord draws any record a coordinator may write.
func drawConsumerGroupRecord(t *rapid.T) group.ConsumerGroupRecord {
	str := rapid.StringMatching(`[a-z0-9.-]{0,8}`)
	types := []group.ConsumerGroupRecordType{group.ConsumerGroupMetadataType, group.ConsumerGroupPartitionMetadataType,
		group.ConsumerGroupMemberMetadataType, group.ConsumerGroupTargetAssignmentMetadataType,
		group.ConsumerGroupTargetAssignmentMemberType, group.ConsumerGroupCurrentMemberAssignmentType}
	r := group.ConsumerGroupRecord{Type: rapid.SampledFrom(types).Draw(t, "type"), Group: str.Draw(t, "group")}
	if r.Type == group.ConsumerGroupMemberMetadataType || r.Type == group.ConsumerGroupTargetAssignmentMemberType ||
		r.Type == group.ConsumerGroupCurrentMemberAssignmentType {
		r.MemberID = str.Draw(t, "member")
	}
	if r.Tombstone = rapid.Bool().Draw(t, "tombstone"); r.Tombstone {
		return r
	}
	id := func(label string) [16]byte {
		var b [16]byte
		copy(b[:], rapid.SliceOfN(rapid.Byte(), 16, 16).Draw(t, label))
		return b
	}
	parts := func(label string) []group.TopicIDPartitions {
		return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) group.TopicIDPartitions {
			return group.TopicIDPartitions{TopicID: id("topic id"), Partitions: rapid.SliceOfN(rapid.Int32(), 0, 5).Draw(t, "partitions")}
		}), 0, 3).Draw(t, label)
	}
	switch r.Type {
	case group.ConsumerGroupMetadataType, group.ConsumerGroupTargetAssignmentMetadataType:
		r.Epoch = rapid.Int32().Draw(t, "epoch")
	case group.ConsumerGroupPartitionMetadataType:
		r.Topics = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) group.TopicMetadata {
			return group.TopicMetadata{Topic: str.Draw(t, "topic"), Partitions: rapid.Int32().Draw(t, "count"), ID: id("id")}
		}), 0, 3).Draw(t, "topics")
	case group.ConsumerGroupMemberMetadataType:
		r.Member = group.ConsumerMemberMetadata{InstanceID: str.Draw(t, "instance"), RackID: str.Draw(t, "rack"),
			ClientID: str.Draw(t, "client"), ClientHost: str.Draw(t, "host"),
			SubscribedTopicNames: rapid.SliceOfN(str, 0, 3).Draw(t, "names"), SubscribedTopicRegex: str.Draw(t, "regex"),
			RebalanceTimeoutMs: rapid.Int32().Draw(t, "rebalance timeout"), ServerAssignor: str.Draw(t, "assignor")}
	case group.ConsumerGroupTargetAssignmentMemberType:
		r.Partitions = parts("target")
	case group.ConsumerGroupCurrentMemberAssignmentType:
		r.Current = group.ConsumerMemberAssignment{MemberEpoch: rapid.Int32().Draw(t, "epoch"), PreviousMemberEpoch: rapid.Int32().Draw(t, "previous"),
			State: group.ConsumerMemberState(rapid.IntRange(0, 2).Draw(t, "state")), Assigned: parts("assigned"), Revoking: parts("revoking")}
	}
	return r
}

// TestConsumerGroupRecordRoundTrip: every record reads back as written.
func TestConsumerGroupRecordRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := drawConsumerGroupRecord(t)
		var value []byte
		if !r.Tombstone {
			value = group.AppendConsumerGroupRecordValue(nil, r)
		}
		got, err := group.ReadConsumerGroupRecord(group.AppendConsumerGroupRecordKey(nil, r), value)
		if err != nil {
			t.Fatalf("a record the codec wrote does not read: %v", err)
		}
		if diff := cmp.Diff(r, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("read back differs (-wrote +read):\n%s", diff)
		}
	})
}

// FuzzReadConsumerGroupRecord: any bytes either read, or fail with
// ErrCorruptOffsetRecord or ErrNotConsumerGroupRecord; never a panic; and
// what reads writes back to a record that reads the same.
func FuzzReadConsumerGroupRecord(f *testing.F) {
	f.Add([]byte{0, 3, 0, 1, 'g'}, []byte{0, 0, 0, 0, 0, 7, 0})
	f.Add([]byte{0, 8, 0, 1, 'g', 0, 1, 'm'}, []byte{0, 0, 0, 0, 0, 5, 0, 0, 0, 4, 1, 1, 1, 0})
	f.Add([]byte{0, 5, 0, 1, 'g', 0, 1, 'm'}, []byte{})
	f.Fuzz(func(t *testing.T, key, value []byte) {
		rec, err := group.ReadConsumerGroupRecord(key, value)
		if err != nil {
			if !errors.Is(err, group.ErrCorruptOffsetRecord) && !errors.Is(err, group.ErrNotConsumerGroupRecord) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		var v2 []byte
		if !rec.Tombstone {
			v2 = group.AppendConsumerGroupRecordValue(nil, rec)
		}
		again, err := group.ReadConsumerGroupRecord(group.AppendConsumerGroupRecordKey(nil, rec), v2)
		if err != nil {
			t.Fatalf("rewritten record does not read: %v", err)
		}
		if diff := cmp.Diff(rec, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("rewritten record differs (-first +again):\n%s", diff)
		}
	})
}
