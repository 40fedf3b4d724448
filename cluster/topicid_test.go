package cluster_test

import (
	"encoding/base64"
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

func topicIDs(t *testing.T, seed uint64, names ...string) (map[string]string, uint64) {
	w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 1})
	require.NoError(t, err)
	for _, n := range names {
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: n, Partitions: 1, ReplicationFactor: 1}))
	}
	out := map[string]string{}
	for _, tp := range w.Topics() {
		out[tp.Name] = tp.ID
	}
	return out, w.Rand().Uint64()
}

func TestTopicIDsAreRandomUUIDsFromTheSeed(t *testing.T) {
	var names []string
	for i := range 200 {
		names = append(names, fmt.Sprintf("t%d", i))
	}
	ids, next := topicIDs(t, 9, names...)
	again, _ := topicIDs(t, 9, names...)
	require.Equal(t, ids, again, "the same seed gives the same topic ids")
	other, _ := topicIDs(t, 10, "t0")
	require.NotEqual(t, ids["t0"], other["t0"], "another seed gives another id")
	_, nextWithout := topicIDs(t, 9)
	require.Equal(t, nextWithout, next, "creating topics does not move the world's generator")
	seen := map[string]bool{}
	for name, id := range ids {
		b, err := base64.RawURLEncoding.DecodeString(id)
		if err != nil || len(b) != 16 || len(id) != 22 || id[0] == '-' {
			t.Fatalf("topic %s has id %q: want 22 characters of base64 for 16 bytes, not starting with '-' (%v)", name, id, err)
		}
		if b[6]>>4 != 4 || b[8]>>6 != 2 {
			t.Fatalf("topic %s's id %q is not a version 4 UUID (bytes 6 and 8: %#x %#x)", name, id, b[6], b[8])
		}
		if seen[id] {
			t.Fatalf("two topics share the id %s", id)
		}
		seen[id] = true
	}
}
