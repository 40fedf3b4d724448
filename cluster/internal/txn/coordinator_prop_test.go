package txn

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// coordMachine drives a coordinator with random requests from producers
// who know (or misremember) their epochs, random answers to its writes and
// markers, and time, and checks what must hold whatever happens.
type coordMachine struct {
	env   *fakeEnv
	c     *Coordinator
	tv    int16
	steps []string
	// epochs is, per transactional id and producer id, the highest epoch
	// the coordinator's state ever held.
	epochs map[string]int16
}

var propIDs = []string{"a", "b"}

func (m *coordMachine) step(t *rapid.T, msg netsim.TxnMessage) {
	m.steps = append(m.steps, fmt.Sprintf("%s %+v", msg.TxnName(), msg))
	if err := m.c.Step(m.env, &netsim.Envelope{From: 101, To: 1, Kind: netsim.KindTxnRequest, Txn: msg}); err != nil {
		t.Fatalf("%v\nsteps:\n%s", err, m.script())
	}
}

func (m *coordMachine) script() string {
	s := ""
	for _, l := range m.steps {
		s += "  " + l + "\n"
	}
	return s
}

// producer draws what a producer of id believes: its producer id and epoch
// as the coordinator has them, or an older epoch (a zombie).
func (m *coordMachine) producer(t *rapid.T) (string, int64, int16) {
	id := rapid.SampledFrom(propIDs).Draw(t, "transactional id")
	md, ok := m.c.Transaction(id)
	if !ok {
		return id, 1, 0
	}
	epoch := md.Epoch - int16(rapid.IntRange(0, 1).Draw(t, "zombie by"))
	return id, md.ProducerID, max(epoch, 0)
}

func (m *coordMachine) Init(t *rapid.T) {
	id := rapid.SampledFrom(propIDs).Draw(t, "transactional id")
	m.step(t, InitProducerID{TransactionalID: id, TimeoutMs: int32(rapid.SampledFrom([]int{60000, 3000}).Draw(t, "transaction.timeout.ms")), ProducerID: -1, Epoch: -1})
}

func (m *coordMachine) Add(t *rapid.T) {
	id, pid, epoch := m.producer(t)
	tp := kafkalog.TopicPartition{Topic: "t", Partition: int32(rapid.IntRange(0, 2).Draw(t, "partition"))}
	m.step(t, AddPartitions{TransactionalID: id, ProducerID: pid, Epoch: epoch, Partitions: []kafkalog.TopicPartition{tp}})
}

func (m *coordMachine) End(t *rapid.T) {
	id, pid, epoch := m.producer(t)
	m.step(t, EndTxn{TransactionalID: id, ProducerID: pid, Epoch: epoch, Commit: rapid.Bool().Draw(t, "commit"), TV2: m.tv >= 2})
}

func (m *coordMachine) Ack(t *rapid.T) {
	if len(m.env.waiting) == 0 {
		t.Skip("no write waits")
	}
	w := m.env.waiting[0]
	m.env.waiting = m.env.waiting[1:]
	code := rapid.SampledFrom([]replica.ErrorCode{replica.None, replica.None, replica.None, replica.NotEnoughReplicas}).Draw(t, "write answer")
	if code == replica.None {
		m.env.log[w.p] = append(m.env.log[w.p], w.record)
	}
	m.steps = append(m.steps, fmt.Sprintf("write answered %s", code))
	if err := m.c.Step(m.env, &netsim.Envelope{Kind: netsim.KindProduceResp, Resp: replica.ProduceResponse{CorrelationID: w.corr, Error: code}}); err != nil {
		t.Fatalf("%v\nsteps:\n%s", err, m.script())
	}
}

func (m *coordMachine) Markers(t *rapid.T) {
	if len(m.env.markers) == 0 {
		t.Skip("no markers wait")
	}
	e := m.env.markers[0]
	m.env.markers = m.env.markers[1:]
	req := e.Txn.(WriteMarkers)
	code := rapid.SampledFrom([]int16{0, 0, int16(replica.NotLeaderOrFollower)}).Draw(t, "marker answer")
	resp := WriteMarkersResponse{Corr: req.Corr}
	for _, mk := range req.Markers {
		resp.Results = append(resp.Results, MarkerResult{ProducerID: mk.ProducerID, Partitions: allPartitions(mk.Partitions, code)})
	}
	m.steps = append(m.steps, fmt.Sprintf("markers answered %s", kafkaerr.Name(code)))
	if err := m.c.Step(m.env, &netsim.Envelope{From: e.To, To: 1, Kind: netsim.KindTxnMarkersResponse, Txn: resp}); err != nil {
		t.Fatalf("%v\nsteps:\n%s", err, m.script())
	}
}

func (m *coordMachine) Time(t *rapid.T) {
	ms := int64(rapid.SampledFrom([]int{100, 1000, 10000}).Draw(t, "ms passing"))
	m.steps = append(m.steps, fmt.Sprintf("%d ms pass", ms))
	for end := m.env.now + ms; m.env.now < end; {
		m.env.now += 100
		if err := m.c.Tick(m.env); err != nil {
			t.Fatalf("%v\nsteps:\n%s", err, m.script())
		}
	}
}

