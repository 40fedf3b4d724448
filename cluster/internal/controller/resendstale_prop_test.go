package controller

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// drawKnown draws what a heartbeat of broker b says: the last one it sent
// again (the same netsim.Known, as a broker whose replicas' epochs did not
// change sends), or a new one in which each partition is what the
// controller holds, a stale epoch, or missing (no replica there).
func drawKnown(t *rapid.T, c *Controller, last *netsim.Known) *netsim.Known {
	if last != nil && rapid.Bool().Draw(t, "same known") {
		return last
	}
	var changes []netsim.KnownChange
	for _, k := range c.order {
		p := c.parts[k]
		switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("%s knows", k)) {
		case 0:
			changes = append(changes, netsim.KnownChange{TP: k, Gone: true})
		case 1:
			changes = append(changes, netsim.KnownChange{TP: k, Epochs: [2]int32{p.leaderEpoch, max(p.partitionEpoch-1, 0)}})
		default:
			changes = append(changes, netsim.KnownChange{TP: k, Epochs: [2]int32{p.leaderEpoch, p.partitionEpoch}})
		}
	}
	return last.With(changes)
}

// A heartbeat the controller passes over (the same Known as the last one
// it found nothing stale in, no partition's epochs changed since) is one
// in which it would have found nothing stale: driven alike, a controller
// that remembers and one that forgets before every heartbeat send and
// note the same, whatever the brokers, partitions and heartbeats do.
func TestResendStalePassesOverOnlyWhatIsUpToDate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		brokers := 3
		cfg := Config{Brokers: brokers, BrokerSessionTimeoutMs: 9000, EligibleLeaderReplicas: rapid.Bool().Draw(t, "elr"),
			ZooKeeperEra: rapid.Bool().Draw(t, "zk"), BrokerSettings: defaultSettings()}
		remembers, forgets := New(cfg), New(cfg)
		renv := &fakeEnv{running: map[int32]bool{1: true, 2: true, 3: true}}
		fenv := &fakeEnv{running: map[int32]bool{1: true, 2: true, 3: true}}
		for _, c := range []*Controller{remembers, forgets} {
			c.AddTopic(metadata.Topic{Name: "t"})
		}
		last := map[int32]*netsim.Known{}
		passed := 0
		for i := range rapid.IntRange(1, 60).Draw(t, "steps") {
			renv.out.Reset()
			fenv.out.Reset()
			if rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("heartbeat %d", i)) > 0 {
				o := drawOp(t, brokers)
				o(remembers, renv)
				o(forgets, fenv)
			} else {
				b := int32(rapid.IntRange(1, brokers).Draw(t, "heartbeat from"))
				known := drawKnown(t, remembers, last[b])
				last[b] = known
				for j := range forgets.brokers {
					forgets.brokers[j].upToDate = upToDate{}
				}
				r := remembers.brokers[b-1]
				if r.registered && r.upToDate == (upToDate{known, remembers.epochs}) {
					passed++
				}
				e := netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindHeartbeat, Incarnation: r.incarnation, Known: known}
				remembers.Step(renv, &e)
				forgets.Step(fenv, &e)
			}
			if renv.out.String() != fenv.out.String() {
				t.Fatalf("step %d: the controller that remembers and the one that forgets differ:\nremembers:\n%s\nforgets:\n%s", i, renv.out.String(), fenv.out.String())
			}
		}
		t.Logf("%d heartbeats passed over", passed)
	})
}

// TestResendStaleSendsWhatTheBrokerMissed: a broker whose heartbeat
// reports an older partition epoch is sent the partition's state, again
// at every heartbeat while it says so, and nothing once it is up to date.
func TestResendStaleSendsWhatTheBrokerMissed(t *testing.T) {
	c := New(Config{Brokers: 1, BrokerSessionTimeoutMs: 9000, BrokerSettings: defaultSettings()})
	env := &fakeEnv{running: map[int32]bool{1: true}}
	c.AddTopic(metadata.Topic{Name: "t"})
	c.Step(env, &netsim.Envelope{From: 1, To: netsim.Controller, Kind: netsim.KindRegister, Incarnation: 1})
	k := kafkalog.TopicPartition{Topic: "t", Partition: 0}
	c.AddPartition(env, k, []int32{1})
	v, _ := c.View(k)
	stale := (*netsim.Known)(nil).With([]netsim.KnownChange{{TP: k, Epochs: [2]int32{v.LeaderEpoch - 1, v.PartitionEpoch - 1}}})
	upToDate := stale.With([]netsim.KnownChange{{TP: k, Epochs: [2]int32{v.LeaderEpoch, v.PartitionEpoch}}})
	for i, known := range []*netsim.Known{stale, stale, upToDate, upToDate} {
		env.out.Reset()
		c.Step(env, &netsim.Envelope{From: 1, To: netsim.Controller, Kind: netsim.KindHeartbeat, Incarnation: 1, Known: known})
		sent := env.out.Len() > 0
		if want := i < 2; sent != want {
			t.Fatalf("heartbeat %d: sent %q, want a resend %v", i, env.out.String(), want)
		}
	}
}
