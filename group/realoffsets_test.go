package group_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/fixtures"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// realOffsetsDirs returns the __consumer_offsets-N directories of the real
// broker fixture sets named by KAFKALIVE_EXTRA_FIXTURES (see
// internal/fixtures; they are not redistributed with the repository, so
// the test skips without them).
func realOffsetsDirs(t *testing.T) []string {
	t.Helper()
	return fixtures.Glob(t, filepath.Join("*", "__consumer_offsets-*"))
}

// TestRealConsumerOffsets reads every record of the __consumer_offsets
// segments written by real brokers (Kafka 2.4/2.5 and 2.7.1): offset commits
// decode, group metadata records decode (and version 3 writes back byte for
// byte), and every group
// lives in the partition OffsetsPartition computes (Java's hashCode, 50
// partitions).
func TestRealConsumerOffsets(t *testing.T) {
	commits, tombstones, metadata := 0, 0, 0
	for _, dir := range realOffsetsDirs(t) {
		want, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "__consumer_offsets-"))
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
		for _, path := range logs {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for pos := 0; pos < len(data); {
				b, n, err := kafkalog.ReadBatch(data[pos:])
				if err != nil {
					t.Fatalf("%s at %d: %v", path, pos, err)
				}
				pos += n
				if b.Attributes.IsControl() {
					continue
				}
				for _, r := range b.Records {
					rec, err := group.ReadOffsetCommit(r.Key, r.Value)
					switch {
					case errors.Is(err, group.ErrNotOffsetCommit):
						metadata++
						checkGroupMetadataRecord(t, path, r.Key, r.Value)
						continue
					case err != nil:
						t.Fatalf("%s offset %d: key %x value %x: %v", path, b.BaseOffset+int64(r.OffsetDelta), r.Key, r.Value, err)
					case rec.Tombstone:
						tombstones++
					default:
						commits++
					}
					if p, _ := group.OffsetsPartition(rec.Group, 50); int(p) != want {
						t.Errorf("%s: group %q is in partition %d but OffsetsPartition says %d", path, rec.Group, want, p)
					}
				}
			}
		}
	}
	t.Logf("read %d offset commits, %d tombstones, %d group metadata records", commits, tombstones, metadata)
	if commits == 0 {
		t.Fatal("no offset commit found in the fixtures: the test is not looking at them")
	}
}

// checkGroupMetadataRecord decodes a group metadata record a real broker
// wrote; a version-3 value (what Kafka 2.3 to 3.7 write) must write back
// as the same bytes.
func checkGroupMetadataRecord(t *testing.T, path string, key, value []byte) {
	t.Helper()
	g, err := group.ReadGroupMetadataKey(key)
	if err != nil {
		t.Fatalf("%s: key %x: %v", path, key, err)
	}
	if value == nil {
		return
	}
	v, err := group.ReadGroupMetadataValue(value)
	if err != nil {
		t.Fatalf("%s: group %q: value %x: %v", path, g, value, err)
	}
	if v.Version != 3 {
		return
	}
	if got := group.AppendGroupMetadataValue(nil, v); !bytes.Equal(got, value) {
		t.Errorf("%s: group %q written back as\n%x\nread from\n%x", path, g, got, value)
	}
}

// TestSampleGroupMetadata reads the group metadata records of the sample
// __consumer_offsets partition shipped with the command's tests (written
// by a Kafka 3.x broker).
func TestSampleGroupMetadata(t *testing.T) {
	path := filepath.Join("..", "cmd", "kafkalive", "testdata", "sample", "__consumer_offsets-39", "00000000000000000000.log")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for pos := 0; pos < len(data); {
		b, size, err := kafkalog.ReadBatch(data[pos:])
		if err != nil {
			t.Fatalf("%s at %d: %v", path, pos, err)
		}
		pos += size
		for _, r := range b.Records {
			if _, err := group.ReadOffsetCommit(r.Key, r.Value); errors.Is(err, group.ErrNotOffsetCommit) && !b.Attributes.IsControl() {
				checkGroupMetadataRecord(t, path, r.Key, r.Value)
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no group metadata record in the sample: the test is not looking at it")
	}
}
