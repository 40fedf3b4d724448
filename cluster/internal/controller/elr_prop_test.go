package controller

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// elrModel is three brokers and one partition (replicas 1, 2, 3,
// min.insync.replicas 2) with what each broker's log holds, counted in
// committed records: a record is committed when the leader has an ISR of
// at least min ISR, every member of which then holds it (strict min ISR);
// a power cut loses a broker's records, a crash or a clean stop keeps
// them.
type elrModel struct {
	c   *Controller
	env *fakeEnv
	k   tp
	// committed is the records committed so far; holds[id] how many of
	// them broker id's log holds (a prefix).
	committed int
	holds     [4]int
	// up, inc and marker are each broker's process: running, its
	// incarnation, and the broker epoch its clean shutdown marker holds
	// (-1: none).
	up     [4]bool
	inc    [4]int
	marker [4]int64
	// lastKnownLeaderElections counts the elections of the last known
	// leader (KIP-966's exception: it may have lost records).
	lastKnownLeaderElections int
}

func newELRModel(t *rapid.T, unclean bool) *elrModel {
	m := &elrModel{env: &fakeEnv{running: map[int32]bool{}}, k: tp{Topic: "t", Partition: 0}}
	m.c = New(Config{Brokers: 3, BrokerSessionTimeoutMs: 9000, EligibleLeaderReplicas: true,
		BrokerSettings: defaultSettings()})
	for id := int32(1); id <= 3; id++ {
		m.up[id], m.inc[id], m.marker[id] = true, 1, -1
		m.env.running[id] = true
		m.c.Step(m.env, &netsim.Envelope{From: id, To: netsim.Controller, Kind: netsim.KindRegister, Incarnation: 1, PreviousBrokerEpoch: -1})
	}
	m.c.AddTopic(metadata.Topic{Name: "t", MinInsyncReplicas: 2, UncleanLeaderElectionEnable: &unclean})
	m.c.AddPartition(m.env, m.k, []int32{1, 2, 3})
	return m
}

func (m *elrModel) part() View { v, _ := m.c.View(m.k); return v }

// produce commits a record when the leader runs with an ISR of at least
// two running members.
func (m *elrModel) produce() {
	v := m.part()
	if v.Leader == replica.NoLeader || len(v.ISR) < 2 {
		return
	}
	for _, id := range v.ISR {
		if !m.up[id] {
			return
		}
	}
	m.committed++
	for _, id := range v.ISR {
		m.holds[id] = m.committed
	}
}

// follow lets a running follower copy the leader's log: a follower that
// holds what the leader holds joins the ISR (the leader's AlterPartition).
func (m *elrModel) follow(id int32) {
	v := m.part()
	if v.Leader == replica.NoLeader || v.Leader == id || !m.up[id] || !m.up[v.Leader] || slices.Contains(v.ISR, id) {
		return
	}
	m.holds[id] = m.holds[v.Leader] // truncates to the leader's log or catches up
	m.c.Step(m.env, &netsim.Envelope{From: v.Leader, To: netsim.Controller, Kind: netsim.KindAlterPartition, TP: m.k,
		Alter: replica.AlterPartition{ISR: append(slices.Clone(v.ISR), id), LeaderEpoch: v.LeaderEpoch, PartitionEpoch: v.PartitionEpoch}})
}

// lag is the leader dropping a running follower that fell behind.
func (m *elrModel) lag(id int32) {
	v := m.part()
	if v.Leader == replica.NoLeader || v.Leader == id || !m.up[v.Leader] || !slices.Contains(v.ISR, id) {
		return
	}
	isr := slices.DeleteFunc(slices.Clone(v.ISR), func(x int32) bool { return x == id })
	m.c.Step(m.env, &netsim.Envelope{From: v.Leader, To: netsim.Controller, Kind: netsim.KindAlterPartition, TP: m.k,
		Alter: replica.AlterPartition{ISR: isr, LeaderEpoch: v.LeaderEpoch, PartitionEpoch: v.PartitionEpoch}})
}

// down ends broker id's process: a clean stop (controlled shutdown, the
// marker holds its epoch), a crash (its log survives) or a power cut (its
// log is lost); the controller fences it when its session expires.
func (m *elrModel) down(id int32, how string) {
	if !m.up[id] {
		return
	}
	m.up[id], m.env.running[id] = false, false
	switch how {
	case "stop":
		m.marker[id] = m.c.Registration(id).Epoch
		m.c.Step(m.env, &netsim.Envelope{From: id, To: netsim.Controller, Kind: netsim.KindShutdown, Incarnation: m.inc[id]})
	case "power-cut":
		m.holds[id] = 0
	}
	m.env.now += 10000
	for b := int32(1); b <= 3; b++ {
		if m.up[b] {
			m.c.Step(m.env, &netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindHeartbeat, Incarnation: m.inc[b]})
		}
	}
	m.c.Tick(m.env)
}

