package broker

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/controller"
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// fakeEnv is the world around the brokers in these tests, in miniature:
// a clock, a controller (the real one: its metadata and its checks of the
// admin requests the brokers forward), a FIFO network between the brokers
// and the controller, and the clients' requests. It routes what the
// machines send as the world does, and notes what they record.
type fakeEnv struct {
	now     int64
	rnd     *rand.Rand
	ctl     *controller.Controller
	brokers []*Broker
	rq      *Requests
	net     netsim.Network
	inUse   map[string]bool
	out     strings.Builder
}

func newFakeEnv(brokers int, minISR int) *fakeEnv { return newFakeEnvWith(brokers, minISR, true) }

// newFakeEnvWith is newFakeEnv with the consumer group protocol (KIP-848)
// served or not (Kafka 3.7's default).
func newFakeEnvWith(brokers int, minISR int, consumerProtocol bool) *fakeEnv {
	settings := topicconfig.Settings{Log: kafkalog.DefaultConfig(), MinInsyncReplicas: minISR}
	f := &fakeEnv{rnd: rand.New(rand.NewPCG(1, 2)), rq: &Requests{}, inUse: map[string]bool{},
		ctl: controller.New(controller.Config{Brokers: brokers, BrokerSessionTimeoutMs: 9000, BrokerSettings: settings,
			EligibleLeaderReplicas: replica.Modern.EligibleLeaderReplicas()})}
	for id := int32(1); int(id) <= brokers; id++ {
		f.brokers = append(f.brokers, New(Config{ID: id, Rules: replica.Modern, ReplicaLagTimeMaxMs: 30000, ReplicaFetchWaitMaxMs: 500,
			BrokerHeartbeatIntervalMs: 2000, LogRetentionCheckIntervalMs: 300000, LogCleanerBackoffMs: 15000,
			OffsetsTopicNumPartitions: 3, OffsetsRetentionMinutes: group.DefaultOffsetsRetentionMinutes, OffsetsRetentionCheckIntervalMs: group.DefaultOffsetsRetentionCheckIntervalMs, Group: group.DefaultConfig(), Txn: txn.Config{NumPartitions: 3}, ClusterID: "test-cluster", TopicDefaults: settings,
			AutoCreateTopicsEnable: true, FetchMaxBytes: DefaultFetchMaxBytes, ConsumerGroupProtocol: consumerProtocol}))
	}
	return f
}

// the clock, the network and the notes (broker.Env and controller.Env)

func (f *fakeEnv) Now() int64        { return f.now }
func (f *fakeEnv) Clock() *int64     { return &f.now }
func (f *fakeEnv) Rand() *rand.Rand  { return f.rnd }
func (f *fakeEnv) MarkLast(string)   {}
func (f *fakeEnv) DropFrom(id int32) { f.net.Drop([]int32{id}, nil) }
func (f *fakeEnv) Leader(k tp) int32 { return f.ctl.Leader(k) }
func (f *fakeEnv) BrokerEpoch(id int32, inc int) (int64, bool) {
	r := f.ctl.Registration(id)
	return r.Epoch, r.Registered && r.Incarnation == inc
}
func (f *fakeEnv) Topics() []metadata.Topic                   { return f.ctl.Topics() }
func (f *fakeEnv) Settings(topic string) topicconfig.Settings { return f.ctl.Settings(topic) }
func (f *fakeEnv) BrokerRunning(id int32) bool                { return f.brokers[id-1].State() == BrokerRunning }
func (f *fakeEnv) BrokerState(id int32) string                { return f.brokers[id-1].State().String() }
func (f *fakeEnv) OpenRequest(leader, follower int32, k tp, corr int64, inc int) {
	f.net.OpenRequest(leader, follower, k, corr, inc)
}
func (f *fakeEnv) CloseRequest(leader, follower int32, k tp, corr int64) int {
	return f.net.CloseRequest(leader, follower, k, corr)
}
func (f *fakeEnv) Record(kind event.Kind, broker int32, k *tp, format string, args ...any) {
	if k != nil && k.Topic == metadata.OffsetsTopic {
		return
	}
	fmt.Fprintf(&f.out, "note %s", kind)
	if broker != 0 {
		fmt.Fprintf(&f.out, " b%d", broker)
	}
	if k != nil {
		fmt.Fprintf(&f.out, " %s", k)
	}
	fmt.Fprintf(&f.out, ": %s\n", fmt.Sprintf(format, args...))
}
func (f *fakeEnv) Send(e netsim.Envelope) {
	if e.From >= 1 && int(e.From) <= len(f.brokers) {
		e.FromIncarnation = f.brokers[e.From-1].Incarnation()
	}
	if e.ToIncarnation == 0 && e.To >= 1 && int(e.To) <= len(f.brokers) {
		e.ToIncarnation = f.brokers[e.To-1].Incarnation()
	}
	f.net.Push(e)
}
func (f *fakeEnv) InternalError(id int32, err error) {
	fmt.Fprintf(&f.out, "internal error at broker %d: %v\n", id, err)
	f.brokers[id-1].Halt(f)
}
func (f *fakeEnv) RequestFailed(int32, string, int, group.Request) {}
func (f *fakeEnv) ExternalGroupAnswered(id int32, o group.Outgoing) bool {
	return f.rq.GroupAnswered(f.brokers[id-1], o)
}
func (f *fakeEnv) UnloadResignedExternal(id int32) { f.rq.UnloadResigned(f, f.brokers[id-1]) }
func (f *fakeEnv) AllocateProducerID() int64       { return f.rq.AllocateProducerID() }
func (f *fakeEnv) BrokerGone(id int32, inc int) bool {
	return f.brokers[id-1].State() != BrokerRunning || f.brokers[id-1].Incarnation() != inc
}
func (f *fakeEnv) Cut(a, b int32) bool { return false }

