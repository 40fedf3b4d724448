package group_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/group"
)

var (
	handoverRuns = flag.Int("handover.n", 200, "runs of TestHandoverNeverFetchesOlderThanAcked")
	handoverSeed = flag.Uint64("handover.seed", 0, "with -run TestHandoverNeverFetchesOlderThanAcked: replay this seed only, printing its trace")
)

// TestHandoverNeverFetchesOlderThanAcked: consumers join, close and crash
// while the coordinator's answers are delayed at random (each link stays
// FIFO) and some are lost. Whenever a member that revoked a partition was
// told its commit of position P succeeded, the next member to own that
// partition fetches a committed offset of at least P: the member rejoins
// only after its revocation commit is answered, so no generation that
// hands the partition on can form before the offset is stored.
func TestHandoverNeverFetchesOlderThanAcked(t *testing.T) {
	first, n := uint64(1), uint64(*handoverRuns)
	if *handoverSeed != 0 {
		first, n = *handoverSeed, 1
	}
	acked, handovers := 0, 0
	for seed := first; seed < first+n; seed++ {
		h := newHandover(t, seed)
		h.run()
		acked += h.acks
		handovers += h.fetches
		if h.failure != "" || *handoverSeed != 0 {
			t.Logf("seed %d trace:\n%s", seed, h.trace.String())
		}
		if h.failure != "" {
			t.Fatalf("seed %d: %s\nreplay: go test ./group -run TestHandoverNeverFetchesOlderThanAcked -handover.seed=%d -v", seed, h.failure, seed)
		}
	}
	t.Logf("%d runs: %d revocation commits acknowledged, %d committed offsets fetched by a new owner", n, acked, handovers)
	if n >= 50 && (acked == 0 || handovers == 0) {
		t.Errorf("the runs acknowledged %d revocation commits and fetched %d offsets: the property was never put to the test", acked, handovers)
	}
}

// handoverRequestTimeoutMs is the members' request.timeout.ms.
const handoverRequestTimeoutMs = 4000

// handoverMsg is a request or an answer on its way.
type handoverMsg struct {
	atMs int64
	req  group.Request
	resp group.Response
	// revokedAtMs is, on the answer to a commit sent on revocation, when
	// the member revoked; 0 otherwise.
	revokedAtMs int64
}

type handoverMember struct {
	name    string
	m       *group.Member
	crashed bool
	// positions are the next offsets to process of the partitions it
	// fetches; waiting the assigned ones whose committed offset it asked
	// for, with when it asked.
	positions map[group.TopicPartition]int64
	waiting   map[group.TopicPartition]int64
	// toCoord and fromCoord are the two directions of its FIFO link;
	// parked are its answers not yet on the link: the coordinator sends an
	// OffsetCommit's answer once the offsets are stored, and the answers
	// after it behind it.
	toCoord, fromCoord, parked []handoverMsg
	// commits are its OffsetCommits the coordinator has not answered yet,
	// oldest first: when it revoked for one sent on revocation, else 0.
	commits []int64
	// revocation is the last commit it sent on revocation, at revokedAtMs.
	revocation  []group.PartitionOffset
	revokedAtMs int64
	nextCommit  int64
}

type handoverStore struct {
	atMs    int64
	records []group.OffsetCommitRecord
}

type handover struct {
	t       *testing.T
	rnd     *rand.Rand
	nowMs   int64
	coord   *group.Coordinator
	store   *group.MemoryOffsetStore
	members []*handoverMember
	// acked is, per partition, the highest position a revoking member was
	// told it committed.
	acked map[group.TopicPartition]int64
	// stores are the coordinator's commits on their way to the offsets
	// log, stored at their atMs in order.
	stores   []handoverStore
	assignor group.Assignor
	loss     float64
	maxDelay int64
	maxStore int64
	trace    strings.Builder
	failure  string
	acks     int
	fetches  int
	next     int
}

