package group_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// javaUUIDMemberID is Kafka's classic member id: the prefix, "-", and a
// java.util.UUID.randomUUID (version 4, IETF variant, 8-4-4-4-12 hex).
var javaUUIDMemberID = regexp.MustCompile(`^(.+)-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// joinIDs has n dynamic members (client.id c) and one static member (i)
// join group g at a coordinator seeded with seed, and returns the ids
// handed out.
func joinIDs(t require.TestingT, seed uint64, n int) []string {
	cfg := group.DefaultConfig()
	cfg.MemberIDSeed = seed
	c, err := group.NewCoordinator(cfg, &group.MemoryOffsetStore{}, 0)
	require.NoError(t, err)
	var ids []string
	for i := range n + 1 {
		r := rangeJoin("g", "", "")
		if i == n {
			r = rangeJoin("g", "", "i")
		}
		require.NoError(t, c.Step("a", r))
		for _, o := range c.Ready().Responses {
			if j, ok := o.Response.(group.JoinGroupResponse); ok && j.MemberID != "" {
				ids = append(ids, j.MemberID)
			}
		}
	}
	st, ok := c.Group("g")
	require.True(t, ok)
	for _, m := range st.Members {
		if m.GroupInstanceID == "i" {
			ids = append(ids, m.MemberID) // joined at once, answered after the join phase
		}
	}
	return ids
}

// TestMemberIDsAreKafkas: with a seed, every member id is the client.id
// (a static member's group.instance.id) followed by a random UUID as
// Kafka 3.7 and 4.x make them; ids never repeat; the same seed gives the
// same ids, another seed others.
func TestMemberIDsAreKafkas(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Min(1).Draw(t, "seed")
		n := rapid.IntRange(1, 20).Draw(t, "members")
		ids := joinIDs(t, seed, n)
		if len(ids) != n+1 {
			t.Fatalf("%d joins handed out %d ids: %v", n+1, len(ids), ids)
		}
		seen := map[string]bool{}
		for i, id := range ids {
			m := javaUUIDMemberID.FindStringSubmatch(id)
			want := "c"
			if i == n {
				want = "i"
			}
			if m == nil || m[1] != want {
				t.Fatalf("member id %q is not %s-<java.util.UUID>", id, want)
			}
			if seen[id] {
				t.Fatalf("member id %s handed out twice", id)
			}
			seen[id] = true
		}
		again := joinIDs(t, seed, n)
		if !slices.Equal(ids, again) {
			t.Fatalf("the same seed gave %v, then %v", ids, again)
		}
		if other := joinIDs(t, seed+1, n); other[0] == ids[0] {
			t.Fatalf("seeds %d and %d gave the same first id %s", seed, seed+1, ids[0])
		}
	})
}