func (f *fakeEnv) BrokerIncarnation(id int32) int { return f.brokers[id-1].Incarnation() }
func (f *fakeEnv) BecameLeader(id int32, k tp, epoch int32, leo int64) {
	f.rq.MarkLostAfterAck(f, id, k, epoch, leo)
}

// the controller's metadata and checks, and the changes they make
// (broker.APIEnv)

func (f *fakeEnv) Alive() []int32                              { return f.ctl.Alive() }
func (f *fakeEnv) Partition(k tp) (replica.LeaderAndISR, bool) { return f.ctl.Partition(k) }
func (f *fakeEnv) TopicInUse(topic string) bool                { return f.inUse[topic] }
func (f *fakeEnv) CheckCreateTopic(t kmsg.CreateTopicsRequestTopic) (metadata.TopicSpec, int16, string) {
	return f.ctl.CheckCreateTopic(t)
}
func (f *fakeEnv) CheckCreatePartitions(t kmsg.CreatePartitionsRequestTopic) ([][]int32, int16, string) {
	return f.ctl.CheckCreatePartitions(t)
}
func (f *fakeEnv) CheckAlterConfigs(topic string, ops []topicconfig.Op, replace bool) (metadata.TopicSpec, int16, string) {
	return f.ctl.CheckAlterConfigs(topic, ops, replace)
}

// EnsureOffsetsTopic creates __consumer_offsets (three partitions, three
// replicas, compacted) on first use, as the world does.
func (f *fakeEnv) EnsureOffsetsTopic() error {
	if f.ctl.Topic(metadata.OffsetsTopic) != nil {
		return nil
	}
	cfg := kafkalog.DefaultConfig()
	cfg.CleanupPolicy = "compact"
	return f.CreateTopic(metadata.TopicSpec{Name: metadata.OffsetsTopic, Partitions: 3, ReplicationFactor: 3, Config: &cfg})
}

// EnsureTxnStateTopic creates __transaction_state (three partitions, three
// replicas, min.insync.replicas 2, compacted) on first use, as the world
// does.
func (f *fakeEnv) EnsureTxnStateTopic() error {
	if f.ctl.Topic(metadata.TxnStateTopic) != nil {
		return nil
	}
	cfg := kafkalog.DefaultConfig()
	cfg.CleanupPolicy = "compact"
	return f.CreateTopic(metadata.TopicSpec{Name: metadata.TxnStateTopic, Partitions: 3, ReplicationFactor: 3, MinInsyncReplicas: 2, Config: &cfg})
}

// TxnCoordinator is the broker whose coordinator coordinates id, false if
// none.
func (f *fakeEnv) TxnCoordinator(id string) (int32, bool) {
	leader := f.ctl.Leader(metadata.TxnStatePartition(id, 3))
	return leader, leader > 0 && f.brokers[leader-1].CoordinatesTxn(id)
}

// Coordinator is the broker whose running replica leads group's offsets
// partition, false if none.
func (f *fakeEnv) Coordinator(group string) (int32, bool) {
	leader := f.ctl.Leader(metadata.OffsetsPartition(group, 3))
	return leader, leader > 0 && f.brokers[leader-1].Coordinates(f, group)
}

// CreateTopic adds the topic at the controller and opens its replicas on
// the running brokers, as the world does.
func (f *fakeEnv) CreateTopic(spec metadata.TopicSpec) error {
	asg, err := f.ctl.Assignment(spec, nil)
	if err != nil {
		return err
	}
	f.ctl.AddTopic(metadata.Topic{Name: spec.Name, Assignment: asg, Config: spec.Config, ID: metadata.NewTopicID(1, spec.Name), Internal: metadata.IsInternal(spec.Name),
		MinInsyncReplicas: spec.MinInsyncReplicas, UncleanLeaderElectionEnable: spec.UncleanLeaderElectionEnable, Overrides: spec.Overrides})
	return f.openPartitions(spec.Name, asg, 0)
}

func (f *fakeEnv) openPartitions(topic string, asg [][]int32, from int) error {
	for p := from; p < len(asg); p++ {
		k := tp{Topic: topic, Partition: int32(p)}
		for _, id := range asg[p] {
			if b := f.brokers[id-1]; b.State() == BrokerRunning {
				if err := b.OpenNew(f, k); err != nil {
					return err
				}
			}
		}
		f.ctl.AddPartition(f, k, asg[p])
	}
	return nil
}

func (f *fakeEnv) AddPartitions(topic string, replicas [][]int32, by string) error {
	t := f.ctl.Topic(topic)
	old := len(t.Assignment)
	t.Assignment = append(t.Assignment, replicas...)
	return f.openPartitions(topic, t.Assignment, old)
}

func (f *fakeEnv) DeleteTopic(topic, by string) {
	t, _ := f.ctl.RemoveTopic(topic)
	for p := range t.Assignment {
		k := tp{Topic: topic, Partition: int32(p)}
		f.ctl.RemovePartition(k)
		for _, b := range f.brokers {
			b.DeletePartition(f, k)
		}
	}
}

// AlterConfigs gives the topic spec's configs and has the brokers apply
// them, as the world does.
func (f *fakeEnv) AlterConfigs(topic string, spec metadata.TopicSpec, by string) {
	t := f.ctl.Topic(topic)
	t.Config, t.MinInsyncReplicas, t.UncleanLeaderElectionEnable, t.Overrides = spec.Config, spec.MinInsyncReplicas, spec.UncleanLeaderElectionEnable, spec.Overrides
	for _, b := range f.brokers {
		b.UpdateTopicConfig(f, topic)
	}
	fmt.Fprintf(&f.out, "configs of %s altered by %s: %s\n", topic, by, f.ctl.OwnConfigs(t.Own()))
}