// start runs broker id again: its registration carries its marker's epoch,
// which the start removes.
func (m *elrModel) start(id int32) {
	if m.up[id] {
		return
	}
	m.up[id], m.env.running[id] = true, true
	m.inc[id]++
	prev := m.marker[id]
	m.marker[id] = -1
	m.c.Step(m.env, &netsim.Envelope{From: id, To: netsim.Controller, Kind: netsim.KindRegister, Incarnation: m.inc[id], PreviousBrokerEpoch: prev})
	if strings.Contains(m.env.out.String(), "elected the last known leader") {
		m.lastKnownLeaderElections++
	}
}

// check is the rules' invariants, and KIP-966's promise: a leader elected
// from the ISR or the ELR holds every committed record.
func (m *elrModel) check(t *rapid.T, step string, uncleanElection bool) {
	v := m.part()
	for _, id := range slices.Concat(v.ISR, v.ELR, v.LastKnownELR) {
		if !slices.Contains(v.Replicas, id) {
			t.Fatalf("%s: %d is not a replica: %+v", step, id, v)
		}
	}
	for _, id := range v.ELR {
		if slices.Contains(v.ISR, id) {
			t.Fatalf("%s: broker %d is both in the ISR and the ELR: %+v", step, id, v)
		}
	}
	if len(v.ISR) >= 2 && len(v.ELR) > 0 {
		t.Fatalf("%s: an ISR at min ISR keeps an ELR: %+v", step, v)
	}
	if v.Leader != replica.NoLeader && !slices.Contains(v.ISR, v.Leader) {
		t.Fatalf("%s: the leader %d is not in the ISR: %+v", step, v.Leader, v)
	}
	if v.Leader != replica.NoLeader && len(v.LastKnownELR) > 0 || len(v.LastKnownELR) > 1 {
		t.Fatalf("%s: a last known leader %v while the partition has leader %d", step, v.LastKnownELR, v.Leader)
	}
	if v.Leader != replica.NoLeader && m.holds[v.Leader] < m.committed && m.lastKnownLeaderElections == 0 && !uncleanElection {
		t.Fatalf("%s: leader %d holds %d of the %d committed records: %+v (holds %v)", step, v.Leader, m.holds[v.Leader], m.committed, v, m.holds)
	}
	for _, id := range slices.Concat(v.ISR, v.ELR) {
		if m.up[id] && m.c.Unfenced(id) && m.holds[id] < m.committed && m.lastKnownLeaderElections == 0 && !uncleanElection {
			t.Fatalf("%s: live eligible broker %d holds %d of the %d committed records: %+v (holds %v)", step, id, m.holds[id], m.committed, v, m.holds)
		}
	}
}

// TestELRElectsOnlyWhoHoldsTheCommittedRecords drives the controller with
// random clean stops, crashes, power cuts, restarts, produces, followers
// joining and leaving the ISR, and checks after each that the ISR, the ELR
// and the last known leader keep KIP-966's rules, and that until the last
// known leader is elected (the one election that may lose records, as
// Kafka before 4.0 lost them by electing the last ISR member) every leader
// and every live eligible replica holds every committed record: the ELR
// tolerates min.insync.replicas - 1 power cuts.
func TestELRElectsOnlyWhoHoldsTheCommittedRecords(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		unclean := rapid.Bool().Draw(t, "unclean.leader.election.enable")
		m := newELRModel(t, unclean)
		uncleanElection := false
		for i := range rapid.IntRange(1, 40).Draw(t, "steps") {
			op := rapid.SampledFrom([]string{"produce", "follow", "lag", "stop", "crash", "power-cut", "start"}).Draw(t, fmt.Sprintf("op %d", i))
			id := int32(rapid.IntRange(1, 3).Draw(t, fmt.Sprintf("broker %d", i)))
			m.env.out.Reset()
			switch op {
			case "produce":
				m.produce()
			case "follow":
				m.follow(id)
			case "lag":
				m.lag(id)
			case "stop", "crash", "power-cut":
				m.down(id, op)
			case "start":
				m.start(id)
			}
			uncleanElection = uncleanElection || strings.Contains(m.env.out.String(), "unclean election")
			m.check(t, fmt.Sprintf("after %s %d", op, id), uncleanElection)
		}
	})
}

func defaultSettings() topicconfig.Settings {
	return topicconfig.Settings{Log: kafkalog.DefaultConfig(), MinInsyncReplicas: 1}
}
