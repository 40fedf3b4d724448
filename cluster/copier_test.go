package cluster_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// copierWorld is a world with an input topic in, an output topic out,
// a read_committed consumer of out-0, and a copier from in-0 to out-0.
func copierWorld(t *testing.T) *cluster.World {
	t.Helper()
	w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 3, Rules: replica.Modern})
	require.NoError(t, err)
	for _, n := range []string{"in", "out"} {
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: n, Partitions: 1, ReplicationFactor: 3}))
	}
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "src", Topic: "in"}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "rc", Topic: "out", IsolationLevel: cluster.ReadCommitted, PollIntervalMs: 500}))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAddCopier, Producer: cluster.ProducerConfig{Name: "cp", Topic: "out", TransactionalID: "cp-tx",
		Copy: cluster.CopySource{Topic: "in", Partition: 0, Group: "cp-g", MaxRecords: 3}}}))
	return w
}

// A copier copies each record of its input once, in transactions that
// commit its group's offsets; an abort in the middle is copied again, and
// read_committed sees each input once.
func TestCopierCopiesEachRecordOnce(t *testing.T) {
	w := copierWorld(t)
	produce := func(v string) {
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "src", Value: v, Partition: -1}))
	}
	for i := range 5 {
		produce(fmt.Sprintf("a%d", i))
	}
	require.NoError(t, w.RunFor(3500))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAbortTransaction, Name: "cp"}))
	for i := range 4 {
		produce(fmt.Sprintf("b%d", i))
	}
	require.NoError(t, w.RunFor(10_000))
	var got []string
	for _, r := range w.Consumers()[0].Records() {
		got = append(got, r.Value)
	}
	want := []string{"in-0@0:a0", "in-0@1:a1", "in-0@2:a2", "in-0@3:a3", "in-0@4:a4", "in-0@5:b0", "in-0@6:b1", "in-0@7:b2", "in-0@8:b3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read_committed of out-0 (-want +got):\n%s\nevents:\n%s", diff, copierEvents(w))
	}
}

// copierEvents prints the world's transaction and consume events.
func copierEvents(w *cluster.World) string {
	var b strings.Builder
	for _, e := range w.Events() {
		if e.Kind != cluster.EventReplica && e.Kind != cluster.EventMessage && e.Kind != cluster.EventController {
			fmt.Fprintf(&b, "%6d %s\n", e.TimeMs, e.Text)
		}
	}
	return b.String()
}

// A copier is added by add-copier alone, with a transactional.id, a group
// and an input partition its output topic has; it is given no record, rate,
// acks or keys. Each refusal is an invalid config, and leaves the world as
// it was.
func TestCopierRefusals(t *testing.T) {
	w := copierWorld(t)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "wide", Partitions: 3, ReplicationFactor: 3}))
	copier := func(mod func(p *cluster.ProducerConfig)) cluster.Action {
		p := cluster.ProducerConfig{Name: "cp2", Topic: "out", TransactionalID: "cp2-tx", Copy: cluster.CopySource{Topic: "in", Partition: 0, Group: "g2"}}
		mod(&p)
		return cluster.Action{Kind: cluster.ActAddCopier, Producer: p}
	}
	for name, a := range map[string]cluster.Action{
		"no transactional.id":    copier(func(p *cluster.ProducerConfig) { p.TransactionalID = "" }),
		"no group":               copier(func(p *cluster.ProducerConfig) { p.Copy.Group = "" }),
		"no input partition":     copier(func(p *cluster.ProducerConfig) { p.Copy.Partition = 1 }),
		"no input topic":         copier(func(p *cluster.ProducerConfig) { p.Copy.Topic = "nope" }),
		"output partition":       copier(func(p *cluster.ProducerConfig) { p.Copy.Topic, p.Copy.Partition = "wide", 2 }),
		"its own input":          copier(func(p *cluster.ProducerConfig) { p.Topic = "in" }),
		"keys":                   copier(func(p *cluster.ProducerConfig) { p.Keys = []string{"a"} }),
		"a rate":                 copier(func(p *cluster.ProducerConfig) { p.RecordsPerSec = 3 }),
		"negative poll":          copier(func(p *cluster.ProducerConfig) { p.Copy.PollIntervalMs = -1 }),
		"name taken":             copier(func(p *cluster.ProducerConfig) { p.Name = "cp" }),
		"add-copier without one": copier(func(p *cluster.ProducerConfig) { p.Copy = cluster.CopySource{} }),
		"add-producer with one":  {Kind: cluster.ActAddProducer, Producer: copier(func(*cluster.ProducerConfig) {}).Producer},
		"a record":               {Kind: cluster.ActProduce, Name: "cp", Value: "x", Partition: -1},
		"a rate set":             {Kind: cluster.ActSetProducer, Name: "cp", Producer: cluster.ProducerConfig{Rate: 2}},
	} {
		before := len(w.Actions())
		if err := w.Do(a); !errors.Is(err, cluster.ErrInvalidConfig) {
			t.Errorf("%s: %s: got %v, want an invalid config", name, a, err)
		}
		if len(w.Actions()) != before {
			t.Errorf("%s: the refused action was recorded", name)
		}
	}
}

// A second copier with the same transactional.id fences the first (a
// zombie, whose open transaction the coordinator aborts and whose next
// request is refused PRODUCER_FENCED), reads the group's committed offset
// and copies on: read_committed sees each input record once.
func TestCopierZombieIsFenced(t *testing.T) {
	w := copierWorld(t)
	for i := range 6 {
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "src", Value: fmt.Sprintf("a%d", i), Partition: -1}))
	}
	require.NoError(t, w.RunFor(1500)) // cp's first transaction is open, its three copies written
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAddCopier, Producer: cluster.ProducerConfig{Name: "cp2", Topic: "out", TransactionalID: "cp-tx",
		Copy: cluster.CopySource{Topic: "in", Partition: 0, Group: "cp-g", MaxRecords: 3}}}))
	for i := range 3 {
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "src", Value: fmt.Sprintf("b%d", i), Partition: -1}))
	}
	require.NoError(t, w.RunFor(10_000))
	var got []string
	for _, r := range w.Consumers()[0].Records() {
		got = append(got, r.Value)
	}
	want := []string{"in-0@0:a0", "in-0@1:a1", "in-0@2:a2", "in-0@3:a3", "in-0@4:a4", "in-0@5:a5", "in-0@6:b0", "in-0@7:b1", "in-0@8:b2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read_committed of out-0 (-want +got):\n%s\nevents:\n%s", diff, copierEvents(w))
	}
	old := w.Producers()[1]
	if _, _, fatal := old.TxnProducerID(); fatal != "PRODUCER_FENCED" {
		t.Errorf("the first copier's fatal error: %q, want PRODUCER_FENCED", fatal)
	}
}
