package group_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

func strPtr(s string) *string { return &s }

// TestGroupMetadataRecordBytes spells out one record field by field
// (GroupMetadataKey v2, GroupMetadataValue v3).
func TestGroupMetadataRecordBytes(t *testing.T) {
	v := group.GroupMetadataValue{Version: 3, ProtocolType: "consumer", Generation: 7, Protocol: strPtr("range"), Leader: strPtr("c-1"),
		CurrentStateTimestampMs: 1000, Members: []group.GroupMetadataMember{{
			MemberID: "c-1", ClientID: "c", ClientHost: "/h", RebalanceTimeoutMs: 300000, SessionTimeoutMs: 45000,
			Subscription: []byte{1, 2}, Assignment: []byte{},
		}}}
	wantKey := mustHex(t, "0002"+"0001"+"67")
	wantValue := mustHex(t, "0003"+"0008"+"636f6e73756d6572"+"00000007"+"0005"+"72616e6765"+"0003"+"632d31"+"00000000000003e8"+
		"00000001"+"0003"+"632d31"+"ffff"+"0001"+"63"+"0002"+"2f68"+"000493e0"+"0000afc8"+"00000002"+"0102"+"00000000")
	if diff := cmp.Diff(wantKey, group.AppendGroupMetadataKey(nil, "g")); diff != "" {
		t.Errorf("key bytes (-want +got):\n%s", diff)
	}
	value := group.AppendGroupMetadataValue(nil, v)
	if diff := cmp.Diff(wantValue, value); diff != "" {
		t.Errorf("value bytes (-want +got):\n%s", diff)
	}
	got, err := group.ReadGroupMetadataValue(value)
	if err != nil {
		t.Fatalf("ReadGroupMetadataValue: %v", err)
	}
	if diff := cmp.Diff(v, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	g, err := group.ReadGroupMetadataKey(wantKey)
	if err != nil || g != "g" {
		t.Errorf("ReadGroupMetadataKey = %q, %v; want g", g, err)
	}
}

func TestReadGroupMetadataKeyKinds(t *testing.T) {
	commit := group.AppendOffsetCommitKey(nil, "g", group.TopicPartition{Topic: "t"})
	if _, err := group.ReadGroupMetadataKey(commit); !errors.Is(err, group.ErrNotGroupMetadata) {
		t.Errorf("offset commit key: %v, want ErrNotGroupMetadata", err)
	}
	epoch := group.AppendConsumerGroupRecordKey(nil, group.ConsumerGroupRecord{Type: group.ConsumerGroupMetadataType, Group: "g"})
	if _, err := group.ReadGroupMetadataKey(epoch); !errors.Is(err, group.ErrNotGroupMetadata) {
		t.Errorf("consumer group metadata key: %v, want ErrNotGroupMetadata", err)
	}
	for _, k := range [][]byte{nil, {0xff, 0xff, 0, 0}, {0, 2, 0, 5, 'a'}, {0, 2, 0, 1, 'a', 'b'}} {
		if _, err := group.ReadGroupMetadataKey(k); !errors.Is(err, group.ErrCorruptOffsetRecord) {
			t.Errorf("key %x: %v, want ErrCorruptOffsetRecord", k, err)
		}
	}
}

// drawKmsgValue draws a GroupMetadataValue of version (kmsg's type).
func drawKmsgValue(t *rapid.T, version int16) kmsg.GroupMetadataValue {
	str := rapid.StringMatching(`[a-z0-9/.-]{0,12}`)
	nullable := func(label string) *string {
		if rapid.Bool().Draw(t, label+" null") {
			return nil
		}
		return strPtr(str.Draw(t, label))
	}
	v := kmsg.NewGroupMetadataValue()
	v.Version = version
	v.ProtocolType = str.Draw(t, "protocolType")
	v.Generation = rapid.Int32().Draw(t, "generation")
	v.Protocol, v.Leader = nullable("protocol"), nullable("leader")
	if version >= 2 {
		v.CurrentStateTimestamp = rapid.Int64().Draw(t, "currentStateTimestamp")
	}
	for i := range rapid.IntRange(0, 4).Draw(t, "members") {
		_ = i
		m := kmsg.NewGroupMetadataValueMember()
		m.MemberID, m.ClientID, m.ClientHost = str.Draw(t, "memberId"), str.Draw(t, "clientId"), str.Draw(t, "clientHost")
		if version >= 3 {
			m.InstanceID = nullable("groupInstanceId")
		}
		if version >= 1 {
			m.RebalanceTimeoutMillis = rapid.Int32().Draw(t, "rebalanceTimeout")
		}
		m.SessionTimeoutMillis = rapid.Int32().Draw(t, "sessionTimeout")
		m.Subscription = rapid.SliceOfN(rapid.Byte(), 0, 16).Draw(t, "subscription")
		m.Assignment = rapid.SliceOfN(rapid.Byte(), 0, 16).Draw(t, "assignment")
		v.Members = append(v.Members, m)
	}
	return v
}

func fromKmsg(k kmsg.GroupMetadataValue) group.GroupMetadataValue {
	v := group.GroupMetadataValue{Version: k.Version, ProtocolType: k.ProtocolType, Generation: k.Generation, Protocol: k.Protocol, Leader: k.Leader,
		CurrentStateTimestampMs: k.CurrentStateTimestamp}
	for _, m := range k.Members {
		v.Members = append(v.Members, group.GroupMetadataMember{MemberID: m.MemberID, GroupInstanceID: m.InstanceID, ClientID: m.ClientID,
			ClientHost: m.ClientHost, RebalanceTimeoutMs: m.RebalanceTimeoutMillis, SessionTimeoutMs: m.SessionTimeoutMillis,
			Subscription: append([]byte{}, m.Subscription...), Assignment: append([]byte{}, m.Assignment...)})
	}
	return v
}

// TestGroupMetadataValueMatchesKmsg: the value of every version franz-go's
// kmsg writes reads back as kmsg has it, and version 3 (what Kafka 3.7
// writes) is written byte for byte as kmsg writes it.
func TestGroupMetadataValueMatchesKmsg(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		version := rapid.Int16Range(0, 4).Draw(t, "version")
		k := drawKmsgValue(t, version)
		b := k.AppendTo(nil)
		got, err := group.ReadGroupMetadataValue(b)
		if err != nil {
			t.Fatalf("ReadGroupMetadataValue(%x): %v", b, err)
		}
		if diff := cmp.Diff(fromKmsg(k), got); diff != "" {
			t.Fatalf("decoded (-kmsg +ours):\n%s", diff)
		}
		if version != 3 {
			return
		}
		if diff := cmp.Diff(b, group.AppendGroupMetadataValue(nil, got)); diff != "" {
			t.Fatalf("encoded (-kmsg +ours):\n%s", diff)
		}
		key := kmsg.NewGroupMetadataKey()
		key.Version, key.Group = 2, rapid.String().Draw(t, "group")
		if diff := cmp.Diff(key.AppendTo(nil), group.AppendGroupMetadataKey(nil, key.Group)); diff != "" {
			t.Fatalf("key (-kmsg +ours):\n%s", diff)
		}
	})
}