func (m *coordMachine) Check(t *rapid.T) {
	for _, md := range m.c.Transactions() {
		key := fmt.Sprintf("%s/%d", md.ID, md.ProducerID)
		if prev, ok := m.epochs[key]; ok && md.Epoch < prev {
			t.Fatalf("%s: producer id %d's epoch went from %d back to %d\nsteps:\n%s", md.ID, md.ProducerID, prev, md.Epoch, m.script())
		}
		m.epochs[key] = md.Epoch
		if (md.State == kafkalog.TxnEmpty || md.State == kafkalog.TxnCompleteCommit || md.State == kafkalog.TxnCompleteAbort) && len(md.Partitions) > 0 {
			t.Fatalf("%s is %s with partitions %v\nsteps:\n%s", md.ID, md.State, md.Partitions, m.script())
		}
	}
	m.checkFailover(t)
}

// checkFailover checks that a coordinator elected on the log written so
// far knows what this one knows of each id with no write in flight: the
// producer id, the epoch, the state (a prepared transaction completing).
func (m *coordMachine) checkFailover(t *rapid.T) {
	other := newFakeEnv()
	other.log = m.env.log
	other.leaders = m.env.leaders
	o := New(Config{BrokerID: 2, NumPartitions: 1, OffsetsTopicNumPartitions: 1, TransactionVersion: m.tv}, 1, m.env.now)
	if err := o.OnElection(other, 0, 1); err != nil {
		t.Fatal(err)
	}
	for _, md := range m.c.Transactions() {
		if md.HasPending && !slices.Contains([]kafkalog.TxnState{kafkalog.TxnCompleteCommit, kafkalog.TxnCompleteAbort}, md.Pending) {
			continue
		}
		if md.failedFence {
			// Kafka's hasFailedEpochFence: the fence's epoch went up in
			// memory, its write failed; the log has the one before
			continue
		}
		got, ok := o.Transaction(md.ID)
		if !ok {
			if md.Epoch >= 0 && md.State != kafkalog.TxnEmpty {
				t.Fatalf("%s (%s) is not in the log\nsteps:\n%s", md.ID, md.State, m.script())
			}
			continue
		}
		if got.ProducerID != md.ProducerID || got.Epoch != md.Epoch || got.State != md.State {
			t.Fatalf("a coordinator loading the log has %s at producer id %d epoch %d %s; this one has producer id %d epoch %d %s\nsteps:\n%s",
				md.ID, got.ProducerID, got.Epoch, got.State, md.ProducerID, md.Epoch, md.State, m.script())
		}
	}
}

// Whatever clients ask, however writes and markers are answered and time
// passes, a transactional id's epoch never goes back within a producer id,
// a completed or empty transaction holds no partitions, and a coordinator
// that loads the log knows each settled id as the running one does (but for
// a fence whose write failed, whose epoch Kafka bumps in memory only).
func TestCoordinatorProperties(t *testing.T) {
	for _, tv := range []int16{0, 2} {
		t.Run(fmt.Sprintf("transaction.version=%d", tv), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				env := newFakeEnv()
				for p := range 3 {
					env.leaders[kafkalog.TopicPartition{Topic: "t", Partition: int32(p)}] = int32(p + 1)
				}
				c := New(Config{BrokerID: 1, NumPartitions: 1, OffsetsTopicNumPartitions: 1, TransactionVersion: tv}, 1, 0)
				if err := c.OnElection(env, 0, 0); err != nil {
					t.Fatal(err)
				}
				m := &coordMachine{env: env, c: c, tv: tv, epochs: map[string]int16{}}
				t.Repeat(rapid.StateMachineActions(m))
			})
		})
	}
}

// A clone goes on apart from its original.
func TestCoordinatorClone(t *testing.T) {
	env := newFakeEnv()
	env.leaders[kafkalog.TopicPartition{Topic: "t", Partition: 0}] = 2
	c := New(Config{BrokerID: 1, NumPartitions: 1, OffsetsTopicNumPartitions: 1}, 1, 0)
	if err := c.OnElection(env, 0, 0); err != nil {
		t.Fatal(err)
	}
	step := func(c *Coordinator, m netsim.TxnMessage) {
		if err := c.Step(env, &netsim.Envelope{From: 101, To: 1, Kind: netsim.KindTxnRequest, Txn: m}); err != nil {
			t.Fatal(err)
		}
	}
	ack := func(c *Coordinator) {
		w := env.waiting[0]
		env.waiting = env.waiting[1:]
		if err := c.Step(env, &netsim.Envelope{Kind: netsim.KindProduceResp, Resp: replica.ProduceResponse{CorrelationID: w.corr}}); err != nil {
			t.Fatal(err)
		}
	}
	step(c, InitProducerID{TransactionalID: "x", TimeoutMs: 1000, ProducerID: -1, Epoch: -1})
	ack(c)
	step(c, AddPartitions{TransactionalID: "x", ProducerID: 1001, Partitions: []kafkalog.TopicPartition{{Topic: "t"}}})
	cl := c.Clone()
	ack(c)
	if md, _ := cl.Transaction("x"); md.State != kafkalog.TxnEmpty || !md.HasPending {
		t.Fatalf("the clone's x is %s (pending %v): the original's write reached it", md.State, md.HasPending)
	}
	if md, _ := c.Transaction("x"); md.State != kafkalog.TxnOngoing {
		t.Fatalf("the original's x is %s", md.State)
	}
}
