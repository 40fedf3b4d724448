package txn

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// fakeEnv is the world around a coordinator in these tests: a clock, the
// partitions' leaders, its broker's replica of __transaction_state (appends
// wait until the test acknowledges them), and what it sent and noted.
type fakeEnv struct {
	now     int64
	leaders map[kafkalog.TopicPartition]int32
	deleted map[string]bool
	gone    map[int32]bool
	incs    map[int32]int
	nextPID int64
	log     map[int32][]LogRecord
	// waiting are the appends not yet acknowledged, oldest first.
	waiting []waitingAppend
	// markers are the WriteTxnMarkers sent and not yet answered.
	markers []netsim.Envelope
	out     strings.Builder
}

type waitingAppend struct {
	p      int32
	corr   int64
	record LogRecord
}

func newFakeEnv() *fakeEnv {
	return &fakeEnv{leaders: map[kafkalog.TopicPartition]int32{}, deleted: map[string]bool{}, gone: map[int32]bool{}, incs: map[int32]int{},
		nextPID: 1000, log: map[int32][]LogRecord{}}
}

func (f *fakeEnv) Now() int64      { return f.now }
func (f *fakeEnv) MarkLast(string) {}
func (f *fakeEnv) Record(kind event.Kind, broker int32, _ *kafkalog.TopicPartition, format string, args ...any) {
	fmt.Fprintf(&f.out, "note %s b%d: %s\n", kind, broker, fmt.Sprintf(format, args...))
}
func (f *fakeEnv) Send(e netsim.Envelope) {
	fmt.Fprintf(&f.out, "send %s %s\n", e.String(), describe(e.Txn))
	if e.Kind == netsim.KindTxnMarkers {
		f.markers = append(f.markers, e)
	}
}
func (f *fakeEnv) AppendLog(p int32, corr int64, key, value []byte) int16 {
	k, v, _, _ := kafkalog.FormatTxnLogRecord(key, value)
	fmt.Fprintf(&f.out, "append __transaction_state-%d %s %s\n", p, k, v)
	f.waiting = append(f.waiting, waitingAppend{p: p, corr: corr, record: LogRecord{Key: key, Value: value}})
	return 0
}
func (f *fakeEnv) ReadLog(p int32) []LogRecord { return f.log[p] }
func (f *fakeEnv) PartitionLeader(tp kafkalog.TopicPartition) (int32, bool) {
	if f.deleted[tp.Topic] {
		return replica.NoLeader, false
	}
	if l, ok := f.leaders[tp]; ok {
		return l, true
	}
	return replica.NoLeader, true
}
func (f *fakeEnv) BrokerGone(id int32, inc int) bool { return f.gone[id] || f.incs[id] != inc }
func (f *fakeEnv) BrokerIncarnation(id int32) int    { return f.incs[id] }
func (f *fakeEnv) AllocateProducerID() int64 {
	f.nextPID++
	return f.nextPID
}