// FuzzReadGroupMetadataValue: any bytes decode or fail with
// ErrCorruptOffsetRecord, never panic; what decodes, kmsg decodes alike,
// and a value written back reads the same (Kafka reads any negative
// length as null, so the bytes may differ: a null is written as -1).
func FuzzReadGroupMetadataValue(f *testing.F) {
	f.Add(mustHexF("0003" + "0008" + "636f6e73756d6572" + "00000007" + "ffff" + "ffff" + "00000000000003e8" + "00000000"))
	f.Add(group.AppendGroupMetadataValue(nil, group.GroupMetadataValue{ProtocolType: "consumer", Generation: 2, Protocol: strPtr("range"),
		Leader: strPtr("a"), Members: []group.GroupMetadataMember{{MemberID: "a", GroupInstanceID: strPtr("i"), Subscription: []byte{0}}}}))
	f.Add([]byte{0, 4, 1, 0, 0, 0, 1, 0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := group.ReadGroupMetadataValue(b)
		if err != nil {
			if !errors.Is(err, group.ErrCorruptOffsetRecord) {
				t.Fatalf("error %v does not wrap ErrCorruptOffsetRecord", err)
			}
			return
		}
		k := kmsg.NewGroupMetadataValue()
		if kerr := k.ReadFrom(b); kerr != nil {
			t.Fatalf("ours decodes %x, kmsg does not: %v", b, kerr)
		}
		if diff := cmp.Diff(fromKmsg(k), v); diff != "" {
			t.Fatalf("decoded %x (-kmsg +ours):\n%s", b, diff)
		}
		again, err := group.ReadGroupMetadataValue(group.AppendGroupMetadataValue(nil, v))
		v.Version = 3
		if err != nil {
			t.Fatalf("written back, %+v does not read: %v", v, err)
		}
		if diff := cmp.Diff(v, again); diff != "" {
			t.Fatalf("written back (-decoded +again):\n%s", diff)
		}
	})
}

func mustHexF(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
