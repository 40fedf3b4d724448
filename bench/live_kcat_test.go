package bench

import (
	"context"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// TestLiveKcat: kcat (librdkafka), when installed, lists the live world's
// three brokers and its topics, and round-trips keyed records through a
// topic it created with kgo: kcat -P, then kcat -C from the beginning.
func TestLiveKcat(t *testing.T) {
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		t.Skip("kcat is not installed (apt-get install kcat)")
	}
	lc := startLive(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bootstrap := lc.srv.Addr(1).String()
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, kcat, append([]string{"-b", bootstrap}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "kcat %v:\n%s", args, out)
		return string(out)
	}
	list := run("", "-L")
	for _, want := range []string{" 3 brokers:", "broker 1 at " + lc.srv.Addr(1).String(), "broker 2 at " + lc.srv.Addr(2).String(),
		"broker 3 at " + lc.srv.Addr(3).String(), `topic "orders" with 3 partitions:`, `topic "profiles" with 1 partitions:`} {
		require.Contains(t, list, want, "kcat -L")
	}
	createTopic(t, ctx, lc.client(t), "kcat", 2)
	lines := []string{"a:one", "b:two", "c:three", "a:four", "d:"}
	run(strings.Join(lines, "\n")+"\n", "-P", "-t", "kcat", "-K:", "-X", "acks=all")
	got := strings.Split(strings.TrimSpace(run("", "-C", "-t", "kcat", "-o", "beginning", "-e", "-q", "-K:", "-f", "%p %o %k:%s\n")), "\n")
	// per partition in offset order; the partitions' order is kcat's
	byPartition := map[string][]string{}
	for _, g := range got {
		f := strings.SplitN(g, " ", 3)
		require.Len(t, f, 3, "kcat -C line %q", g)
		byPartition[f[0]] = append(byPartition[f[0]], f[1]+" "+f[2])
	}
	var all []string
	for _, p := range []string{"0", "1"} {
		for i, r := range byPartition[p] {
			off, rec, _ := strings.Cut(r, " ")
			require.Equal(t, strings.TrimSpace(off), strconv.Itoa(i), "partition %s's offsets", p)
			all = append(all, rec)
		}
	}
	slices.Sort(all)
	want := append([]string(nil), lines...)
	slices.Sort(want)
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("kcat -C read (-want +got):\n%s", diff)
	}
}