// quiet delivers what is in flight until nothing is, as the world does.
func (f *fakeEnv) quiet() {
	for f.net.Len() > 0 {
		e, _ := f.net.Pop()
		switch {
		case e.To == netsim.Controller:
			f.ctl.Step(f, &e)
		case e.To >= netsim.ExternalBase:
			f.rq.StepAnswer(f, f.brokers, &e)
		case e.To >= netsim.TxnMarkerBase:
			f.brokers[e.To-netsim.TxnMarkerBase-1].StepTxnMarkerAppend(f, &e)
		case e.To >= netsim.TxnCoordinatorBase:
			f.brokers[e.To-netsim.TxnCoordinatorBase-1].StepTxnCoordinator(f, &e)
		case e.To >= netsim.CoordinatorBase:
			f.brokers[e.To-netsim.CoordinatorBase-1].StepCoordinator(f, &e)
		case e.To >= 1 && int(e.To) <= len(f.brokers):
			if b := f.brokers[e.To-1]; b.State() == BrokerRunning && b.Incarnation() == e.ToIncarnation {
				if err := b.Step(f, &e); err != nil {
					f.InternalError(b.ID(), err)
				}
			}
		}
	}
}

// run moves the clock by ms in steps of 10, ticking every machine and the
// requests that wait.
func (f *fakeEnv) run(ms int64) {
	for end := f.now + ms; f.now < end; {
		f.now += 10
		for _, b := range f.brokers {
			if err := b.Tick(f); err != nil {
				f.InternalError(b.ID(), err)
			}
		}
		f.ctl.Tick(f)
		f.quiet()
		f.rq.Tick(f, f.brokers)
	}
}

// serve hands the brokers one client request, as the world's external
// action does; it reports whether the broker served it.
func (f *fakeEnv) serve(broker int32, req kmsg.Request) (bool, error) {
	x := &Request{Client: 1, ClientID: "test", Broker: broker, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)}
	served, err := f.rq.Serve(f, f.brokers, x)
	if !served {
		return false, err
	}
	f.quiet()
	f.rq.Tick(f, f.brokers)
	return true, nil
}

// TestAPIs drives the brokers' Kafka APIs with a fake world around them
// and prints what the brokers noted and answered. Regenerate with
// -rewrite and review the diff.
//
//	new brokers=3 [min-isr=2] [consumer-protocol=off]  (the brokers start and register)
//	run ms=500                             (ticks of 10 ms)
//	stop b=3 | kill b=3 | start b=3
//	corrupt b=1 file=t-0/00000000000000000000.log at=16 [zero=4]   (the broker is down; one byte flipped, or zero=N bytes zeroed)
//	racks names=(a,b,c) [selector]         (broker.rack; replica.selector.class RackAwareReplicaSelector)
//	in-use topic=t                         (a topic the world's own clients use)
//	create-topics b=1 topic=t [partitions=1] [rf=3] [config=(k=v,...)] [validate-only] [v=7]   (a list value's items joined by +)
//	metadata b=1 [topics=(t,u)] [v=12] [no-auto-create]
//	produce b=1 topic=t [partition=0] [acks=-1] [records=3] [timeout=5000] [timestamps=(5,9,1)]
//	fetch b=1 topic=t [partition=0] [offset=0] [max-wait=0] [min-bytes=1] [epoch=-1] [v=12] [rack=r]
//	list-offsets b=1 topic=t [partition=0] [time=-1] [replica=-1]    (-2 earliest, -3 max timestamp)
//	delete-topics b=1 topics=(t,u)
//	create-partitions b=1 topic=t count=3
//	find-coordinator b=1 [group=g]
//	join-group b=1 [group=g] [member=m] [topic=t]      (v3, the consumer protocol, range)
//	sync-group b=1 member=m [generation=1] [topic=t] [partition=0]   (the member gets that partition)
//	offset-commit b=1 [member=m] [generation=-1] [topic=t] [partition=0] [offset=0]
//	offset-fetch b=1 [topic=t] [partition=0]
//	leave-group b=1 member=m
//	list-groups b=1 [v=4] [types=(consumer)]
//	consumer-heartbeat b=1 [v=1] [group=g] [member=m] [epoch=0] [topics=(t)] [owned=(0,1)|owned=none] [assignor=uniform] [instance=i] [rebalance-timeout=300000] [regex=R]
//	                                       (owned absent: null, none: empty; partitions of topic t)
//	consumer-group-describe b=1 [groups=(g)]
//	describe-topic-partitions b=1 [topics=(t,u)] [limit=2000] [cursor=(t,0)]
//	describe-cluster b=1 [v=2] [endpoint=1] [fenced] [ops]   (and the read-only admin set: api_describe_test.go)
//	answers                                (the answers given since the last look)
//	pending                                (how many requests wait)
//	group-log b=1 [group=g]                (the group's records in the replica of its offsets partition)
//	coordinator-group b=1 [group=g]        (the group as b's coordinator hosts it, or that b runs none)
//	offsets-only-groups b=1                (the groups known by offsets in the partitions b leads)
//	can-delete-group b=1 [group=g]         (what a deletion of the group would answer, and whether b runs a coordinator after)
func TestAPIs(t *testing.T) {
	datadriven.Walk(t, "testdata/api", func(t *testing.T, path string) {
		var f *fakeEnv
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			a := args{t: t, d: d}
			if f != nil {
				f.out.Reset()
			}
			var req kmsg.Request
			switch d.Cmd {
			case "new":
				f = newFakeEnvWith(int(a.num("brokers", 3)), int(a.num("min-isr", 1)), a.str("consumer-protocol", "on") == "on")
				for _, b := range f.brokers {
					if err := b.Start(f); err != nil {
						d.Fatalf(t, "start: %v", err)
					}
				}
				f.quiet()
				f.out.Reset()
				return "ok\n"
			case "run":
				f.run(a.num("ms", 0))
			case "stop", "kill", "start":
				b := f.brokers[a.num("b", 0)-1]
				var err error
				switch d.Cmd {
				case "stop":
					err = b.Stop(f)
				case "kill":
					err = b.Kill(f)
				default:
					err = b.Start(f)
				}
				if err != nil {
					d.Fatalf(t, "%s: %v", d.Cmd, err)
				}
				f.quiet()
			case "corrupt":
				b := f.brokers[a.num("b", 0)-1]
				name, at, n := a.str("file", ""), a.num("at", 0), int(a.num("zero", 0))
				if err := b.CheckCorrupt(name, at, n, n == 0); err != nil {
					return fmt.Sprintf("refused: %v\n", err)
				}
				if err := b.Corrupt(f, name, at, n, n == 0); err != nil {
					d.Fatalf(t, "corrupt: %v", err)
				}
			case "in-use":
				f.inUse[a.str("topic", "")] = true
			case "racks":
				f.setRacks(a)
			case "answers":
				return f.out.String() + formatAnswers(f.rq.Answers())
			case "pending":
				return fmt.Sprintf("%d request(s) wait, %d group request(s) at coordinators\n", f.rq.Pending(), len(f.rq.groups))
			case "group-log":
				return f.groupLog(f.brokers[a.num("b", 1)-1], a.str("group", "g"))
			case "coordinator-group":
				return f.coordinatorGroup(f.brokers[a.num("b", 1)-1], a.str("group", "g"))
			case "offsets-only-groups":
				return fmt.Sprintf("%v\n", f.brokers[a.num("b", 1)-1].OffsetsOnlyGroups(f))
			case "can-delete-group":
				b := f.brokers[a.num("b", 1)-1]
				code := b.CanDeleteGroup(f, a.str("group", "g"))
				return fmt.Sprintf("%s, coordinator running: %t\n", code, b.RunningCoordinator() != nil)
			default:
				for _, tm := range f.ctl.Topics() {
					currentTopicIDs[tm.Name] = TopicUUID(tm.ID)
				}
				req = a.request()
			}
			if req != nil {
				switch served, err := f.serve(int32(a.num("b", 1)), req); {
				case err != nil:
					fmt.Fprintf(&f.out, "refused: %v\n", err)
				case !served:
					fmt.Fprintf(&f.out, "not served: broker %d is down\n", a.num("b", 1))
				}
				f.out.WriteString(formatAnswers(f.rq.Answers()))
			}
			if f.out.Len() == 0 {
				return "ok\n"
			}
			return f.out.String()
		})
	})
}

