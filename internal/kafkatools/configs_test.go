package kafkatools

import (
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

// TestParseConfigsToBeAdded reads --add-config as Kafka 3.7's
// ConfigCommand.parseConfigsToBeAdded does (the cases of its
// ConfigCommandTest, and its help's square brackets).
func TestParseConfigsToBeAdded(t *testing.T) {
	type kv struct{ K, V string }
	for _, tc := range []struct {
		in      string
		want    []kv
		wantErr string
	}{
		{in: "a=b,c=d", want: []kv{{"a", "b"}, {"c", "d"}}},
		{in: "a=b,c=,d=e,f=", want: []kv{{"a", "b"}, {"c", ""}, {"d", "e"}, {"f", ""}}},
		{in: "a._-c=b,c=,d=e,f=", want: []kv{{"a._-c", "b"}, {"c", ""}, {"d", "e"}, {"f", ""}}},
		{in: "k1=v1,k2=[v1,v2,v2],k3=v3", want: []kv{{"k1", "v1"}, {"k2", "v1,v2,v2"}, {"k3", "v3"}}},
		{in: "cleanup.policy=[compact,delete]", want: []kv{{"cleanup.policy", "compact,delete"}}},
		{in: " a = b , c=[x=y]", want: []kv{{"a", "b"}, {"c", "x=y"}}},
		{in: "a=1,a=2,b=3", want: []kv{{"a", "2"}, {"b", "3"}}},
		{in: "a=1,", want: []kv{{"a", "1"}}},
		{in: ",", want: nil},
		{in: "a;c=b", wantErr: "Invalid character found for config key: a;c"},
		{in: "a,=b", wantErr: `requirement failed: Invalid entity config: all configs to be added must be in the format "key=val".`},
		{in: "a=b=c", wantErr: `requirement failed: Invalid entity config: all configs to be added must be in the format "key=val".`},
		{in: "", wantErr: `requirement failed: Invalid entity config: all configs to be added must be in the format "key=val".`},
	} {
		ops, err := parseConfigsToBeAdded(tc.in, io.Discard)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("--add-config %q: error %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		require.NoError(t, err, tc.in)
		var got []kv
		for _, op := range ops {
			if op.Op != cluster.ConfigSet {
				t.Errorf("--add-config %q: %s is a %s, want SET", tc.in, op.Name, op.Op)
			}
			got = append(got, kv{op.Name, *op.Value})
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("--add-config %q (-want +got):\n%s", tc.in, diff)
		}
	}
}
