package cluster_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/replica"
)

// TestScenarios replays the scenario scripts in testdata step by step
// and prints, after each step, what happened and the state. Regenerate
// with -rewrite and review the diff against the scripts.
//
// Commands (one-line examples):
//
//	new brokers=2 rules=v0.10 min-isr=1 unclean seed=1
//	create-topic name=kip101 replicas=(2,1)      or partitions=3 rf=3
//	add-producer name=p topic=kip101 acks=all keys=(alice) linger-ms=0
//	add-consumer name=c topic=kip101 partition=0
//	produce p value=m1 key=k partition=0
//	deliver n=2 from=(1) to=(2)                  (default: all, until quiet)
//	drop from=(1) to=(2,3)
//	run ms=500
//	kill 1 | stop 1 | start 1 | power-cut 1 torn | writeback 1
//	partition a=(1) b=(2,0) | heal
//	poll c
//	state | json | inflight | violations
//
// Consumer groups, keys and the log:
//
//	new ... offsets-partitions=50 retention-check=5000 cleaner-backoff=1000 group-delay=0
//	create-topic name=events partitions=1 rf=1 retention-ms=60000 segment-bytes=230 cleanup=compact
//	add-consumer name=E1 group=eager-g topics=(orders) assignors=(sticky) instance=w1 commit=auto reset=earliest
//	close-consumer E1 | crash-consumer E1 | restart-consumer E1 | stall-consumer E1 ms=400000
//	add-partitions name=users count=4
//	produce p key=k2 null
//	describe-group name=eager-g [members|state] | groups
//	show kinds=(group,storage)                   (event kinds printed from now on; default all)
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if strings.Contains(filepath.ToSlash(path), "testdata/rapid/") {
			t.Skip("rapid's failure files, not a scenario")
		}
		h := &harness{}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return h.handle(t, d)
		})
	})
}

type harness struct {
	w    *cluster.World
	seen int // events already printed
	// show limits the event kinds printed (nil: all).
	show map[cluster.EventKind]bool
}

func (h *harness) handle(t *testing.T, d *datadriven.TestData) string {
	if d.Cmd == "new" {
		return h.handleNew(t, d)
	}
	if h.w == nil {
		d.Fatalf(t, "%s before new", d.Cmd)
	}
	switch d.Cmd {
	case "state":
		h.seen = len(h.w.Events())
		return h.w.State().Text()
	case "json":
		b, err := h.w.State().JSON()
		if err != nil {
			d.Fatalf(t, "json: %v", err)
		}
		return string(b) + "\n"
	case "groups":
		var b strings.Builder
		for _, g := range h.w.State().Groups {
			b.WriteString(g.Text())
		}
		for _, c := range h.w.State().Consumers {
			if c.Group != "" {
				fmt.Fprintf(&b, "consumer %s (group %s, %s): processed %d, duplicates %d\n", c.ID, c.Group, c.Status, c.Processed, c.Duplicates)
			}
		}
		return h.newEvents() + b.String()
	case "describe-group":
		var name string
		d.ScanArgs(t, "name", &name)
		mode := kafkatools.DescribeOffsets
		switch {
		case d.HasArg("members"):
			mode = kafkatools.DescribeMembers
		case d.HasArg("state"):
			mode = kafkatools.DescribeState
		}
		return kafkatools.DescribeGroup(h.w.Groups(), name, mode, kafkatools.LayoutOf(h.w.Config()))
	case "produce-many":
		// produce-many p count=10 partition=0 prefix=a: values a0..a9.
		var name, prefix string
		var count, partition int
		d.ScanArgs(t, "name", &name)
		d.ScanArgs(t, "count", &count)
		d.ScanArgs(t, "partition", &partition)
		d.ScanArgs(t, "prefix", &prefix)
		for i := range count {
			if err := h.w.Produce(name, "", fmt.Sprintf("%s%d", prefix, i), int32(partition)); err != nil {
				return "error: " + err.Error() + "\n" + h.newEvents()
			}
		}
		return h.newEvents()
	case "records":
		// records topic=users: the leader's records of every partition.
		var topic string
		d.ScanArgs(t, "topic", &topic)
		var b strings.Builder
		for _, p := range h.w.State().Partitions {
			if p.Topic != topic {
				continue
			}
			fmt.Fprintf(&b, "%s-%d:", p.Topic, p.Partition)
			for _, l := range p.Logs {
				if l.Broker != p.Leader {
					continue
				}
				for _, r := range l.Records {
					fmt.Fprintf(&b, " %d %s", r.Offset, recordText(r))
				}
			}
			fmt.Fprintf(&b, " (start %d, hw %d)\n", p.LogStartOffset, p.HighWatermark)
		}
		return h.newEvents() + b.String()
	case "segments":
		// segments topic=events partition=0 broker=1
		var topic string
		var partition, broker int
		d.ScanArgs(t, "topic", &topic)
		d.MaybeScanArgs(t, "partition", &partition)
		d.ScanArgs(t, "broker", &broker)
		segs, err := h.w.Segments(int32(broker), topic, int32(partition))
		if err != nil {
			d.Fatalf(t, "segments: %v", err)
		}
		var b strings.Builder
		for _, s := range segs {
			b.WriteString(s.String() + "\n")
		}
		return h.newEvents() + b.String()
	case "show":
		h.show = map[cluster.EventKind]bool{}
		if arg, ok := d.Arg("kinds"); ok {
			for _, k := range arg.Vals {
				h.show[cluster.EventKind(k)] = true
			}
		}
		return ""
	case "inflight":
		return strings.Join(h.w.InFlight(), "\n") + "\n"
	case "violations":
		var b strings.Builder
		for _, v := range h.w.Violations() {
			b.WriteString(v.String() + "\n")
		}
		return b.String()
	}
	a, err := parseAction(t, d)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	if err := h.w.Do(a); err != nil {
		return "error: " + err.Error() + "\n" + h.newEvents()
	}
	return h.newEvents()
}