func newHandover(t *testing.T, seed uint64) *handover {
	h := &handover{t: t, rnd: rand.New(rand.NewPCG(seed, 0x68616e646f766572)), store: &group.MemoryOffsetStore{}, acked: map[group.TopicPartition]int64{}}
	c, err := group.NewCoordinator(group.Config{GroupMinSessionTimeoutMs: 6000, GroupMaxSessionTimeoutMs: 1800000, GroupInitialRebalanceDelayMs: 500}, h.store, 0)
	if err != nil {
		t.Fatal(err)
	}
	h.coord = c
	h.assignor = []group.Assignor{group.RangeAssignor{}, group.StickyAssignor{}, group.CooperativeStickyAssignor{}}[h.rnd.IntN(3)]
	h.loss = []float64{0, 0.02, 0.1}[h.rnd.IntN(3)]
	h.maxDelay = []int64{5, 300, 3000}[h.rnd.IntN(3)]
	h.maxStore = []int64{0, 200, 2000}[h.rnd.IntN(3)]
	h.logf("assignor %s, answers lost with probability %.2f, delays up to %d ms, offsets stored within %d ms", h.assignor.Name(), h.loss, h.maxDelay, h.maxStore)
	return h
}

func (h *handover) logf(format string, args ...any) {
	fmt.Fprintf(&h.trace, "%7d ms ", h.nowMs)
	fmt.Fprintf(&h.trace, format, args...)
	h.trace.WriteByte('\n')
}

// logEnd is the partition's log end offset: ten records a second.
func (h *handover) logEnd() int64 { return h.nowMs / 100 }

func (h *handover) addMember() {
	h.next++
	name := fmt.Sprintf("c%d", h.next)
	cfg := group.DefaultMemberConfig("g", name, []string{"t"}, h.assignor)
	cfg.SessionTimeoutMs, cfg.HeartbeatIntervalMs, cfg.MaxPollIntervalMs, cfg.RequestTimeoutMs = 6000, 1000, 20000, handoverRequestTimeoutMs
	m, err := group.NewMember(cfg, h.nowMs)
	if err != nil {
		h.t.Fatal(err)
	}
	m.SetMetadata([]group.TopicMetadata{{Topic: "t", Partitions: 4}})
	h.members = append(h.members, &handoverMember{name: name, m: m, positions: map[group.TopicPartition]int64{},
		waiting: map[group.TopicPartition]int64{}, nextCommit: h.nowMs + 1000})
	h.logf("%s starts", name)
}

func (h *handover) run() {
	h.addMember()
	h.addMember()
	for h.nowMs < 120_000 && h.failure == "" {
		h.nowMs += 50
		if h.nowMs%3000 == 0 && h.nowMs < 90_000 {
			h.randomEvent()
		}
		h.coord.Tick(h.nowMs)
		h.coordinatorReady()
		h.storeDue()
		for _, hm := range h.members {
			if hm.crashed {
				continue
			}
			h.deliver(hm)
			hm.m.Tick(h.nowMs)
			h.memberReady(hm)
			h.process(hm)
			hm.m.Poll(h.nowMs)
			h.memberReady(hm)
			h.send(hm)
		}
	}
}

// randomEvent adds a member, closes one or crashes one.
func (h *handover) randomEvent() {
	var live []*handoverMember
	for _, hm := range h.members {
		if !hm.crashed && hm.m.State() != group.Left {
			live = append(live, hm)
		}
	}
	switch r := h.rnd.IntN(6); {
	case r < 3 && len(live) < 4 || len(live) < 2:
		h.addMember()
	case r < 5:
		hm := live[h.rnd.IntN(len(live))]
		h.logf("%s closes", hm.name)
		hm.m.Close()
		h.memberReady(hm)
	default:
		hm := live[h.rnd.IntN(len(live))]
		h.logf("%s crashes", hm.name)
		hm.crashed = true
	}
}

