package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

// A fetch fact compares the parts it names of a broker's counters of its reads
// for consumers' fetches; a fact about no broker, or with a key it does not
// know, is a syntax error.
func TestFetchFacts(t *testing.T) {
	st := cluster.State{Brokers: []cluster.BrokerInfo{
		{ID: 1, FetchReads: 100, FetchScannedBatches: 127, FetchScannedBytes: 37061, LastFetchOffset: 40, LastFetchFirstBatch: 38},
		{ID: 2},
	}}
	tests := []struct {
		fact, wantGot string
		wantMatch     bool
	}{
		{"fetch b1 reads=100 scanned=127", "reads=100 scanned=127", true},
		{"fetch b1: scanned-bytes=37061 last-fetch=40 first-batch=38", "scanned-bytes=37061 last-fetch=40 first-batch=38", true},
		{"fetch b1 first-batch=40", "first-batch=38", false},
		{"fetch b2 reads=0", "reads=0", true},
		{"fetch b3 reads=0", "no broker b3", false},
	}
	for _, tc := range tests {
		f, err := parseFact(tc.fact, nil, nil)
		require.NoError(t, err, tc.fact)
		c := checker{sc: &Scenario{}, st: st}.check(f)
		if diff := cmp.Diff([]any{tc.wantGot, tc.wantMatch}, []any{c.Got, c.Match}); diff != "" {
			t.Errorf("%s: got, match (-want +got):\n%s", tc.fact, diff)
		}
	}
	for _, bad := range []string{"fetch reads=1", "fetch x1 reads=1", "fetch b1 bogus=1", "fetch b1"} {
		if _, err := parseFact(bad, nil, nil); err == nil {
			t.Errorf("parseFact(%q) took it", bad)
		}
	}
}
