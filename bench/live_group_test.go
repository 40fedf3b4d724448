package bench

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/web"
)

// groupRun is a set of kgo group consumers polling in goroutines,
// collecting what they read by partition and offset.
type groupRun struct {
	mu      sync.Mutex
	got     map[[2]int64]string // {partition, offset} -> value
	reads   int
	clients []*kgo.Client
	wg      sync.WaitGroup
	cancel  context.CancelFunc
}

func (lc *liveCluster) startGroup(t *testing.T, groupID, topic string, balancer kgo.GroupBalancer, names ...string) *groupRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	g := &groupRun{got: map[[2]int64]string{}, cancel: cancel}
	for _, name := range names {
		cl := lc.client(t, kgo.ClientID(name), kgo.ConsumerGroup(groupID), kgo.ConsumeTopics(topic), kgo.Balancers(balancer),
			kgo.DisableAutoCommit(), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		g.clients = append(g.clients, cl)
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			for ctx.Err() == nil {
				fs := cl.PollFetches(ctx)
				g.mu.Lock()
				fs.EachRecord(func(r *kgo.Record) {
					g.got[[2]int64{int64(r.Partition), r.Offset}] = string(r.Value)
					g.reads++
				})
				g.mu.Unlock()
			}
		}()
	}
	return g
}

func (g *groupRun) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.got)
}

// stop commits what each consumer read and closes them (LeaveGroup).
func (g *groupRun) stop(t *testing.T) {
	t.Helper()
	g.cancel()
	g.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, cl := range g.clients {
		require.NoError(t, cl.CommitUncommittedOffsets(ctx))
		cl.Close()
	}
}

// produceValues produces n records with random keys to topic and returns
// them by {partition, offset}.
func produceValues(t *testing.T, ctx context.Context, p *kgo.Client, rng *rand.Rand, topic string, from, n int) map[[2]int64]string {
	t.Helper()
	out := map[[2]int64]string{}
	for i := from; i < from+n; i++ {
		r := &kgo.Record{Topic: topic, Key: fmt.Appendf(nil, "k%d", rng.IntN(50)), Value: fmt.Appendf(nil, "v%05d", i)}
		require.NoError(t, p.ProduceSync(ctx, r).FirstErr(), "record %d", i)
		out[[2]int64{int64(r.Partition), r.Offset}] = string(r.Value)
	}
	return out
}

// TestLiveKgoConsumerGroups: two franz-go consumers in one group of the
// live world, for the cooperative-sticky and the range balancer: they join
// through the world's coordinator, both get partitions, consume every
// record produced, commit and leave; kafka-consumer-groups --describe
// shows them with their client ids and hosts while they run, and a lag of
// 0 after the commit; two new consumers in the same group resume from the
// commits and read only what was produced since.
func TestLiveKgoConsumerGroups(t *testing.T) {
	for _, tc := range []struct {
		name     string
		balancer kgo.GroupBalancer
	}{
		{"cooperative-sticky", kgo.CooperativeStickyBalancer()},
		{"range", kgo.RangeBalancer()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seedOf(t, "TestLiveKgoConsumerGroups/"+tc.name), 3))
			lc := startLive(t, 2)
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			topic, groupID := "grp-"+tc.name, "kgo-"+tc.name
			admin := lc.client(t)
			createTopic(t, ctx, admin, topic, 4)
			p := lc.client(t, kgo.ClientID("kgo-group-producer"))
			want := produceValues(t, ctx, p, rng, topic, 0, 120)

			g := lc.startGroup(t, groupID, topic, tc.balancer, tc.name+"-a", tc.name+"-b")
			require.Eventually(t, func() bool { return g.count() == len(want) }, 60*time.Second, 20*time.Millisecond, "every record consumed")
			g.mu.Lock()
			for k, v := range want {
				require.Equal(t, v, g.got[k], "record at partition %d offset %d", k[0], k[1])
			}
			g.mu.Unlock()

			// both members Stable with partitions (the world's view)
			var describe string
			require.Eventually(t, func() bool {
				ok := false
				lc.world(t, func(w *cluster.World) error {
					for _, gi := range w.State().Groups {
						if gi.Name != groupID || gi.State != "Stable" || len(gi.Members) != 2 {
							continue
						}
						ok = len(gi.Members[0].Partitions) > 0 && len(gi.Members[1].Partitions) > 0 &&
							len(gi.Members[0].Partitions)+len(gi.Members[1].Partitions) == 4
					}
					return nil
				})
				return ok
			}, 30*time.Second, 50*time.Millisecond, "two Stable members sharing the four partitions")
			describe = groupsDescribe(t, lc, groupID)
			t.Logf("while they run:\n%s", describe)
			for _, s := range []string{tc.name + "-a", tc.name + "-b", "/127.0.0.1"} {
				require.Contains(t, describe, s, "kafka-consumer-groups --describe:\n%s", describe)
			}
			g.stop(t)

			lc.world(t, func(w *cluster.World) error {
				for _, gi := range w.State().Groups {
					if gi.Name != groupID {
						continue
					}
					require.Len(t, gi.Offsets, 4)
					for _, o := range gi.Offsets {
						require.Equal(t, int64(0), o.Lag, "%s-%d committed %d of %d", o.Topic, o.Partition, o.Committed, o.LogEndOffset)
					}
				}
				require.Empty(t, w.InternalErrors())
				return nil
			})
			describe = groupsDescribe(t, lc, groupID)
			t.Logf("after the commit:\n%s", describe)

			more := produceValues(t, ctx, p, rng, topic, 120, 40)
			g2 := lc.startGroup(t, groupID, topic, tc.balancer, tc.name+"-c", tc.name+"-d")
			require.Eventually(t, func() bool { return g2.count() == len(more) }, 60*time.Second, 20*time.Millisecond, "the records produced since the commit")
			time.Sleep(500 * time.Millisecond)
			g2.mu.Lock()
			for k, v := range g2.got {
				require.Equal(t, more[k], v, "the second pair read partition %d offset %d (committed before)", k[0], k[1])
			}
			g2.mu.Unlock()
			g2.stop(t)
			lc.world(t, func(w *cluster.World) error {
				require.Empty(t, w.InternalErrors())
				return nil
			})
		})
	}
}