// process hands the application records of the partitions it fetches, and
// auto-commits every second.
func (h *handover) process(hm *handoverMember) {
	for _, tp := range hm.m.Fetchable() {
		if pos, ok := hm.positions[tp]; ok {
			hm.positions[tp] = min(h.logEnd(), pos+int64(h.rnd.IntN(20)))
		}
	}
	for tp, at := range hm.waiting {
		if h.nowMs-at > 5000 {
			hm.waiting[tp] = h.nowMs
			hm.m.FetchCommitted([]group.TopicPartition{tp})
		}
	}
	if h.nowMs >= hm.nextCommit {
		hm.nextCommit = h.nowMs + 1000
		hm.m.Commit(h.positionsOf(hm, hm.m.Fetchable()))
	}
	h.memberReady(hm)
}

func (h *handover) positionsOf(hm *handoverMember, tps []group.TopicPartition) []group.PartitionOffset {
	var out []group.PartitionOffset
	for _, tp := range tps {
		if pos, ok := hm.positions[tp]; ok {
			out = append(out, group.PartitionOffset{TopicPartition: tp, Offset: pos, LeaderEpoch: -1})
		}
	}
	return out
}

// memberReady acts on the member's output as a consumer does.
func (h *handover) memberReady(hm *handoverMember) {
	for hm.m.HasReady() {
		rd := hm.m.Ready()
		for _, req := range rd.Requests {
			hm.toCoord = append(hm.toCoord, handoverMsg{atMs: h.arrival(hm.toCoord), req: req})
		}
		for _, tp := range rd.Lost {
			delete(hm.positions, tp)
			delete(hm.waiting, tp)
		}
		if len(rd.Revoke) > 0 {
			commits := h.positionsOf(hm, rd.Revoke)
			for _, tp := range rd.Revoke {
				delete(hm.positions, tp)
				delete(hm.waiting, tp)
			}
			h.logf("%s revokes %s, commits %v", hm.name, group.FormatPartitions(rd.Revoke), commits)
			if len(commits) > 0 {
				hm.revocation, hm.revokedAtMs = commits, h.nowMs
			}
			hm.m.Revoked(commits)
		}
		if len(rd.Assigned) > 0 {
			for _, tp := range rd.Assigned {
				hm.waiting[tp] = h.nowMs
			}
			h.logf("%s assigned %s", hm.name, group.FormatPartitions(rd.Assigned))
			hm.m.FetchCommitted(rd.Assigned)
		}
		for _, po := range rd.Fetched {
			h.fetched(hm, po)
		}
		for _, err := range rd.Errors {
			h.logf("%s: %v", hm.name, err)
		}
	}
}

// fetched starts a newly assigned partition at its committed offset, or
// at the log end (auto.offset.reset=latest), and checks the property.
func (h *handover) fetched(hm *handoverMember, po group.PartitionOffset) {
	if _, ok := hm.waiting[po.TopicPartition]; !ok {
		return
	}
	delete(hm.waiting, po.TopicPartition)
	if acked, ok := h.acked[po.TopicPartition]; ok {
		h.fetches++
		if po.Offset < acked {
			h.failure = fmt.Sprintf("%s fetched committed offset %d for %s, but its previous owner was told its commit of %d succeeded", hm.name, po.Offset, po.TopicPartition, acked)
		}
	}
	pos := po.Offset
	if pos < 0 {
		pos = h.logEnd()
	}
	hm.positions[po.TopicPartition] = pos
	h.logf("%s starts %s at %d (committed %d)", hm.name, po.TopicPartition, pos, po.Offset)
}

// arrival is when a message sent now on a link arrives: a random delay,
// never before the one sent before it.
func (h *handover) arrival(q []handoverMsg) int64 {
	at := h.nowMs + h.rnd.Int64N(h.maxDelay+1)
	if len(q) > 0 {
		at = max(at, q[len(q)-1].atMs)
	}
	return at
}