// args reads a command's arguments.
type args struct {
	t *testing.T
	d *datadriven.TestData
}

func (a args) str(key, def string) string {
	for _, arg := range a.d.CmdArgs {
		if arg.Key == key {
			if len(arg.Vals) == 0 {
				return "true"
			}
			return arg.Vals[0]
		}
	}
	return def
}

func (a args) vals(key string) []string {
	for _, arg := range a.d.CmdArgs {
		if arg.Key == key {
			return arg.Vals
		}
	}
	return nil
}

func (a args) num(key string, def int64) int64 {
	v := a.str(key, "")
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		a.d.Fatalf(a.t, "%s: %v", key, err)
	}
	return n
}

// request builds the client request a command names.
func (a args) request() kmsg.Request {
	topic := a.str("topic", "t")
	part := int32(a.num("partition", 0))
	switch a.d.Cmd {
	case "create-topics":
		r := kmsg.NewPtrCreateTopicsRequest()
		r.SetVersion(int16(a.num("v", 7)))
		r.ValidateOnly = a.str("validate-only", "") != ""
		rt := kmsg.NewCreateTopicsRequestTopic()
		rt.Topic, rt.NumPartitions, rt.ReplicationFactor = topic, int32(a.num("partitions", -1)), int16(a.num("rf", -1))
		for _, kv := range a.vals("config") {
			k, v, _ := strings.Cut(kv, "=")
			v = strings.ReplaceAll(v, "+", ",") // a list's items: cleanup.policy=compact+delete
			rt.Configs = append(rt.Configs, kmsg.CreateTopicsRequestTopicConfig{Name: k, Value: kmsg.StringPtr(v)})
		}
		r.Topics = append(r.Topics, rt)
		return r
	case "metadata":
		r := kmsg.NewPtrMetadataRequest()
		r.SetVersion(int16(a.num("v", 12)))
		r.AllowAutoTopicCreation = a.str("no-auto-create", "") == ""
		if names := a.vals("topics"); names != nil {
			r.Topics = []kmsg.MetadataRequestTopic{}
			for _, n := range names {
				mt := kmsg.NewMetadataRequestTopic()
				mt.Topic = kmsg.StringPtr(n)
				r.Topics = append(r.Topics, mt)
			}
		}
		return r
	case "produce":
		r := kmsg.NewPtrProduceRequest()
		r.SetVersion(int16(a.num("v", 9)))
		r.Acks, r.TimeoutMillis = int16(a.num("acks", -1)), int32(a.num("timeout", 5000))
		var b kafkalog.RecordBatch
		b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
		if id := a.str("txn", ""); id != "" { // a transactional batch of producer pid at epoch, from seq
			r.TransactionID = kmsg.StringPtr(id)
			b.ProducerID, b.ProducerEpoch, b.BaseSequence = a.num("pid", 0), int16(a.num("epoch", 0)), int32(a.num("seq", 0))
			b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, true, false)
		}
		stamps := a.vals("timestamps") // ms after 1_700_000_000_000, one a record
		n := int64(3)
		if len(stamps) > 0 {
			n = int64(len(stamps))
		}
		for i := range a.num("records", n) {
			ts := 1_700_000_000_000 + i
			if int(i) < len(stamps) {
				d, _ := strconv.ParseInt(stamps[i], 10, 64)
				ts = 1_700_000_000_000 + d
			}
			b.AppendRecord(i, ts, []byte{'k', byte('a' + i)}, []byte("value"))
		}
		return addBatch(r, topic, part, &b)
	case "fetch":
		r := kmsg.NewPtrFetchRequest()
		r.SetVersion(int16(a.num("v", 12)))
		r.MaxBytes, r.MaxWaitMillis, r.MinBytes, r.SessionEpoch = 1<<20, int32(a.num("max-wait", 0)), int32(a.num("min-bytes", 1)), -1
		r.Rack = a.str("rack", "")
		rt := kmsg.NewFetchRequestTopic()
		rt.Topic = topic
		rp := kmsg.NewFetchRequestTopicPartition()
		rp.Partition, rp.FetchOffset, rp.PartitionMaxBytes, rp.CurrentLeaderEpoch = part, a.num("offset", 0), 1<<20, int32(a.num("epoch", -1))
		rt.Partitions = append(rt.Partitions, rp)
		r.Topics = append(r.Topics, rt)
		return r
	case "list-offsets":
		r := kmsg.NewPtrListOffsetsRequest()
		r.SetVersion(7)
		r.ReplicaID = int32(a.num("replica", -1))
		rt := kmsg.NewListOffsetsRequestTopic()
		rt.Topic = topic
		rp := kmsg.NewListOffsetsRequestTopicPartition()
		rp.Partition, rp.Timestamp, rp.CurrentLeaderEpoch = part, a.num("time", -1), -1
		rt.Partitions = append(rt.Partitions, rp)
		r.Topics = append(r.Topics, rt)
		return r
	case "delete-topics":
		r := kmsg.NewPtrDeleteTopicsRequest()
		r.SetVersion(5)
		r.TopicNames = a.vals("topics")
		return r
	case "find-coordinator":
		r := kmsg.NewPtrFindCoordinatorRequest()
		r.SetVersion(3)
		r.CoordinatorKey = a.str("group", "g")
		if id := a.str("txn", ""); id != "" {
			r.CoordinatorType, r.CoordinatorKey = 1, id
		}
		return r
	case "init-producer-id":
		r := kmsg.NewPtrInitProducerIDRequest()
		r.SetVersion(4)
		r.TransactionalID, r.TransactionTimeoutMillis, r.ProducerID, r.ProducerEpoch = kmsg.StringPtr(a.str("txn", "tx")), 60000, -1, -1
		return r
	case "add-partitions-to-txn":
		r := kmsg.NewPtrAddPartitionsToTxnRequest()
		r.SetVersion(3)
		r.TransactionalID, r.ProducerID, r.ProducerEpoch = a.str("txn", "tx"), a.num("pid", 0), int16(a.num("epoch", 0))
		r.Topics = []kmsg.AddPartitionsToTxnRequestTopic{{Topic: topic, Partitions: []int32{part}}}
		return r
	case "end-txn":
		r := kmsg.NewPtrEndTxnRequest()
		r.SetVersion(int16(a.num("v", 3)))
		r.TransactionalID, r.ProducerID, r.ProducerEpoch, r.Commit = a.str("txn", "tx"), a.num("pid", 0), int16(a.num("epoch", 0)), a.str("commit", "") != ""
		return r
	case "join-group":
		r := kmsg.NewPtrJoinGroupRequest()
		r.SetVersion(3) // no member id required
		r.Group, r.MemberID, r.ProtocolType = a.str("group", "g"), a.str("member", ""), "consumer"
		r.SessionTimeoutMillis, r.RebalanceTimeoutMillis = 10000, 10000
		meta := kmsg.NewConsumerMemberMetadata()
		meta.Topics = []string{topic}
		r.Protocols = []kmsg.JoinGroupRequestProtocol{{Name: "range", Metadata: meta.AppendTo(nil)}}
		return r
	case "sync-group":
		r := kmsg.NewPtrSyncGroupRequest()
		r.SetVersion(3)
		r.Group, r.MemberID, r.Generation = a.str("group", "g"), a.str("member", ""), int32(a.num("generation", 1))
		asg := kmsg.NewConsumerMemberAssignment()
		asg.Topics = []kmsg.ConsumerMemberAssignmentTopic{{Topic: topic, Partitions: []int32{part}}}
		r.GroupAssignment = []kmsg.SyncGroupRequestGroupAssignment{{MemberID: r.MemberID, MemberAssignment: asg.AppendTo(nil)}}
		return r
	case "heartbeat":
		r := kmsg.NewPtrHeartbeatRequest()
		r.SetVersion(3)
		r.Group, r.MemberID, r.Generation = a.str("group", "g"), a.str("member", ""), int32(a.num("generation", 1))
		return r
	case "offset-commit":
		r := kmsg.NewPtrOffsetCommitRequest()
		r.SetVersion(int16(a.num("v", 7)))
		r.Group, r.MemberID, r.Generation = a.str("group", "g"), a.str("member", ""), int32(a.num("generation", -1))
		r.Topics = []kmsg.OffsetCommitRequestTopic{{Topic: topic, Partitions: []kmsg.OffsetCommitRequestTopicPartition{{Partition: part, Offset: a.num("offset", 0), LeaderEpoch: -1}}}}
		return r
	case "offset-fetch":
		r := kmsg.NewPtrOffsetFetchRequest()
		r.SetVersion(7)
		r.Group = a.str("group", "g")
		r.Topics = []kmsg.OffsetFetchRequestTopic{{Topic: topic, Partitions: []int32{part}}}
		return r
	case "leave-group":
		r := kmsg.NewPtrLeaveGroupRequest()
		r.SetVersion(3)
		r.Group = a.str("group", "g")
		r.Members = []kmsg.LeaveGroupRequestMember{{MemberID: a.str("member", "")}}
		return r
	case "list-groups":
		r := kmsg.NewPtrListGroupsRequest()
		r.SetVersion(int16(a.num("v", 4)))
		r.TypesFilter = a.vals("types")
		return r
	case "consumer-heartbeat":
		return a.consumerHeartbeat(topic)
	case "consumer-group-describe":
		r := kmsg.NewPtrConsumerGroupDescribeRequest()
		r.SetVersion(1)
		r.Groups = a.vals("groups")
		if r.Groups == nil {
			r.Groups = []string{"g"}
		}
		return r
	case "describe-topic-partitions":
		r := kmsg.NewPtrDescribeTopicPartitionsRequest()
		r.ResponsePartitionLimit = int32(a.num("limit", 2000))
		for _, n := range a.vals("topics") {
			r.Topics = append(r.Topics, kmsg.DescribeTopicPartitionsRequestTopic{Topic: n})
		}
		if c := a.vals("cursor"); len(c) == 2 {
			p, _ := strconv.Atoi(c[1])
			r.Cursor = &kmsg.DescribeTopicPartitionsRequestCursor{Topic: c[0], Partition: int32(p)}
		}
		return r
	case "create-partitions":
		r := kmsg.NewPtrCreatePartitionsRequest()
		r.SetVersion(3)
		rt := kmsg.NewCreatePartitionsRequestTopic()
		rt.Topic, rt.Count = topic, int32(a.num("count", 0))
		r.Topics = append(r.Topics, rt)
		return r
	}
	if r := a.describeRequest(); r != nil {
		return r
	}
	a.d.Fatalf(a.t, "unknown command %s", a.d.Cmd)
	return nil
}

