package cluster_test

import (
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

var (
	cprotoSeeds = flag.Int("cproto.n", 4, "sequences of TestConsumerProtocolGroupsRandomized")
	cprotoSeed  = flag.Uint64("cproto.seed", 0, "run only this sequence of TestConsumerProtocolGroupsRandomized")
	cprotoOps   = flag.Int("cproto.ops", 40, "actions per sequence of TestConsumerProtocolGroupsRandomized")
)

// cprotoConsumer is the model of one simulated consumer of the consumer
// group protocol: its group and topics, whether its process runs, and
// until when its application is busy (no poll).
type cprotoConsumer struct {
	group        string
	topics       []string
	running      bool
	stalledUntil int64
}

// cprotoRun is one random sequence of what a user does to consumer-protocol
// groups (KIP-848) in the world: members added, closed, crashed,
// restarted and stalled, partitions added, time run; its model is the
// consumers' processes.
type cprotoRun struct {
	t         *testing.T
	w         *cluster.World
	rng       *rand.Rand
	consumers map[string]*cprotoConsumer
	next      int
	// groupEpoch and memberEpoch are the highest epochs seen, by group and
	// by group/member id: they never go back.
	groupEpoch  map[string]int32
	memberEpoch map[string]int32
	log         []string
}

func (r *cprotoRun) logf(format string, args ...any) {
	r.log = append(r.log, fmt.Sprintf("t=%d ", r.w.NowMs())+fmt.Sprintf(format, args...))
}

// names are the model's consumers, sorted (the draws must not depend on
// map order).
func (r *cprotoRun) names() []string { return slices.Sorted(maps.Keys(r.consumers)) }

// step draws one action and applies it.
func (r *cprotoRun) step() {
	names := r.names()
	pick := func() string {
		if len(names) == 0 {
			return ""
		}
		return names[r.rng.IntN(len(names))]
	}
	switch n := r.rng.IntN(100); {
	case n < 30 || len(names) == 0:
		r.next++
		name := fmt.Sprintf("c%d", r.next)
		g := []string{"g1", "g2"}[r.rng.IntN(2)]
		topics := [][]string{{"orders"}, {"orders"}, {"orders", "audit"}, {"audit"}}[r.rng.IntN(4)]
		assignor := []string{"", "uniform", "range"}[r.rng.IntN(3)]
		cfg := cluster.ConsumerConfig{Name: name, Group: g, Topics: topics, PollIntervalMs: int64(100 + r.rng.IntN(1900)),
			GroupProtocol: cluster.GroupProtocolConsumer, RemoteAssignor: assignor}
		r.logf("add-consumer %s group=%s topics=%s protocol=consumer remote-assignor=%s poll=%d", name, g, strings.Join(topics, ","), assignor, cfg.PollIntervalMs)
		require.NoError(r.t, r.w.AddConsumer(cfg))
		r.consumers[name] = &cprotoConsumer{group: g, topics: topics, running: true}
	case n < 40:
		name := pick()
		r.logf("close-consumer %s", name)
		if err := r.w.CloseConsumer(name); err == nil {
			r.consumers[name].running = false
		}
	case n < 52:
		name := pick()
		r.logf("crash-consumer %s", name)
		if err := r.w.CrashConsumer(name); err == nil {
			r.consumers[name].running = false
		}
	case n < 62:
		name := pick()
		r.logf("restart-consumer %s", name)
		if err := r.w.RestartConsumer(name); err == nil {
			r.consumers[name].running, r.consumers[name].stalledUntil = true, 0
		}
	case n < 67:
		name := pick()
		ms := []int64{2000, 20000, 400000}[r.rng.IntN(3)]
		r.logf("stall-consumer %s ms=%d", name, ms)
		if c := r.consumers[name]; c.running {
			require.NoError(r.t, r.w.StallConsumer(name, ms))
			c.stalledUntil = r.w.NowMs() + ms
		}
	case n < 74:
		g := []string{"g1", "g2"}[r.rng.IntN(2)]
		for _, info := range r.w.Groups() {
			if info.Name == g && info.Coordinator > 0 && r.down() == 0 {
				r.logf("kill %d (the coordinator of %s)", info.Coordinator, g)
				require.NoError(r.t, r.w.Kill(info.Coordinator))
			}
		}
	case n < 78:
		if id := r.down(); id != 0 {
			r.logf("start %d", id)
			require.NoError(r.t, r.w.Start(id))
		}
	case n < 80:
		count := 6 + r.next%5
		r.logf("add-partitions orders count=%d", count)
		_ = r.w.AddPartitions("orders", count) // refused when it would not grow
	default:
		ms := []int64{10, 100, 1000, 5000, 20000, 60000}[r.rng.IntN(6)]
		r.logf("run %d", ms)
		r.run(ms)
	}
	r.check()
}

// down is the broker that is not running (one at most is killed at a
// time, so that the offsets partitions keep a leader), 0 if none.
func (r *cprotoRun) down() int32 {
	for _, b := range r.w.State().Brokers {
		if b.State != "running" {
			return b.ID
		}
	}
	return 0
}

// run moves the clock by ms, checking the invariants every 250 ms (a
// heartbeat, a poll or a revocation takes longer than that to undo an
// overlap, so one would be seen).
func (r *cprotoRun) run(ms int64) {
	for ms > 0 {
		d := min(ms, 250)
		require.NoError(r.t, r.w.RunFor(d))
		ms -= d
		r.check()
	}
}

// check: no internal error; at each coordinator no partition is assigned
// to two members of a group at once (revoke first, assign once
// released), and no two consumers that run and poll read the same
// partition of their group; group and member epochs never go back.
func (r *cprotoRun) check() {
	r.t.Helper()
	require.Empty(r.t, r.w.InternalErrors(), "internal errors")
	for _, g := range r.w.Groups() {
		if g.GroupProtocol != cluster.GroupProtocolConsumer {
			continue
		}
		if g.Generation < r.groupEpoch[g.Name] {
			r.t.Fatalf("group %s went back from epoch %d to %d", g.Name, r.groupEpoch[g.Name], g.Generation)
		}
		r.groupEpoch[g.Name] = g.Generation
		assignedTo, readBy := map[cluster.PartitionRef]string{}, map[cluster.PartitionRef]string{}
		for _, m := range g.Members {
			key := g.Name + "/" + m.ID
			if m.MemberEpoch < r.memberEpoch[key] {
				r.t.Fatalf("member %s (%s) of %s went back from epoch %d to %d", m.ID, m.ClientID, g.Name, r.memberEpoch[key], m.MemberEpoch)
			}
			r.memberEpoch[key] = m.MemberEpoch
			for _, p := range m.Assignment {
				if other, ok := assignedTo[p]; ok {
					r.t.Fatalf("group %s: %s-%d assigned to %s and %s at once", g.Name, p.Topic, p.Partition, other, m.ClientID)
				}
				assignedTo[p] = m.ClientID
			}
			if c := r.consumers[m.ClientID]; c == nil || !c.running || r.w.NowMs() < c.stalledUntil {
				continue
			}
			for _, p := range m.Partitions {
				if other, ok := readBy[p]; ok {
					r.t.Fatalf("group %s: %s-%d read by %s and %s at once", g.Name, p.Topic, p.Partition, other, m.ClientID)
				}
				readBy[p] = m.ClientID
			}
		}
	}
}

// settle lets the stalls end and the sessions of crashed members expire,
// then checks that each group with running consumers converged: Stable,
// its members exactly those consumers, every partition of their topics
// assigned to one of them, and each reading what its coordinator says.
func (r *cprotoRun) settle() {
	last := r.w.NowMs()
	for _, c := range r.consumers {
		last = max(last, c.stalledUntil)
	}
	if id := r.down(); id != 0 {
		r.logf("start %d", id)
		require.NoError(r.t, r.w.Start(id))
	}
	r.logf("faults end; settle")
	r.run(last - r.w.NowMs() + 60_000)
	for range 12 { // up to 60 s more, for a group still moving
		if r.converged() == "" {
			break
		}
		r.run(5000)
	}
	if msg := r.converged(); msg != "" {
		r.t.Fatal(msg)
	}
}

// converged is "" when every group has settled, else what has not.
func (r *cprotoRun) converged() string {
	running := map[string][]string{}
	for _, name := range r.names() {
		if c := r.consumers[name]; c.running {
			running[c.group] = append(running[c.group], name)
		}
	}
	groups := map[string]cluster.GroupInfo{}
	for _, g := range r.w.Groups() {
		groups[g.Name] = g
	}
	for _, name := range slices.Sorted(maps.Keys(running)) {
		g, ok := groups[name]
		if !ok || g.State != "Stable" {
			return fmt.Sprintf("group %s is not Stable: %+v", name, g)
		}
		var clients []string
		subscribed := map[string]bool{}
		dealt := map[cluster.PartitionRef]int{}
		for _, m := range g.Members {
			clients = append(clients, m.ClientID)
			for _, t := range r.consumers[m.ClientID].topics {
				subscribed[t] = true
			}
			for _, p := range m.Assignment {
				dealt[p]++
			}
			if !slices.Equal(m.Assignment, m.Partitions) {
				return fmt.Sprintf("group %s: %s reads %v, its coordinator assigns it %v", name, m.ClientID, m.Partitions, m.Assignment)
			}
		}
		slices.Sort(clients)
		if !slices.Equal(clients, running[name]) {
			return fmt.Sprintf("group %s has members %v, the running consumers are %v", name, clients, running[name])
		}
		for _, t := range r.w.Topics() {
			if !subscribed[t.Name] {
				continue
			}
			topic := t.Name
			for p := range t.Assignment {
				if n := dealt[cluster.PartitionRef{Topic: topic, Partition: int32(p)}]; n != 1 {
					return fmt.Sprintf("group %s: %s-%d is assigned %d times", name, topic, p, n)
				}
			}
		}
	}
	return ""
}

// TestConsumerProtocolGroupsRandomized: random sequences of what users do
// to consumer-protocol groups (KIP-848: add a member of either
// server-side assignor, close, crash, restart or stall one, add
// partitions, kill a group's coordinator and start it again, run) never
// assign a partition to two members at once nor let two polling consumers
// read it, never move an epoch back (the next coordinator loads the
// group's records from __consumer_offsets: no group restarts at epoch 1),
// and once the faults end every group settles: its running consumers, and
// only they, own every partition of their topics once, each reading what
// its coordinator assigns it.
func TestConsumerProtocolGroupsRandomized(t *testing.T) {
	seeds := []uint64{}
	for i := range *cprotoSeeds {
		seeds = append(seeds, uint64(i+1))
	}
	if *cprotoSeed != 0 {
		seeds = []uint64{*cprotoSeed}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := &cprotoRun{t: t, rng: rand.New(rand.NewPCG(seed, 848)), consumers: map[string]*cprotoConsumer{},
				groupEpoch: map[string]int32{}, memberEpoch: map[string]int32{}}
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("replay: go test ./cluster -run 'TestConsumerProtocolGroupsRandomized' -cproto.seed=%d -cproto.ops=%d\n%s",
						seed, *cprotoOps, strings.Join(r.log[max(0, len(r.log)-60):], "\n"))
				}
			})
			w, err := cluster.New(cluster.Config{Seed: seed, Rules: replica.Modern})
			require.NoError(t, err)
			require.True(t, w.Config().ConsumerGroupProtocol())
			r.w = w
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "orders", Partitions: 6, ReplicationFactor: 3}))
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "audit", Partitions: 3, ReplicationFactor: 3}))
			require.NoError(t, w.RunFor(500))
			for range *cprotoOps {
				r.step()
			}
			r.settle()
		})
	}
}