// send hands the coordinator the requests that arrived.
func (h *handover) send(hm *handoverMember) {
	for len(hm.toCoord) > 0 && hm.toCoord[0].atMs <= h.nowMs {
		req := hm.toCoord[0].req
		hm.toCoord = hm.toCoord[1:]
		if c, ok := req.(group.OffsetCommit); ok {
			var revokedAt int64
			if slices.Equal(c.Offsets, hm.revocation) {
				revokedAt = hm.revokedAtMs
			}
			hm.commits = append(hm.commits, revokedAt)
		}
		if err := h.coord.Step(hm.name, req); err != nil {
			h.t.Fatal(err)
		}
		h.coordinatorReady()
	}
}

// coordinatorReady sends the commits to the offsets log (stored after a
// random delay, as an acks=all append to __consumer_offsets) and parks the
// answers until then; the coordinator goes on with other requests
// meanwhile.
func (h *handover) coordinatorReady() {
	if !h.coord.HasReady() {
		return
	}
	rd := h.coord.Ready()
	defer h.coordinatorReady() // the answers the stored group records release
	for _, g := range rd.Groups {
		h.coord.GroupStored(g.StoreID, group.None)
	}
	release := h.nowMs
	if len(rd.Commits) > 0 {
		release += h.rnd.Int64N(h.maxStore + 1)
		if n := len(h.stores); n > 0 {
			release = max(release, h.stores[n-1].atMs)
		}
		h.stores = append(h.stores, handoverStore{atMs: release, records: rd.Commits})
	}
	for _, o := range rd.Responses {
		hm := h.member(o.To)
		if hm == nil {
			continue
		}
		msg := handoverMsg{resp: o.Response, atMs: release}
		if _, ok := o.Response.(group.OffsetCommitResponse); ok && len(hm.commits) > 0 {
			msg.revokedAtMs = hm.commits[0]
			hm.commits = hm.commits[1:]
		}
		hm.parked = append(hm.parked, msg)
	}
	h.storeDue()
}

// storeDue stores the commits whose time came, then puts the answers
// released on their links, in order, losing some.
func (h *handover) storeDue() {
	for len(h.stores) > 0 && h.stores[0].atMs <= h.nowMs {
		for _, c := range h.stores[0].records {
			if err := h.store.Commit(c); err != nil {
				h.t.Fatal(err)
			}
		}
		h.stores = h.stores[1:]
	}
	for _, hm := range h.members {
		for len(hm.parked) > 0 && hm.parked[0].atMs <= h.nowMs {
			msg := hm.parked[0]
			hm.parked = hm.parked[1:]
			if h.rnd.Float64() < h.loss {
				h.logf("%s: answer %s lost", hm.name, group.DescribeResponse(msg.resp))
				continue
			}
			msg.atMs = h.arrival(hm.fromCoord)
			hm.fromCoord = append(hm.fromCoord, msg)
		}
	}
}

// deliver hands the member the answers that arrived. A revocation
// commit's success that arrives within request.timeout.ms of the
// revocation is one the member was told of (a later one, Kafka's client
// has failed the request by then): the next owner must see it.
func (h *handover) deliver(hm *handoverMember) {
	for len(hm.fromCoord) > 0 && hm.fromCoord[0].atMs <= h.nowMs {
		msg := hm.fromCoord[0]
		hm.fromCoord = hm.fromCoord[1:]
		if err := hm.m.Step(msg.resp); err != nil {
			h.t.Fatal(err)
		}
		if r, ok := msg.resp.(group.OffsetCommitResponse); ok && msg.revokedAtMs != 0 && r.Error == group.None &&
			h.nowMs-msg.revokedAtMs < handoverRequestTimeoutMs {
			h.acks++
			for _, po := range r.Offsets {
				h.acked[po.TopicPartition] = max(h.acked[po.TopicPartition], po.Offset)
			}
			h.logf("%s told its revocation commit %v succeeded", hm.name, r.Offsets)
		}
		h.memberReady(hm)
	}
}

func (h *handover) member(name string) *handoverMember {
	for _, hm := range h.members {
		if hm.name == name && !hm.crashed {
			return hm
		}
	}
	return nil
}