func (h *harness) handleNew(t *testing.T, d *datadriven.TestData) string {
	cfg := cluster.Config{Seed: 1}
	var rules string
	d.MaybeScanArgs(t, "brokers", &cfg.Brokers)
	d.MaybeScanArgs(t, "seed", &cfg.Seed)
	d.MaybeScanArgs(t, "min-isr", &cfg.MinInsyncReplicas)
	d.MaybeScanArgs(t, "lag", &cfg.ReplicaLagTimeMaxMs)
	d.MaybeScanArgs(t, "offsets-partitions", &cfg.OffsetsTopicNumPartitions)
	d.MaybeScanArgs(t, "retention-check", &cfg.LogRetentionCheckIntervalMs)
	d.MaybeScanArgs(t, "cleaner-backoff", &cfg.LogCleanerBackoffMs)
	d.MaybeScanArgs(t, "tick", &cfg.TickMs)
	if d.HasArg("group-delay") {
		g := group.DefaultConfig()
		var delay int
		d.ScanArgs(t, "group-delay", &delay)
		g.GroupInitialRebalanceDelayMs = int32(delay)
		cfg.Group = &g
	}
	if d.MaybeScanArgs(t, "rules", &rules) {
		r, err := replica.ParseRuleSet(rules)
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
		cfg.Rules = r
	} else {
		cfg.Rules = replica.Modern
	}
	cfg.UncleanLeaderElectionEnable = d.HasArg("unclean")
	w, err := cluster.New(cfg)
	if err != nil {
		d.Fatalf(t, "new: %v", err)
	}
	h.w, h.seen = w, 0
	return h.newEvents()
}

// newEvents prints the events since the last command, without the
// action echo and message traces.
func (h *harness) newEvents() string {
	var b strings.Builder
	evs := h.w.Events()
	for _, e := range evs[h.seen:] {
		if e.Kind == cluster.EventAction || e.Kind == cluster.EventMessage || h.show != nil && !h.show[e.Kind] {
			continue
		}
		fmt.Fprintln(&b, e)
	}
	h.seen = len(evs)
	return b.String()
}

func ids(t *testing.T, d *datadriven.TestData, key string) []int32 {
	arg, ok := d.Arg(key)
	if !ok {
		return nil
	}
	out := make([]int32, len(arg.Vals))
	for i, v := range arg.Vals {
		n, err := strconv.Atoi(v)
		if err != nil {
			d.Fatalf(t, "%s: %v", key, err)
		}
		out[i] = int32(n)
	}
	return out
}

