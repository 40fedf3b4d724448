package group_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOffsetCommitRecordBytes spells out one record field by field
// (OffsetCommitKey v1, OffsetCommitValue v3).
func TestOffsetCommitRecordBytes(t *testing.T) {
	rec := group.OffsetCommitRecord{
		Group:             "g1",
		PartitionOffset:   group.PartitionOffset{TopicPartition: group.TopicPartition{Topic: "t", Partition: 2}, Offset: 10, LeaderEpoch: 3, Metadata: ""},
		CommitTimestampMs: 1000,
	}
	wantKey := mustHex(t, "0001"+"0002"+"6731"+"0001"+"74"+"00000002")
	wantValue := mustHex(t, "0003"+"000000000000000a"+"00000003"+"0000"+"00000000000003e8")
	key := group.AppendOffsetCommitKey(nil, rec.Group, rec.TopicPartition)
	value := group.AppendOffsetCommitValue(nil, rec)
	if diff := cmp.Diff(wantKey, key); diff != "" {
		t.Errorf("key bytes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantValue, value); diff != "" {
		t.Errorf("value bytes (-want +got):\n%s", diff)
	}
	got, err := group.ReadOffsetCommit(key, value)
	if err != nil {
		t.Fatalf("ReadOffsetCommit: %v", err)
	}
	if diff := cmp.Diff(rec, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestReadOffsetCommitVersions(t *testing.T) {
	key := group.AppendOffsetCommitKey(nil, "g", group.TopicPartition{Topic: "t", Partition: 0})
	tests := []struct {
		name  string
		value []byte
		want  group.OffsetCommitRecord
		err   error
	}{
		{"v0: offset, metadata, timestamp", mustHex(t, "0000"+"0000000000000005"+"0002"+"6869"+"0000000000000007"),
			group.OffsetCommitRecord{PartitionOffset: group.PartitionOffset{Offset: 5, LeaderEpoch: -1, Metadata: "hi"}, CommitTimestampMs: 7}, nil},
		{"v1: with expireTimestamp", mustHex(t, "0001"+"0000000000000005"+"0000"+"0000000000000007"+"0000000000000009"),
			group.OffsetCommitRecord{PartitionOffset: group.PartitionOffset{Offset: 5, LeaderEpoch: -1}, CommitTimestampMs: 7}, nil},
		{"tombstone", nil, group.OffsetCommitRecord{Tombstone: true}, nil},
		{"v4 is flexible, not read here", mustHex(t, "0004"), group.OffsetCommitRecord{}, group.ErrCorruptOffsetRecord},
		{"truncated offset", mustHex(t, "0003"+"0000"), group.OffsetCommitRecord{}, group.ErrCorruptOffsetRecord},
		{"trailing bytes", append(group.AppendOffsetCommitValue(nil, group.OffsetCommitRecord{}), 0), group.OffsetCommitRecord{}, group.ErrCorruptOffsetRecord},
		{"negative metadata length", mustHex(t, "0003"+"0000000000000005"+"ffffffff"+"ffff"+"0000000000000007"), group.OffsetCommitRecord{}, group.ErrCorruptOffsetRecord},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := group.ReadOffsetCommit(key, tt.value)
			if !errors.Is(err, tt.err) {
				t.Fatalf("ReadOffsetCommit error = %v; want %v", err, tt.err)
			}
			if tt.err != nil {
				return
			}
			tt.want.Group, tt.want.TopicPartition = "g", group.TopicPartition{Topic: "t"}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ReadOffsetCommit mismatch (-want +got):\n%s", diff)
			}
		})
	}
	groupMetadataKey := mustHex(t, "0002"+"0001"+"67")
	if _, err := group.ReadOffsetCommit(groupMetadataKey, nil); !errors.Is(err, group.ErrNotOffsetCommit) {
		t.Errorf("group metadata key: %v; want ErrNotOffsetCommit", err)
	}
}

// TestOffsetsPartition: Utils.abs(groupId.hashCode()) % 50. "hello".hashCode()
// is Java's well-known 99162322; the others were computed from the same
// definition, including a character outside the BMP (two UTF-16 units).
func TestOffsetsPartition(t *testing.T) {
	want := map[string]int32{"hello": 22, "workers": 41, "eager-g": 28, "coop-g": 35, "profiles": 24, "my-group": 12, "": 0, "gruppe-ü": 22, "😀": 49}
	got := map[string]int32{}
	for g := range want {
		p, err := group.OffsetsPartition(g, 50)
		if err != nil {
			t.Fatal(err)
		}
		got[g] = p
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("OffsetsPartition mismatch (-want +got):\n%s", diff)
	}
	if _, err := group.OffsetsPartition("g", 0); !errors.Is(err, group.ErrInvalidConfig) {
		t.Errorf("OffsetsPartition among 0: %v", err)
	}
}

func offsetRecordRoundTrip(t *rapid.T) {
	rec := group.OffsetCommitRecord{
		Group: rapid.StringN(0, 20, -1).Draw(t, "group"),
		PartitionOffset: group.PartitionOffset{
			TopicPartition: group.TopicPartition{Topic: rapid.StringN(0, 20, -1).Draw(t, "topic"), Partition: rapid.Int32().Draw(t, "partition")},
			Offset:         rapid.Int64().Draw(t, "offset"),
			LeaderEpoch:    rapid.Int32().Draw(t, "leaderEpoch"),
			Metadata:       rapid.StringN(0, 40, -1).Draw(t, "metadata"),
		},
		CommitTimestampMs: rapid.Int64().Draw(t, "commitTimestamp"),
	}
	got, err := group.ReadOffsetCommit(group.AppendOffsetCommitKey(nil, rec.Group, rec.TopicPartition), group.AppendOffsetCommitValue(nil, rec))
	if err != nil {
		t.Fatalf("a record the coordinator wrote does not read back: %v", err)
	}
	if diff := cmp.Diff(rec, got); diff != "" {
		t.Fatalf("offset commit record changed on the way through __consumer_offsets (-wrote +read):\n%s", diff)
	}
}

func TestOffsetRecordRoundTrip(t *testing.T) { rapid.Check(t, offsetRecordRoundTrip) }

// FuzzReadOffsetCommit: no bytes make the decoder panic, and whatever it
// accepts encodes back to a record that reads the same.
func FuzzReadOffsetCommit(f *testing.F) {
	f.Add(group.AppendOffsetCommitKey(nil, "g", group.TopicPartition{Topic: "t"}), group.AppendOffsetCommitValue(nil, group.OffsetCommitRecord{}))
	f.Add([]byte{0, 2, 0, 1, 'g'}, []byte(nil))
	f.Fuzz(func(t *testing.T, key, value []byte) {
		rec, err := group.ReadOffsetCommit(key, value)
		if err != nil || rec.Tombstone {
			return
		}
		again, err := group.ReadOffsetCommit(group.AppendOffsetCommitKey(nil, rec.Group, rec.TopicPartition), group.AppendOffsetCommitValue(nil, rec))
		if err != nil || !cmp.Equal(rec, again) {
			t.Fatalf("accepted %x/%x as %+v, which re-encodes to %+v (%v)", key, value, rec, again, err)
		}
	})
}