// consumerHeartbeat builds a ConsumerGroupHeartbeat (v1 unless v= says): the fields not
// given are null, the owned partitions are of topic.
func (a args) consumerHeartbeat(topic string) kmsg.Request {
	r := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	r.SetVersion(int16(a.num("v", 1)))
	r.Group, r.MemberID, r.MemberEpoch = a.str("group", "g"), a.str("member", ""), int32(a.num("epoch", 0))
	if r.MemberEpoch == 0 {
		r.RebalanceTimeoutMillis = int32(a.num("rebalance-timeout", 300000))
	}
	if v := a.str("instance", ""); v != "" {
		r.InstanceID = kmsg.StringPtr(v)
	}
	if v := a.str("assignor", ""); v != "" {
		r.ServerAssignor = kmsg.StringPtr(v)
	}
	if a.d.HasArg("regex") {
		r.SubscribedTopicRegex = kmsg.StringPtr(a.str("regex", ""))
	}
	r.SubscribedTopicNames = a.vals("topics")
	switch owned := a.vals("owned"); {
	case len(owned) == 1 && owned[0] == "none":
		r.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{}
	case owned != nil:
		t := kmsg.NewConsumerGroupHeartbeatRequestTopic()
		t.TopicID = a.topicID(topic)
		for _, p := range owned {
			n, err := strconv.Atoi(p)
			if err != nil {
				a.d.Fatalf(a.t, "owned: %v", err)
			}
			t.Partitions = append(t.Partitions, int32(n))
		}
		r.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{t}
	}
	return r
}

