package group_test

import (
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
// decode, group metadata records are recognised as such, and every group
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