// groupsDescribe runs kafka-consumer-groups --describe in the live
// world's terminal.
func groupsDescribe(t *testing.T, lc *liveCluster, groupID string) string {
	t.Helper()
	var out bytes.Buffer
	err := lc.live.Exec(context.Background(), web.NewTerminal(lc.live), "kafka-consumer-groups --describe --group "+groupID, nil, &out)
	require.NoError(t, err, out.String())
	return strings.TrimSpace(out.String())
}

// TestLiveKcatConsumerGroup: kcat's balanced consumer (librdkafka, -G)
// joins a group of the live world, reads every record and commits; the
// world's coordinator shows the group's commits with no lag. Skipped
// when kcat is not installed.
func TestLiveKcatConsumerGroup(t *testing.T) {
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		t.Skip("kcat is not installed (apt-get install -y kcat)")
	}
	rng := rand.New(rand.NewPCG(seedOf(t, "TestLiveKcatConsumerGroup"), 4))
	lc := startLive(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const topic, groupID = "kcat-grp", "kcat-group"
	admin := lc.client(t)
	createTopic(t, ctx, admin, topic, 3)
	p := lc.client(t, kgo.ClientID("kcat-group-producer"))
	want := produceValues(t, ctx, p, rng, topic, 0, 30)

	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, kcat, "-b", lc.srv.Addr(1).String(), "-X", "client.id=kcat-member", "-X", "auto.offset.reset=earliest",
		"-X", "enable.auto.commit=true", "-X", "auto.commit.interval.ms=200", "-G", groupID, "-e", "-q", "-f", "%p %o %s\n", topic)
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Run(), "kcat -G: %s", errb.String())
	got := map[[2]int64]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var part, off int64
		var v string
		_, err := fmt.Sscanf(line, "%d %d %s", &part, &off, &v)
		require.NoError(t, err, "line %q", line)
		got[[2]int64{part, off}] = v
	}
	require.Equal(t, want, got)
	describe := groupsDescribe(t, lc, groupID)
	t.Logf("after kcat:\n%s", describe)
	lc.world(t, func(w *cluster.World) error {
		for _, gi := range w.State().Groups {
			if gi.Name == groupID {
				require.Len(t, gi.Offsets, 3)
				for _, o := range gi.Offsets {
					require.Equal(t, int64(0), o.Lag, "%s-%d committed %d of %d", o.Topic, o.Partition, o.Committed, o.LogEndOffset)
				}
			}
		}
		require.Empty(t, w.InternalErrors())
		return nil
	})
}