// topicID is the id the fake controller gave topic (set by the test
// before it builds the request).
func (a args) topicID(topic string) [16]byte { return currentTopicIDs[topic] }

// currentTopicIDs are the fake world's topic ids, for the requests built.
var currentTopicIDs = map[string][16]byte{}

// formatAnswers prints answers, one line a partition or topic, errors by
// name.
func formatAnswers(answers []Answer) string {
	var b strings.Builder
	code := func(c int16) string {
		if c == 0 {
			return "ok"
		}
		return kafkaerr.Name(c)
	}
	msg := func(m *string) string {
		if m == nil || *m == "" {
			return ""
		}
		return ": " + *m
	}
	for _, ans := range answers {
		fmt.Fprintf(&b, "answer %d %s\n", ans.ID, kmsg.NameForKey(ans.Response.Key()))
		switch r := ans.Response.(type) {
		case *kmsg.MetadataResponse:
			var ids []string
			for _, br := range r.Brokers {
				ids = append(ids, strconv.Itoa(int(br.NodeID)))
			}
			fmt.Fprintf(&b, "  cluster %s, controller %d, brokers [%s]\n", *r.ClusterID, r.ControllerID, strings.Join(ids, " "))
			for _, t := range r.Topics {
				fmt.Fprintf(&b, "  topic %s: %s%s\n", *t.Topic, code(t.ErrorCode), map[bool]string{true: " (internal)"}[t.IsInternal])
				for _, p := range t.Partitions {
					fmt.Fprintf(&b, "    %d: %s leader %d epoch %d replicas %v isr %v offline %v\n", p.Partition, code(p.ErrorCode), p.Leader, p.LeaderEpoch, p.Replicas, p.ISR, p.OfflineReplicas)
				}
			}
		case *kmsg.ProduceResponse:
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					fmt.Fprintf(&b, "  %s-%d: %s base offset %d log start %d%s\n", t.Topic, p.Partition, code(p.ErrorCode), p.BaseOffset, p.LogStartOffset, msg(p.ErrorMessage))
				}
			}
		case *kmsg.FetchResponse:
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					records := 0
					var dec kafkalog.Decoder
					var rb kafkalog.RecordBatch
					for at := 0; at < len(p.RecordBatches); {
						n, err := dec.Decode(p.RecordBatches[at:], &rb)
						if err != nil {
							break
						}
						records, at = records+len(rb.Records), at+n
					}
					fmt.Fprintf(&b, "  %s-%d: %s hw %d log start %d, %d record(s)%s\n", t.Topic, p.Partition, code(p.ErrorCode), p.HighWatermark, p.LogStartOffset, records, preferred(p.PreferredReadReplica))
				}
			}
		case *kmsg.ListOffsetsResponse:
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					ts := ""
					if p.Timestamp != -1 {
						ts = fmt.Sprintf(" timestamp %d", p.Timestamp)
					}
					fmt.Fprintf(&b, "  %s-%d: %s offset %d%s epoch %d\n", t.Topic, p.Partition, code(p.ErrorCode), p.Offset, ts, p.LeaderEpoch)
				}
			}
		case *kmsg.CreateTopicsResponse:
			for _, t := range r.Topics {
				fmt.Fprintf(&b, "  %s: %s%s", t.Topic, code(t.ErrorCode), msg(t.ErrorMessage))
				if t.ErrorCode == 0 {
					var own []string
					for _, c := range t.Configs {
						if c.Source == int8(kmsg.ConfigSourceDynamicTopicConfig) {
							own = append(own, c.Name+"="+*c.Value)
						}
					}
					fmt.Fprintf(&b, " (%d partitions, rf %d, own configs [%s])", t.NumPartitions, t.ReplicationFactor, strings.Join(own, " "))
				}
				b.WriteString("\n")
			}
		case *kmsg.DeleteTopicsResponse:
			for _, t := range r.Topics {
				fmt.Fprintf(&b, "  %s: %s%s\n", *t.Topic, code(t.ErrorCode), msg(t.ErrorMessage))
			}
		case *kmsg.FindCoordinatorResponse:
			fmt.Fprintf(&b, "  %s node %d\n", code(r.ErrorCode), r.NodeID)
		case *kmsg.InitProducerIDResponse:
			fmt.Fprintf(&b, "  %s producer id %d epoch %d\n", code(r.ErrorCode), r.ProducerID, r.ProducerEpoch)
		case *kmsg.AddPartitionsToTxnResponse:
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					fmt.Fprintf(&b, "  %s-%d: %s\n", t.Topic, p.Partition, code(p.ErrorCode))
				}
			}
		case *kmsg.EndTxnResponse:
			fmt.Fprintf(&b, "  %s producer id %d epoch %d\n", code(r.ErrorCode), r.ProducerID, r.ProducerEpoch)
		case *kmsg.JoinGroupResponse:
			fmt.Fprintf(&b, "  %s member %s generation %d leader %s protocol %s, %d member(s)\n", code(r.ErrorCode), r.MemberID, r.Generation, r.LeaderID, *r.Protocol, len(r.Members))
		case *kmsg.HeartbeatResponse:
			fmt.Fprintf(&b, "  %s\n", code(r.ErrorCode))
		case *kmsg.SyncGroupResponse:
			asg := kmsg.NewConsumerMemberAssignment()
			_ = asg.ReadFrom(r.MemberAssignment)
			fmt.Fprintf(&b, "  %s assignment %v\n", code(r.ErrorCode), asg.Topics)
		case *kmsg.OffsetCommitResponse:
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					fmt.Fprintf(&b, "  %s-%d: %s\n", t.Topic, p.Partition, code(p.ErrorCode))
				}
			}
		case *kmsg.OffsetFetchResponse:
			fmt.Fprintf(&b, "  %s\n", code(r.ErrorCode))
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					fmt.Fprintf(&b, "  %s-%d: %s offset %d\n", t.Topic, p.Partition, code(p.ErrorCode), p.Offset)
				}
			}
		case *kmsg.LeaveGroupResponse:
			fmt.Fprintf(&b, "  %s", code(r.ErrorCode))
			for _, m := range r.Members {
				fmt.Fprintf(&b, ", %s: %s", m.MemberID, code(m.ErrorCode))
			}
			b.WriteString("\n")
		case *kmsg.ListGroupsResponse:
			for _, g := range r.Groups {
				fmt.Fprintf(&b, "  %s (%s) %s", g.Group, g.ProtocolType, g.GroupState)
				if r.Version >= 5 {
					fmt.Fprintf(&b, " type %s", g.GroupType)
				}
				b.WriteString("\n")
			}
		case *kmsg.ConsumerGroupHeartbeatResponse:
			fmt.Fprintf(&b, "  %s%s", code(r.ErrorCode), msg(r.ErrorMessage))
			if r.ErrorCode == 0 {
				fmt.Fprintf(&b, " member %s epoch %d interval %d", *r.MemberID, r.MemberEpoch, r.HeartbeatIntervalMillis)
			}
			if r.Assignment != nil {
				b.WriteString(" assignment")
				for _, t := range r.Assignment.Topics {
					fmt.Fprintf(&b, " %s%v", topicName(t.TopicID), t.Partitions)
				}
			}
			b.WriteString("\n")
		case *kmsg.ConsumerGroupDescribeResponse:
			for _, g := range r.Groups {
				fmt.Fprintf(&b, "  %s: %s%s", g.Group, code(g.ErrorCode), msg(g.ErrorMessage))
				if g.ErrorCode == 0 {
					fmt.Fprintf(&b, " %s epoch %d assignment epoch %d assignor %s", g.State, g.Epoch, g.AssignmentEpoch, g.AssignorName)
				}
				b.WriteString("\n")
				for _, m := range g.Members {
					fmt.Fprintf(&b, "    %s (%s, %s, type %d) epoch %d topics %v assigned %s target %s\n", m.MemberID, m.ClientID, m.ClientHost, m.MemberType,
						m.MemberEpoch, m.SubscribedTopics, describedPartitions(m.Assignment), describedPartitions(m.TargetAssignment))
				}
			}
		case *kmsg.CreatePartitionsResponse:
			for _, t := range r.Topics {
				fmt.Fprintf(&b, "  %s: %s%s\n", t.Topic, code(t.ErrorCode), msg(t.ErrorMessage))
			}
		case *kmsg.DescribeTopicPartitionsResponse:
			for _, t := range r.Topics {
				fmt.Fprintf(&b, "  topic %s: %s%s\n", *t.Topic, code(t.ErrorCode), map[bool]string{true: " (internal)"}[t.IsInternal])
				for _, p := range t.Partitions {
					fmt.Fprintf(&b, "    %d: leader %d epoch %d replicas %v isr %v elr %v last known elr %v offline %v\n",
						p.Partition, p.LeaderID, p.LeaderEpoch, p.Replicas, p.ISR, p.EligibleLeaderReplicas, p.LastKnownELR, p.OfflineReplicas)
				}
			}
			if c := r.NextCursor; c != nil {
				fmt.Fprintf(&b, "  next cursor %s-%d\n", c.Topic, c.Partition)
			}
		default:
			formatDescribe(&b, ans.Response)
		}
	}
	return b.String()
}

