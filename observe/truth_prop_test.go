package observe_test

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/replica"
)

// TestObservedAgreesWithTheWorld runs random worlds (one to five brokers,
// a separate or a combined controller, topics of random sizes, producers
// and a group at work) through random actions of the world's own table
// (time passing, brokers stopped, killed, powered off and started, links
// between brokers cut and healed, producers and group members added and
// crashed, partitions added), serves each world to Kafka clients as
// `kafkalive serve` does and polls it after every action, the world's
// clock still while the poll runs. Everything observed must agree with
// the world's State: every partition with its leader, epoch, replicas and
// ISR; where observed, its log start and high watermark, and each
// replica's log end offset (never above the true one: equal); the brokers
// the cluster lists up, those it does not down; the groups and their
// committed offsets; the quorum's leader the active controller. The
// events derived from the samples tell every change: the leaders, epochs
// and ISRs of the first sample, with the events applied in order, are the
// world's. And nothing but read-only requests on the wire.
//
// A failure prints the drawn world and actions; rapid prints the line that
// replays it (go test ./observe -run TestObservedAgreesWithTheWorld
// -rapid.failfile=...). It runs 25 worlds (a dead broker costs each poll
// its timeout); -rapid.checks=N runs N.
func TestObservedAgreesWithTheWorld(t *testing.T) {
	if !flagSet("rapid.checks") {
		require.NoError(t, flag.Set("rapid.checks", "25"))
		defer func() { _ = flag.Set("rapid.checks", "100") }() // rapid's default, as it was
	}
	rapid.Check(t, func(rt *rapid.T) {
		brokers := rapid.IntRange(1, 5).Draw(rt, "brokers")
		// Kafka 4's rules keep eligible leader replicas (KIP-966) when the
		// ISR shrinks below min.insync.replicas
		cfg := cluster.Config{Seed: rapid.Uint64().Draw(rt, "seed"), Brokers: brokers,
			CombinedControllers: rapid.Bool().Draw(rt, "combined"),
			Rules:               rapid.SampledFrom([]replica.RuleSet{replica.V0_10, replica.V3_7, replica.V4}).Draw(rt, "rules"),
			MinInsyncReplicas:   rapid.IntRange(1, 2).Draw(rt, "min.insync.replicas")}
		w, err := cluster.New(cfg)
		if err != nil {
			rt.Fatalf("new world: %v", err)
		}
		topics := rapid.IntRange(1, 3).Draw(rt, "topics")
		for i := range topics {
			name := fmt.Sprintf("t%d", i)
			spec := cluster.TopicSpec{Name: name, Partitions: rapid.IntRange(1, 4).Draw(rt, "partitions"),
				ReplicationFactor: rapid.IntRange(1, brokers).Draw(rt, "rf")}
			do(rt, w, cluster.Action{Kind: cluster.ActCreateTopic, Topic: spec})
			// an idempotent producer's state is what DescribeProducers tells
			pc := cluster.ProducerConfig{Name: "p" + name, Topic: name,
				Acks: rapid.SampledFrom([]string{"all", "1", "0"}).Draw(rt, "acks"), RecordsPerSec: rapid.IntRange(1, 50).Draw(rt, "rate"),
				EnableIdempotence: cluster.Bool(rapid.Bool().Draw(rt, "idempotent"))}
			if *pc.EnableIdempotence {
				pc.Acks = "all"
			}
			do(rt, w, cluster.Action{Kind: cluster.ActAddProducer, Producer: pc})
		}
		do(rt, w, cluster.Action{Kind: cluster.ActAddConsumer, Consumer: cluster.ConsumerConfig{Name: "c1", Group: "g", Topics: []string{"t0"}}})
		do(rt, w, cluster.Action{Kind: cluster.ActRun, Ms: 5000})
		s := startSim(rt, w)
		// a broker whose host does not answer (powered off, cut off) costs
		// a poll its timeout: the world's clock is still, so it never will
		o := s.observer(rt, observe.Config{PollTimeout: 300 * time.Millisecond})
		var replay replayed
		steps := rapid.IntRange(2, 6).Draw(rt, "steps")
		for step := range steps {
			a := drawAction(rt, w, brokers)
			var before int
			s.world(rt, func(w *cluster.World) error {
				if err := w.Do(a); err != nil {
					rt.Logf("step %d: %s refused: %v", step, a, err)
				}
				// what the action sent is delivered: a poll then sees one
				// world, which its own requests do not move
				before = len(w.Events())
				return w.Do(cluster.Action{Kind: cluster.ActDeliver})
			})
			smp := o.Poll(context.Background())
			var st cluster.State
			var groups []cluster.GroupInfo
			var prods map[observe.TopicPartition][]cluster.ProducerState
			var moved []string
			s.world(rt, func(w *cluster.World) error {
				st, groups, prods = w.State(), w.Groups(), producerStates(w)
				for _, e := range w.Events()[before:] {
					if e.Kind != cluster.EventAction {
						moved = append(moved, e.String())
					}
				}
				return nil
			})
			if len(moved) > 0 {
				rt.Logf("the world moved during the poll: %s", strings.Join(moved, "; "))
			}
			if err := agrees(smp, st, groups, prods); err != nil {
				rt.Fatalf("after step %d (%s): %v\nunanswered: %s", step, a, err, strings.Join(smp.Unanswered, "; "))
			}
			if err := replay.check(o, smp, st); err != nil {
				rt.Fatalf("after step %d (%s): the events: %v", step, a, err)
			}
		}
		// back to health: every broker started, every link healed; the
		// next poll sees everything again
		s.world(rt, func(w *cluster.World) error {
			for id := int32(1); id <= int32(brokers); id++ {
				if st, _ := w.BrokerState(id); st != cluster.BrokerRunning {
					if err := w.Do(cluster.Action{Kind: cluster.ActStart, Broker: id}); err != nil {
						rt.Logf("start %d: %v", id, err)
					}
				}
			}
			if err := w.Do(cluster.Action{Kind: cluster.ActHeal}); err != nil {
				return err
			}
			if err := w.RunFor(30_000); err != nil {
				return err
			}
			return w.Do(cluster.Action{Kind: cluster.ActDeliver})
		})
		var smp *observe.Sample
		for try := 0; try < 5 && (smp == nil || smp.Partitions == nil || !smp.ELRListed); try++ {
			smp = o.Poll(context.Background()) // a loaded machine may miss a poll's timeout
		}
		if smp.Partitions == nil {
			rt.Fatalf("every broker back, nothing observed: %s", strings.Join(smp.Unanswered, "; "))
		}
		var st cluster.State
		var groups []cluster.GroupInfo
		var prods map[observe.TopicPartition][]cluster.ProducerState
		s.world(rt, func(w *cluster.World) error { st, groups, prods = w.State(), w.Groups(), producerStates(w); return nil })
		if err := agrees(smp, st, groups, prods); err != nil {
			rt.Fatalf("every broker back: %v", err)
		}
		if err := replay.check(o, smp, st); err != nil {
			rt.Fatalf("every broker back: the events: %v", err)
		}
		if !smp.ELRListed {
			rt.Fatalf("every broker back, the eligible leader replicas not observed: %s", strings.Join(smp.Unanswered, "; "))
		}
		if st.ActiveController > 0 && smp.Quorum == nil {
			rt.Fatalf("every broker back, the quorum (active controller %d) not observed: %s", st.ActiveController, strings.Join(smp.Unanswered, "; "))
		}
		for _, key := range s.keys.seen() {
			if !observe.IsReadOnly(key) {
				rt.Fatalf("api key %d on the wire", key)
			}
		}
	})
}

