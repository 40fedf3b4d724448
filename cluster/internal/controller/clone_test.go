package controller

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// dump prints everything the controller holds, for comparing two states.
func dump(c *Controller) string {
	var b strings.Builder
	fmt.Fprintf(&b, "epoch %d quorum %+v\n", c.nextBrokerEpoch, c.quorum)
	for i, r := range c.brokers {
		fmt.Fprintf(&b, "b%d %+v\n", i+1, r)
	}
	for _, k := range c.order {
		p := *c.parts[k]
		p.gen = 0 // which clone may change it in place: not what it holds
		fmt.Fprintf(&b, "%s %+v\n", k, p)
	}
	for _, t := range c.topics {
		fmt.Fprintf(&b, "topic %s %v unclean=%v\n", t.Name, t.Assignment, t.UncleanLeaderElectionEnable != nil && *t.UncleanLeaderElectionEnable)
	}
	return b.String()
}

// op is one thing the world does to the controller.
type op func(c *Controller, env *fakeEnv)

func drawOp(t *rapid.T, brokers int) op {
	b := int32(rapid.IntRange(1, brokers).Draw(t, "broker"))
	inc := rapid.IntRange(1, 3).Draw(t, "incarnation")
	k := kafkalog.TopicPartition{Topic: "t", Partition: int32(rapid.IntRange(0, 2).Draw(t, "partition"))}
	switch rapid.IntRange(0, 7).Draw(t, "op") {
	case 0:
		return func(c *Controller, env *fakeEnv) {
			c.Step(env, &netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindRegister, Incarnation: inc})
		}
	case 1:
		return func(c *Controller, env *fakeEnv) {
			c.Step(env, &netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindHeartbeat, Incarnation: inc})
		}
	case 2:
		return func(c *Controller, env *fakeEnv) {
			c.Step(env, &netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindShutdown, Incarnation: inc})
		}
	case 3:
		isr := []int32{b}
		return func(c *Controller, env *fakeEnv) {
			v, ok := c.View(k)
			if !ok {
				return
			}
			c.Step(env, &netsim.Envelope{From: v.Leader, To: netsim.Controller, Kind: netsim.KindAlterPartition, TP: k,
				Alter: replica.AlterPartition{ISR: isr, LeaderEpoch: v.LeaderEpoch, PartitionEpoch: v.PartitionEpoch}})
		}
	case 4:
		return func(c *Controller, env *fakeEnv) {
			if _, ok := c.View(k); !ok {
				c.AddPartition(env, k, []int32{1, 2, 3}[:brokers])
				if t := c.Topic("t"); t != nil {
					t.Assignment = append(t.Assignment, []int32{1})
				}
			}
		}
	case 5:
		return func(c *Controller, env *fakeEnv) { env.running[b] = !env.running[b] }
	default:
		ms := int64(rapid.IntRange(1, 5000).Draw(t, "ms"))
		return func(c *Controller, env *fakeEnv) {
			env.now += ms
			c.Tick(env)
		}
	}
}

// A clone shares nothing the controller changes: driven apart, each is
// what the same history made of a controller alone; driven alike, they say
// and send the same.
func TestCloneIsIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		brokers := 3
		cfg := Config{Brokers: brokers, BrokerSessionTimeoutMs: 9000, Combined: rapid.Bool().Draw(t, "combined"), FailoverMs: 3000,
			EligibleLeaderReplicas: rapid.Bool().Draw(t, "elr"), ZooKeeperEra: rapid.Bool().Draw(t, "zk"), BrokerSettings: defaultSettings()}
		c := New(cfg)
		c.AddTopic(metadata.Topic{Name: "t"})
		env := &fakeEnv{running: map[int32]bool{1: true, 2: true, 3: true}}
		var history []op
		for range rapid.IntRange(0, 30).Draw(t, "before") {
			o := drawOp(t, brokers)
			o(c, env)
			history = append(history, o)
		}
		d := c.Clone()
		denv := &fakeEnv{now: env.now, running: map[int32]bool{1: env.running[1], 2: env.running[2], 3: env.running[3]}}
		at := dump(d)
		for range rapid.IntRange(0, 30).Draw(t, "original only") {
			drawOp(t, brokers)(c, env)
		}
		if got := dump(d); got != at {
			t.Fatalf("changing the original changed its clone:\nat the clone:\n%s\nnow:\n%s", at, got)
		}
		// driven alike from here, the clone behaves as the original did
		// from the same state: replay the history on a fresh controller
		fresh := New(cfg)
		fresh.AddTopic(metadata.Topic{Name: "t"})
		fenv := &fakeEnv{running: map[int32]bool{1: true, 2: true, 3: true}}
		for _, o := range history {
			o(fresh, fenv)
		}
		for range rapid.IntRange(0, 30).Draw(t, "both") {
			o := drawOp(t, brokers)
			denv.out.Reset()
			fenv.out.Reset()
			o(d, denv)
			o(fresh, fenv)
			if denv.out.String() != fenv.out.String() {
				t.Fatalf("the clone and a replay of its history differ:\nclone:\n%s\nreplay:\n%s", denv.out.String(), fenv.out.String())
			}
		}
		if dump(d) != dump(fresh) {
			t.Fatalf("the clone and a replay of its history end apart:\n%s\n%s", dump(d), dump(fresh))
		}
	})
}
