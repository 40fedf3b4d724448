package scenarios

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

// A wipe names a broker and the path= under its log dir; without the path,
// or with more words, it is refused.
func TestParseWipe(t *testing.T) {
	got, err := parseAction("wipe 2 path=orders-0")
	require.NoError(t, err)
	if diff := cmp.Diff(cluster.Action{Kind: cluster.ActWipe, Partition: -1, Broker: 2, Name: "orders-0"}, got); diff != "" {
		t.Errorf("parseAction (-want +got):\n%s", diff)
	}
	for _, line := range []string{"wipe 2", "wipe path=orders-0", "wipe 2 path=orders-0 torn"} {
		if _, err := parseAction(line); !errors.Is(err, ErrSyntax) {
			t.Errorf("parseAction(%q): %v, want ErrSyntax", line, err)
		}
	}
}