// flagSet reports whether the command line set flag name.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// do applies a, which must be taken.
func do(rt *rapid.T, w *cluster.World, a cluster.Action) {
	if err := w.Do(a); err != nil {
		rt.Fatalf("%s: %v", a, err)
	}
}

// drawAction draws one action of the world's table.
func drawAction(rt *rapid.T, w *cluster.World, brokers int) cluster.Action {
	b := int32(rapid.IntRange(1, brokers).Draw(rt, "broker"))
	switch rapid.SampledFrom([]string{"run", "run", "run", "stop", "kill", "power-cut", "start", "cut", "heal", "producer", "member", "crash-member", "add-partitions"}).Draw(rt, "action") {
	case "stop":
		return cluster.Action{Kind: cluster.ActStop, Broker: b}
	case "kill":
		return cluster.Action{Kind: cluster.ActKill, Broker: b}
	case "power-cut":
		return cluster.Action{Kind: cluster.ActPowerCut, Broker: b}
	case "start":
		return cluster.Action{Kind: cluster.ActStart, Broker: b}
	case "cut":
		other := int32(rapid.IntRange(0, brokers).Draw(rt, "other")) // 0: the controller
		return cluster.Action{Kind: cluster.ActPartition, A: []int32{b}, B: []int32{other}}
	case "heal":
		return cluster.Action{Kind: cluster.ActHeal}
	case "producer":
		return cluster.Action{Kind: cluster.ActAddProducer, Producer: cluster.ProducerConfig{Name: fmt.Sprintf("extra%d", rapid.IntRange(0, 1000).Draw(rt, "n")),
			Topic: "t0", Acks: "all", RecordsPerSec: 20}}
	case "member":
		return cluster.Action{Kind: cluster.ActAddConsumer, Consumer: cluster.ConsumerConfig{Name: fmt.Sprintf("c%d", rapid.IntRange(2, 4).Draw(rt, "member")), Group: "g", Topics: []string{"t0"}}}
	case "crash-member":
		return cluster.Action{Kind: cluster.ActCrashConsumer, Name: "c1"}
	case "add-partitions":
		return cluster.Action{Kind: cluster.ActAddPartitions, Name: "t0", N: 1}
	}
	return cluster.Action{Kind: cluster.ActRun, Ms: int64(rapid.IntRange(100, 15_000).Draw(rt, "ms"))}
}