// describe prints a message's fields.
func describe(m netsim.TxnMessage) string {
	switch m := m.(type) {
	case InitProducerIDResponse:
		return fmt.Sprintf("%s pid=%d epoch=%d", kafkaerr.Name(m.Error), m.ProducerID, m.Epoch)
	case AddPartitionsResponse:
		var parts []string
		for _, p := range m.Partitions {
			parts = append(parts, fmt.Sprintf("%s:%s", p.TP, kafkaerr.Name(p.Error)))
		}
		return strings.Join(parts, " ")
	case AddOffsetsResponse:
		return kafkaerr.Name(m.Error)
	case EndTxnResponse:
		return fmt.Sprintf("%s pid=%d epoch=%d", kafkaerr.Name(m.Error), m.ProducerID, m.Epoch)
	case WriteMarkers:
		var parts []string
		for _, mk := range m.Markers {
			verb := "ABORT"
			if mk.Commit {
				verb = "COMMIT"
			}
			parts = append(parts, fmt.Sprintf("%s pid=%d epoch=%d coordinator-epoch=%d %s", verb, mk.ProducerID, mk.Epoch, mk.CoordinatorEpoch, PartitionsText(mk.Partitions)))
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// TestCoordinator drives a transaction coordinator alone with the requests
// clients send it, the answers to its writes and markers, and the passing
// of time, and prints what it wrote, sent and noted. Regenerate with
// -rewrite and review the diff.
//
//	new [tv=2] [broker=1]            (one __transaction_state partition: every id is in partition 0)
//	elect [epoch=0] | resign
//	leader t-0=2 [t-1=3...] | delete-topic t | gone b=2 | restart b=2
//	init id=tx [timeout=60000] [pid=N epoch=N]
//	add id=tx pid=N epoch=N t-0 [t-1...] | verify id=tx pid=N epoch=N t-0 | offsets id=tx pid=N epoch=N group=g
//	end id=tx pid=N epoch=N commit|abort [tv2]
//	ack [error=NOT_ENOUGH_REPLICAS] [n=1]   (the oldest writes to __transaction_state answered)
//	markers [error=NOT_LEADER_OR_FOLLOWER]  (the oldest WriteTxnMarkers answered, every partition alike)
//	run ms=N                          (ticks of 100 ms)
//	show | log | describe id=tx | list [state=Ongoing]
func TestCoordinator(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if strings.Contains(filepath.ToSlash(path), "testdata/rapid/") {
			t.Skip("rapid's failure files, not a script")
		}
		var c *Coordinator
		env := newFakeEnv()
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			env.out.Reset()
			arg := func(key string) string {
				for _, a := range d.CmdArgs {
					if a.Key == key && len(a.Vals) > 0 {
						return a.Vals[0]
					}
				}
				return ""
			}
			has := func(key string) bool { return d.HasArg(key) }
			num := func(key string, def int64) int64 {
				if v := arg(key); v != "" {
					n, err := strconv.ParseInt(v, 10, 64)
					if err != nil {
						d.Fatalf(t, "%s: %v", key, err)
					}
					return n
				}
				return def
			}
			parts := func() []kafkalog.TopicPartition {
				var out []kafkalog.TopicPartition
				for _, a := range d.CmdArgs {
					if i := strings.LastIndex(a.Key, "-"); i > 0 && len(a.Vals) == 0 {
						p, err := strconv.Atoi(a.Key[i+1:])
						if err == nil {
							out = append(out, kafkalog.TopicPartition{Topic: a.Key[:i], Partition: int32(p)})
						}
					}
				}
				return out
			}
			code := func() int16 {
				name := arg("error")
				if name == "" {
					return 0
				}
				for c := int16(-1); c < 120; c++ {
					if kafkaerr.Name(c) == name {
						return c
					}
				}
				d.Fatalf(t, "unknown error %s", name)
				return 0
			}
			step := func(m netsim.TxnMessage) {
				if err := c.Step(env, &netsim.Envelope{From: 101, To: c.cfg.BrokerID, Kind: netsim.KindTxnRequest, Txn: m}); err != nil {
					fmt.Fprintf(&env.out, "error: %v\n", err)
				}
			}
			id, pid, epoch := arg("id"), num("pid", -1), int16(num("epoch", -1))
			switch d.Cmd {
			case "new":
				c = New(Config{BrokerID: int32(num("broker", 1)), NumPartitions: 1, OffsetsTopicNumPartitions: 1, TransactionVersion: int16(num("tv", 0))}, 1, env.now)
				return "ok"
			case "seed":
				// a record in __transaction_state-0 before the coordinator
				// loads it: transactional id id at producer id pid and
				// epoch, in state, written by a client of transaction
				// version tv
				st, ok := kafkalog.ParseTxnState(arg("state"))
				if !ok {
					d.Fatalf(t, "unknown state %s", arg("state"))
				}
				v := kafkalog.TxnLogValue{Version: 1, ProducerID: pid, PreviousProducerID: -1, NextProducerID: -1, ProducerEpoch: epoch,
					TransactionTimeoutMs: DefaultTimeoutMs, State: st, StartTimestampMs: -1, ClientTransactionVersion: int16(num("tv", 0))}
				env.log[0] = append(env.log[0], LogRecord{Key: kafkalog.AppendTxnLogKey(nil, id), Value: kafkalog.AppendTxnLogValue(nil, v)})
				return "ok"
			case "elect":
				if err := c.OnElection(env, 0, int32(num("epoch", 0))); err != nil {
					fmt.Fprintf(&env.out, "error: %v\n", err)
				}
			case "resign":
				c.OnResignation(env, 0)
			case "leader":
				for _, a := range d.CmdArgs {
					if i := strings.LastIndex(a.Key, "-"); i > 0 && len(a.Vals) == 1 {
						p, _ := strconv.Atoi(a.Key[i+1:])
						l, _ := strconv.Atoi(a.Vals[0])
						env.leaders[kafkalog.TopicPartition{Topic: a.Key[:i], Partition: int32(p)}] = int32(l)
					}
				}
				return "ok"
			case "delete-topic":
				env.deleted[d.CmdArgs[0].Key] = true
				return "ok"
			case "gone":
				b := int32(num("b", 0))
				env.gone[b] = true
				// the requests to it die with its connections
				env.markers = slices.DeleteFunc(env.markers, func(e netsim.Envelope) bool { return e.To == b })
				return "ok"
			case "restart":
				b := int32(num("b", 0))
				env.gone[b] = false
				env.incs[b]++
				return "ok"
			case "init":
				step(InitProducerID{Corr: 1, TransactionalID: id, TimeoutMs: int32(num("timeout", DefaultTimeoutMs)), ProducerID: pid, Epoch: epoch})
			case "add", "verify":
				step(AddPartitions{Corr: 1, TransactionalID: id, ProducerID: pid, Epoch: epoch, Partitions: parts(), VerifyOnly: d.Cmd == "verify"})
			case "offsets":
				step(AddOffsets{Corr: 1, TransactionalID: id, ProducerID: pid, Epoch: epoch, Group: arg("group")})
			case "end":
				step(EndTxn{Corr: 1, TransactionalID: id, ProducerID: pid, Epoch: epoch, Commit: has("commit"), TV2: has("tv2")})
			case "ack":
				for range num("n", 1) {
					if len(env.waiting) == 0 {
						env.out.WriteString("no write waits\n")
						break
					}
					w := env.waiting[0]
					env.waiting = env.waiting[1:]
					e := code()
					if e == 0 {
						env.log[w.p] = append(env.log[w.p], w.record)
					}
					if err := c.Step(env, &netsim.Envelope{Kind: netsim.KindProduceResp, Resp: replica.ProduceResponse{CorrelationID: w.corr, Error: replica.ErrorCode(e)}}); err != nil {
						fmt.Fprintf(&env.out, "error: %v\n", err)
					}
				}
			case "markers":
				if len(env.markers) == 0 {
					env.out.WriteString("no markers wait\n")
					break
				}
				e := env.markers[0]
				env.markers = env.markers[1:]
				req := e.Txn.(WriteMarkers)
				fmt.Fprintf(&env.out, "answer %s %s\n", e.String(), describe(req))
				resp := WriteMarkersResponse{Corr: req.Corr}
				for _, mk := range req.Markers {
					resp.Results = append(resp.Results, MarkerResult{ProducerID: mk.ProducerID, Partitions: allPartitions(mk.Partitions, code())})
				}
				if err := c.Step(env, &netsim.Envelope{From: e.To, To: e.From, Kind: netsim.KindTxnMarkersResponse, Txn: resp}); err != nil {
					fmt.Fprintf(&env.out, "error: %v\n", err)
				}
			case "run":
				for end := env.now + num("ms", 0); env.now < end; {
					env.now += 100
					if err := c.Tick(env); err != nil {
						fmt.Fprintf(&env.out, "error: %v\n", err)
					}
				}
				fmt.Fprintf(&env.out, "now %d\n", env.now)
			case "show":
				for _, m := range c.Transactions() {
					pending := ""
					if m.HasPending {
						pending = " pending=" + m.Pending.String()
					}
					fmt.Fprintf(&env.out, "%s pid=%d epoch=%d last-epoch=%d state=%s partitions=[%s] start=%d timeout=%d%s\n",
						m.ID, m.ProducerID, m.Epoch, m.LastEpoch, m.State, PartitionsText(m.Partitions), m.StartMs, m.TimeoutMs, pending)
				}
			case "log":
				for _, r := range env.log[0] {
					k, v, _, _ := kafkalog.FormatTxnLogRecord(r.Key, r.Value)
					fmt.Fprintf(&env.out, "%s %s\n", k, v)
				}
			case "describe":
				dd := c.Describe(id)
				fmt.Fprintf(&env.out, "%s pid=%d epoch=%d state=%s timeout=%d start=%d [%s]\n", kafkaerr.Name(dd.Error), dd.ProducerID, dd.Epoch, dd.State, dd.TimeoutMs, dd.StartMs, PartitionsText(dd.Partitions))
			case "list":
				var states []kafkalog.TxnState
				if s, ok := kafkalog.ParseTxnState(arg("state")); ok {
					states = append(states, s)
				}
				for _, l := range c.List(states, nil) {
					fmt.Fprintf(&env.out, "%s pid=%d %s\n", l.TransactionalID, l.ProducerID, l.State)
				}
			case "clone":
				c = c.Clone()
				return "ok"
			default:
				d.Fatalf(t, "unknown command %s", d.Cmd)
			}
			if env.out.Len() == 0 {
				return "ok"
			}
			return strings.TrimRight(env.out.String(), "\n")
		})
	})
}