// topicName is the name of the topic whose id the fake world gave it.
func topicName(id [16]byte) string {
	for n, i := range currentTopicIDs {
		if i == id {
			return n
		}
	}
	return "?"
}

// describedPartitions prints a described assignment as name[ids...],
// checking each topic's id against its name.
func describedPartitions(a kmsg.Assignment) string {
	var parts []string
	for _, t := range a.TopicPartitions {
		name := t.Topic
		if topicName(t.TopicID) != name {
			name += "(id mismatch)"
		}
		parts = append(parts, fmt.Sprintf("%s%v", name, t.Partitions))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// groupLog prints the group metadata records of group in broker b's
// replica of its offsets partition, decoded (the consumer protocol's
// bytes too), with the replica's HW.
func (f *fakeEnv) groupLog(b *Broker, g string) string {
	k := metadata.OffsetsPartition(g, b.cfg.OffsetsTopicNumPartitions)
	s := b.replicas[k]
	if s == nil {
		return fmt.Sprintf("b%d has no replica of %s\n", b.id, k)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "b%d %s hw %d\n", b.id, k, s.Node.Progress().HighWatermark)
	for _, e := range s.Log.Mirror().From(0) {
		id, err := group.ReadGroupMetadataKey(e.Key)
		if err != nil || id != g {
			continue
		}
		if e.Value == nil {
			fmt.Fprintf(&out, "  offset %d: %s tombstone\n", e.Offset, id)
			continue
		}
		v, err := group.ReadGroupMetadataValue(e.Value)
		if err != nil {
			fmt.Fprintf(&out, "  offset %d: %s: %v\n", e.Offset, id, err)
			continue
		}
		fmt.Fprintf(&out, "  offset %d: %s v%d %s generation %d protocol %s leader %s since %d\n", e.Offset, id, v.Version, v.ProtocolType, v.Generation,
			deref(v.Protocol), deref(v.Leader), v.CurrentStateTimestampMs)
		for _, m := range v.Members {
			sub := kmsg.NewConsumerMemberMetadata()
			subErr := sub.ReadFrom(m.Subscription)
			fmt.Fprintf(&out, "    member %s client %s host %s session %d rebalance %d subscription %v (%v) assignment %s\n", m.MemberID, m.ClientID,
				m.ClientHost, m.SessionTimeoutMs, m.RebalanceTimeoutMs, sub.Topics, subErr, group.FormatPartitions(decodeAssignment(m.Assignment)))
		}
	}
	return out.String()
}

// coordinatorGroup prints group as broker b's coordinator holds it.
func (f *fakeEnv) coordinatorGroup(b *Broker, g string) string {
	c := b.RunningCoordinator()
	if c == nil {
		return fmt.Sprintf("b%d runs no coordinator\n", b.id)
	}
	st, ok := c.Group(g)
	if !ok {
		return fmt.Sprintf("b%d does not know group %s\n", b.id, g)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "b%d: %s %s generation %d protocol %s leader %s\n", b.id, g, st.State, st.Generation, st.Protocol, st.Leader)
	for _, m := range st.Members {
		fmt.Fprintf(&out, "  member %s assignment %s session until %d\n", m.MemberID, group.FormatPartitions(m.Assignment), m.SessionDeadlineMs)
	}
	return out.String()
}

// addBatch adds batch b for topic's partition part to Produce request r,
// and returns r.
func addBatch(r *kmsg.ProduceRequest, topic string, part int32, b *kafkalog.RecordBatch) *kmsg.ProduceRequest {
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Partition, rp.Records = part, b.AppendTo(nil)
	rt.Partitions = append(rt.Partitions, rp)
	r.Topics = append(r.Topics, rt)
	return r
}