// producerStates are what each partition's leader knows of its producers
// (what DescribeProducers answers), for the partitions that have one.
func producerStates(w *cluster.World) map[observe.TopicPartition][]cluster.ProducerState {
	out := map[observe.TopicPartition][]cluster.ProducerState{}
	for _, p := range w.State().Partitions {
		if ps, err := w.PartitionProducers(p.Topic, p.Partition, 0); err == nil {
			out[observe.TopicPartition{Topic: p.Topic, Partition: p.Partition}] = ps
		}
	}
	return out
}

// agrees checks a sample against the world at the end of its poll (the
// clock did not move meanwhile): nil if everything observed is true. The
// partitions' ELR and last known ELR where the poll listed them, their
// last stable offset (the high watermark where no transaction is open)
// and the producers their leaders told this poll are the world's too.
func agrees(smp *observe.Sample, st cluster.State, groups []cluster.GroupInfo, prods map[observe.TopicPartition][]cluster.ProducerState) error {
	if smp.Partitions == nil {
		return nil // Metadata unanswered: nothing observed, nothing untrue
	}
	for _, p := range st.Partitions {
		got := smp.Partition(p.Topic, p.Partition)
		if got == nil {
			return fmt.Errorf("%s-%d not observed", p.Topic, p.Partition)
		}
		name := fmt.Sprintf("%s-%d", p.Topic, p.Partition)
		switch {
		case got.Leader != p.Leader || got.LeaderEpoch != p.LeaderEpoch:
			return fmt.Errorf("%s: leader %d epoch %d observed, %d epoch %d true", name, got.Leader, got.LeaderEpoch, p.Leader, p.LeaderEpoch)
		case !slices.Equal(got.Replicas, p.Replicas) || !slices.Equal(got.ISR, p.ISR):
			return fmt.Errorf("%s: replicas %v isr %v observed, %v %v true", name, got.Replicas, got.ISR, p.Replicas, p.ISR)
		case got.HighWatermark != observe.NotObserved && got.HighWatermark != p.HighWatermark:
			return fmt.Errorf("%s: high watermark %d observed, %d true", name, got.HighWatermark, p.HighWatermark)
		case got.LogStartOffset != observe.NotObserved && got.LogStartOffset != p.LogStartOffset:
			return fmt.Errorf("%s: log start %d observed, %d true", name, got.LogStartOffset, p.LogStartOffset)
		case smp.ELRListed && (!slices.Equal(got.ELR, p.ELR) || !slices.Equal(got.LastKnownELR, p.LastKnownELR)):
			return fmt.Errorf("%s: ELR %v last known %v observed, %v %v true", name, got.ELR, got.LastKnownELR, p.ELR, p.LastKnownELR)
		}
		lso := p.HighWatermark
		if p.LastStableOffset != nil {
			lso = *p.LastStableOffset
		}
		if got.LastStableOffset != observe.NotObserved && got.LastStableOffset != lso {
			return fmt.Errorf("%s: last stable offset %d observed, %d true", name, got.LastStableOffset, lso)
		}
		if got.ProducersSeq == smp.Seq {
			if err := sameProducers(got.Producers, prods[observe.TopicPartition{Topic: p.Topic, Partition: p.Partition}]); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
		for _, l := range got.Logs {
			if l.LogEndOffset == observe.NotObserved {
				continue
			}
			i := slices.IndexFunc(p.Logs, func(tl cluster.LogInfo) bool { return tl.Broker == l.Broker })
			if i < 0 || p.Logs[i].Role == "down" {
				return fmt.Errorf("%s: broker %d's log observed (LEO %d), the world has no running replica there", name, l.Broker, l.LogEndOffset)
			}
			if l.LogEndOffset != p.Logs[i].LogEndOffset {
				return fmt.Errorf("%s: broker %d LEO %d observed, %d true", name, l.Broker, l.LogEndOffset, p.Logs[i].LogEndOffset)
			}
		}
	}
	for _, b := range st.Brokers {
		got, ok := smp.Broker(b.ID)
		listed := b.State == "running" && b.Controller == "unfenced"
		switch {
		case listed && (!ok || got.State != observe.BrokerUp && got.State != observe.BrokerUnreachable):
			// unreachable says the observer's own requests failed (a
			// loaded machine misses a poll's timeout), not that the
			// cluster does not list the broker
			return fmt.Errorf("broker %d: %s and %s, observed %q", b.ID, b.State, b.Controller, got.State)
		case !listed && ok && got.State == observe.BrokerUp:
			return fmt.Errorf("broker %d: %s and %s, observed up", b.ID, b.State, b.Controller)
		}
	}
	if smp.Quorum != nil && smp.Quorum.LeaderID != st.ActiveController {
		return fmt.Errorf("quorum: active controller %d, observed %+v", st.ActiveController, smp.Quorum)
	}
	for _, g := range smp.Groups {
		i := slices.IndexFunc(groups, func(x cluster.GroupInfo) bool { return x.Name == g.Name })
		if i < 0 {
			return fmt.Errorf("group %s observed, the world has none", g.Name)
		}
		for _, off := range g.Offsets {
			j := slices.IndexFunc(groups[i].Offsets, func(x cluster.OffsetInfo) bool { return x.Topic == off.Topic && x.Partition == off.Partition })
			if j < 0 || groups[i].Offsets[j].Committed != off.Committed {
				return fmt.Errorf("group %s: %s-%d committed %d observed, the world's %+v", g.Name, off.Topic, off.Partition, off.Committed, groups[i].Offsets)
			}
		}
	}
	return nil
}

// replayed is each partition's leader, epoch and ISR as the observer's
// events tell them: those of the first sample that listed the topics,
// then every event applied in order.
type replayed struct {
	parts map[observe.TopicPartition]partMeta
	// applied counts the events applied (with those dropped).
	applied int
}

type partMeta struct {
	leader, epoch int32
	isr           []int32
}

// check applies the events o derived since the last check and compares
// the result with smp's partitions (when it listed them) and the world's.
func (r *replayed) check(o *observe.Observer, smp *observe.Sample, st cluster.State) error {
	var evs []observe.Event
	var samples []*observe.Sample
	o.Look(func(t *observe.Timeline) {
		_, dropped := t.Dropped()
		evs = slices.Clone(t.Events()[r.applied-dropped:])
		r.applied = dropped + len(t.Events())
		samples = slices.Clone(t.Samples())
	})
	sampleOf := func(seq uint64) *observe.Sample {
		i := slices.IndexFunc(samples, func(s *observe.Sample) bool { return s.Seq == seq })
		return samples[i]
	}
	seed := func(s *observe.Sample, topic string) {
		for _, p := range s.Partitions {
			if topic == "" || p.Topic == topic {
				r.parts[observe.TopicPartition{Topic: p.Topic, Partition: p.Partition}] = partMeta{p.Leader, p.LeaderEpoch, p.ISR}
			}
		}
	}
	for _, e := range evs {
		k := observe.TopicPartition{Topic: e.Topic, Partition: e.Partition}
		switch {
		case r.parts == nil && (e.Kind == observe.EventStart || e.Kind == observe.EventTopic && e.State == "listed"):
			if s := sampleOf(e.Seq); s.TopicsListed {
				r.parts = map[observe.TopicPartition]partMeta{}
				seed(s, "")
			}
		case r.parts == nil:
		case e.Kind == observe.EventTopic && e.State == "appeared":
			seed(sampleOf(e.Seq), e.Topic)
		case e.Kind == observe.EventTopic && e.State == "gone":
			maps.DeleteFunc(r.parts, func(k observe.TopicPartition, _ partMeta) bool { return k.Topic == e.Topic })
		case e.Kind == observe.EventPartition:
			r.parts[k] = partMeta{e.Leader, e.LeaderEpoch, e.ISR}
		case e.Kind == observe.EventLeader:
			m := r.parts[k]
			m.leader, m.epoch = e.Leader, e.LeaderEpoch
			r.parts[k] = m
		case e.Kind == observe.EventISR:
			m := r.parts[k]
			m.isr = e.ISR
			r.parts[k] = m
		}
	}
	if r.parts == nil || !smp.TopicsListed {
		return nil
	}
	for _, p := range st.Partitions {
		k := observe.TopicPartition{Topic: p.Topic, Partition: p.Partition}
		m, ok := r.parts[k]
		if !ok {
			return fmt.Errorf("%s-%d: no event told of it", p.Topic, p.Partition)
		}
		if m.leader != p.Leader || m.epoch != p.LeaderEpoch || !slices.Equal(m.isr, p.ISR) {
			return fmt.Errorf("%s-%d: the events say leader %d epoch %d ISR %v, the world has %d, %d, %v",
				p.Topic, p.Partition, m.leader, m.epoch, m.isr, p.Leader, p.LeaderEpoch, p.ISR)
		}
	}
	return nil
}

// sameProducers checks the producers a poll was told of a partition
// against its leader's.
func sameProducers(got []observe.Producer, want []cluster.ProducerState) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d producers observed %+v, %d true %+v", len(got), got, len(want), want)
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.ProducerID || g.Epoch != int32(w.ProducerEpoch) || g.LastSequence != w.LastSequence || g.LastTimestamp != w.LastTimestamp ||
			g.CoordinatorEpoch != w.CoordinatorEpoch || g.CurrentTxnStartOffset != w.CurrentTxnStartOffset {
			return fmt.Errorf("producer %+v observed, %+v true", g, w)
		}
	}
	return nil
}