// brokerArg reads the positional broker id of "kill 1".
func brokerArg(t *testing.T, d *datadriven.TestData) int32 {
	if len(d.CmdArgs) == 0 {
		d.Fatalf(t, "%s needs a broker id", d.Cmd)
	}
	n, err := strconv.Atoi(d.CmdArgs[0].Key)
	if err != nil {
		d.Fatalf(t, "%s: broker id: %v", d.Cmd, err)
	}
	return int32(n)
}

func parseAction(t *testing.T, d *datadriven.TestData) (cluster.Action, error) {
	a := cluster.Action{Kind: cluster.ActionKind(d.Cmd), Partition: -1}
	switch a.Kind {
	case cluster.ActCreateTopic:
		d.ScanArgs(t, "name", &a.Topic.Name)
		d.MaybeScanArgs(t, "partitions", &a.Topic.Partitions)
		d.MaybeScanArgs(t, "rf", &a.Topic.ReplicationFactor)
		if reps := ids(t, d, "replicas"); reps != nil {
			a.Topic.Assignment = [][]int32{reps}
		}
		a.Topic.Config = topicConfig(t, d)
	case cluster.ActAddProducer:
		d.ScanArgs(t, "name", &a.Producer.Name)
		d.ScanArgs(t, "topic", &a.Producer.Topic)
		d.MaybeScanArgs(t, "acks", &a.Producer.Acks)
		d.MaybeScanArgs(t, "rate", &a.Producer.RecordsPerSec)
		if arg, ok := d.Arg("keys"); ok {
			a.Producer.Keys = arg.Vals
		}
		if d.MaybeScanArgs(t, "linger-ms", &a.Producer.LingerMs) && a.Producer.LingerMs == 0 {
			a.Producer.LingerMs = cluster.NoLinger // none, whatever the rules' default
		}
	case cluster.ActAddConsumer:
		d.ScanArgs(t, "name", &a.Consumer.Name)
		if d.MaybeScanArgs(t, "group", &a.Consumer.Group) {
			groupConsumerArgs(t, d, &a.Consumer)
			break
		}
		d.ScanArgs(t, "topic", &a.Consumer.Topic)
		d.MaybeScanArgs(t, "partition", &a.Consumer.Partition)
	case cluster.ActCloseConsumer, cluster.ActCrashConsumer, cluster.ActRestartConsumer:
		a.Name = d.CmdArgs[0].Key
	case cluster.ActStallConsumer:
		a.Name = d.CmdArgs[0].Key
		d.ScanArgs(t, "ms", &a.Ms)
	case cluster.ActAddPartitions:
		d.ScanArgs(t, "name", &a.Name)
		d.ScanArgs(t, "count", &a.N)
	case cluster.ActProduce:
		a.Name = d.CmdArgs[0].Key
		a.Null = d.HasArg("null")
		if !a.Null {
			d.ScanArgs(t, "value", &a.Value)
		}
		d.MaybeScanArgs(t, "key", &a.Key)
		d.MaybeScanArgs(t, "partition", &a.Partition)
	case cluster.ActPoll:
		a.Name = d.CmdArgs[0].Key
	case cluster.ActStop, cluster.ActKill, cluster.ActStart, cluster.ActWriteback:
		a.Broker = brokerArg(t, d)
	case cluster.ActPowerCut:
		a.Broker, a.Torn = brokerArg(t, d), d.HasArg("torn")
	case cluster.ActPartition:
		a.A, a.B = ids(t, d, "a"), ids(t, d, "b")
	case cluster.ActHeal:
	case cluster.ActRun:
		d.ScanArgs(t, "ms", &a.Ms)
	case cluster.ActDeliver:
		d.MaybeScanArgs(t, "n", &a.N)
		a.A, a.B = ids(t, d, "from"), ids(t, d, "to")
	case cluster.ActDrop:
		a.A, a.B = ids(t, d, "from"), ids(t, d, "to")
	default:
		return a, fmt.Errorf("unknown command %q", d.Cmd)
	}
	return a, nil
}
