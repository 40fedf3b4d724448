package client

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// harness drives producers and consumers alone: the test plays the
// leaders, the group coordinator and the network around them.
type harness struct {
	env       *fakeEnv
	settings  Settings
	producers []*Producer
	consumers []*Consumer
	// next is the offset a leader gives the next records it takes.
	next map[kafkalog.TopicPartition]int64
	// assigned are the partitions the latest leader's SyncGroup gave, by
	// member id.
	assigned map[string][]group.TopicPartition
}

// TestClients drives producers and consumers alone with the answers their
// leaders and coordinators give, and prints what they sent and noted.
// Regenerate with -rewrite and review the diff.
//
//	new [rules=modern] [tick=10] [seed=1] [assignor-part=first|twice|decline]
//	topic name=t partitions=3 [compact]
//	leader t-0 b=1 | leader t-0 none            (the controller's leader)
//	cut b=1 | heal                              (the consumers' link to broker 1)
//	run ms=100 [step=10]                        (ticks every producer, then every consumer)
//	producer name=p topic=t [acks=all] [idempotence=true] [linger=5] [batch=16384]
//	         [txn=x] [keys=(a,b)] [rate=2] [timeout=30000] [delivery=120000] [backoff=100]
//	produce p value=v [key=k] [partition=0] [null] [ts=5]
//	answer p [error=NOT_ENOUGH_REPLICAS] [offset=7]   (the oldest request p sent)
//	lose p                                      (that request gets no answer)
//	end p commit|abort                          (commitTransaction, abortTransaction)
//	results p
//	consumer name=c group=g topics=(t) [assignors=(range)] [commit=auto] [reset=earliest] [poll=100]
//	consumer name=r topic=t partition=0 [poll=1000]
//	coordinator g b=1 | coordinator g none
//	records t-0 [values=(a,COMMIT,c)] [hw=3] [start=2] (the leader's log: records (COMMIT, ABORT: a marker) appended, high watermark, log start)
//	join c member=c-1 [generation=1] [leader] [protocol=range] [members=(c-1,d-1)] [error=CODE]
//	sync c [assignment=(t-0,t-1)] [error=CODE]
//	heartbeat c [error=CODE] | commit c [error=CODE] | fetch c [offsets=(t-0=5)] [error=CODE] | leave c
//	drop c [cut]                                (the oldest request c sent does not arrive: its broker stopped, or its link is cut)
//	poll r | crash c | restart c | close c | stall c ms=1000
//	show c | pending
func TestClients(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := &harness{}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if h.env != nil {
				h.env.out.Reset()
			}
			if err := h.do(t, d); err != nil {
				return "error: " + err.Error() + "\n"
			}
			if h.env.out.Len() == 0 {
				return "ok\n"
			}
			return h.env.out.String()
		})
	})
}

// args reads a command's arguments.
type args struct {
	t *testing.T
	d *datadriven.TestData
}

func (a args) str(key, def string) string {
	for _, c := range a.d.CmdArgs {
		if c.Key == key {
			if len(c.Vals) == 0 {
				return ""
			}
			return c.Vals[0]
		}
	}
	return def
}

func (a args) list(key string) []string {
	for _, c := range a.d.CmdArgs {
		if c.Key == key {
			return c.Vals
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

// first is the command's first argument without a value (a name or a
// partition).
func (a args) first() string {
	for _, c := range a.d.CmdArgs {
		if len(c.Vals) == 0 {
			return c.Key
		}
	}
	a.d.Fatalf(a.t, "%s: no name", a.d.Cmd)
	return ""
}

func parseTP(s string) (kafkalog.TopicPartition, error) {
	i := strings.LastIndex(s, "-")
	if i <= 0 {
		return kafkalog.TopicPartition{}, fmt.Errorf("%q is no partition", s)
	}
	p, err := strconv.Atoi(s[i+1:])
	return kafkalog.TopicPartition{Topic: s[:i], Partition: int32(p)}, err
}

func (h *harness) do(t *testing.T, d *datadriven.TestData) error {
	a := args{t, d}
	if d.Cmd == "new" {
		rules, err := replica.ParseRuleSet(a.str("rules", replica.Modern.String()))
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
		s := Settings{Rules: rules, TickMs: a.num("tick", 10), CooperativeSticky: assignorParts[a.str("assignor-part", "")]}
		*h = harness{env: newFakeEnv(uint64(a.num("seed", 1))), settings: s,
			next: map[kafkalog.TopicPartition]int64{}, assigned: map[string][]group.TopicPartition{}}
		return nil
	}
	if h.env == nil {
		d.Fatalf(t, "%s before new", d.Cmd)
	}
	switch d.Cmd {
	case "topic":
		return h.topic(a)
	case "leader", "records":
		return h.leader(a)
	case "cut":
		b := int32(a.num("b", 1))
		h.env.cuts[[2]int32{min(b, netsim.ConsumerNode), max(b, netsim.ConsumerNode)}] = true
	case "heal":
		clear(h.env.cuts)
	case "run":
		h.run(a.num("ms", 0), a.num("step", h.settings.TickMs))
	case "producer":
		return h.addProducer(a)
	case "produce", "answer", "lose", "end", "results", "txn":
		return h.producerCommand(a)
	case "consumer":
		return h.addConsumer(a)
	case "committed":
		return h.committed(a)
	case "coordinator":
		if b := a.str("b", "none"); b == "none" {
			delete(h.env.coords, a.first())
		} else {
			h.env.coords[a.first()] = int32(a.num("b", 0))
		}
	case "join", "sync", "heartbeat", "commit", "fetch", "leave", "beat":
		return h.answerGroup(a)
	case "drop":
		return h.drop(a)
	case "poll", "crash", "restart", "close", "stall":
		return h.consumerCommand(a)
	case "show":
		fmt.Fprint(&h.env.out, h.show(h.consumer(a)))
	case "pending":
		for _, e := range h.env.sent {
			fmt.Fprintf(&h.env.out, "%s\n", envelopeText(&e))
		}
	default:
		d.Fatalf(t, "unknown command %s", d.Cmd)
	}
	return nil
}

func (h *harness) topic(a args) error {
	name := a.str("name", "")
	assignment := make([][]int32, a.num("partitions", 1))
	for i := range assignment {
		assignment[i] = []int32{1}
	}
	h.env.topics = append(h.env.topics, metadata.Topic{Name: name, Assignment: assignment})
	if a.d.HasArg("compact") {
		cfg := kafkalog.DefaultConfig()
		cfg.CleanupPolicy = kafkalog.CleanupPolicyCompact
		h.env.configs[name] = cfg
	}
	return nil
}

// leader sets a partition's leader, or (records) appends records to its
// leader's log and sets its high watermark.
func (h *harness) leader(a args) error {
	tp, err := parseTP(a.first())
	if err != nil {
		return err
	}
	if a.d.Cmd == "leader" {
		if a.d.HasArg("none") {
			delete(h.env.leaders, tp)
		} else {
			h.env.leaders[tp] = int32(a.num("b", 1))
		}
		return nil
	}
	l := h.env.logs[tp]
	if l == nil {
		l = &fakeLog{}
		h.env.logs[tp] = l
	}
	if start := a.num("start", l.start); start != l.start {
		// retention deleted the records below start
		l.start = start
		l.entries = l.entries[l.index(start):]
		h.next[tp] = max(h.next[tp], start)
	}
	for _, v := range a.list("values") {
		e := replica.Entry{Offset: h.next[tp], Value: []byte(v)}
		if v == "COMMIT" || v == "ABORT" {
			e = markerEntry(h.next[tp], v == "COMMIT")
		}
		l.entries = append(l.entries, e)
		h.next[tp]++
	}
	l.hw = a.num("hw", l.LogEndOffset())
	return nil
}

// run ticks every producer, then every consumer, every step ms.
func (h *harness) run(ms, step int64) {
	for end := h.env.now + ms; h.env.now < end; {
		h.env.now += step
		for _, p := range h.producers {
			p.Tick(h.env)
		}
		for _, c := range h.consumers {
			c.Tick(h.env)
		}
	}
}

func (h *harness) addProducer(a args) error {
	cfg := ProducerConfig{Name: a.str("name", "p"), Topic: a.str("topic", "t"), Acks: a.str("acks", ""), Keys: a.list("keys"),
		LingerMs: a.num("linger", 0), BatchSize: int(a.num("batch", 0)), TransactionalID: a.str("txn", ""),
		RecordsPerSec: int(a.num("rate", 0)), RequestTimeoutMs: a.num("timeout", 0), DeliveryTimeoutMs: a.num("delivery", 0),
		RetryBackoffMs: a.num("backoff", 0), Partitioner: a.str("partitioner", "")}
	if from := a.str("from", ""); from != "" {
		tp, err := parseTP(from)
		if err != nil {
			return err
		}
		cfg.Copy = CopySource{Topic: tp.Topic, Partition: tp.Partition, Group: a.str("group", ""), MaxRecords: int(a.num("max", 0)), PollIntervalMs: a.num("poll", 0)}
	}
	if v := a.str("idempotence", ""); v != "" {
		b := v == "true"
		cfg.EnableIdempotence = &b
	}
	if a.d.HasArg("linger") && cfg.LingerMs == 0 {
		cfg.LingerMs = NoLinger // linger=0 said: none, whatever the rules' default
	}
	if err := CheckProducer(h.env, cfg, false); err != nil {
		return err
	}
	p, err := NewProducer(h.env, h.settings, cfg, netsim.ProducerBase+int32(len(h.producers)))
	if err != nil {
		return err
	}
	h.producers = append(h.producers, p)
	c := p.Config()
	fmt.Fprintf(&h.env.out, "%s: acks=%s idempotence=%v partitioner=%s linger.ms=%d\n", c.Name, c.Acks, *c.EnableIdempotence, c.Partitioner, max(0, c.LingerMs))
	return nil
}

func (h *harness) producer(a args) *Producer { return named(a, h.producers) }

// named is the client the command names first.
func named[C interface{ Name() string }](a args, clients []C) C {
	name := a.first()
	for _, c := range clients {
		if c.Name() == name {
			return c
		}
	}
	a.d.Fatalf(a.t, "no client %s", name)
	panic("unreachable")
}

func (h *harness) producerCommand(a args) error {
	p := h.producer(a)
	switch a.d.Cmd {
	case "produce":
		partition := int32(a.num("partition", -1))
		var ts *int64
		if a.str("ts", "") != "" {
			v := a.num("ts", 0)
			ts = &v
		}
		if err := p.CheckProduce(h.env, partition, ts); err != nil {
			return err
		}
		return p.Produce(h.env, a.str("key", ""), a.str("value", ""), a.d.HasArg("null"), partition, ts)
	case "answer", "lose":
		e, ok := h.take(func(e *netsim.Envelope) bool { return e.From == p.id && e.Kind == netsim.KindReplica })
		if !ok {
			return fmt.Errorf("%s sent nothing to answer", p.Name())
		}
		if a.d.Cmd == "lose" {
			return nil
		}
		code, err := errorCode[replica.ErrorCode](a.str("error", "NONE"))
		if err != nil {
			return err
		}
		resp := replica.ProduceResponse{To: p.id, CorrelationID: e.Msg.CorrelationID, Error: code, BaseOffset: -1}
		if code == replica.None {
			resp.BaseOffset = a.num("offset", h.next[e.TP])
			h.next[e.TP] = resp.BaseOffset + int64(len(e.Msg.Records))
		}
		p.Step(h.env, &netsim.Envelope{From: e.To, To: p.id, Kind: netsim.KindProduceResp, TP: e.TP, Resp: resp})
	case "txn":
		return h.answerTxn(p, a)
	case "end":
		kind := "abort-transaction"
		if a.d.HasArg("commit") {
			kind = "commit-transaction"
		}
		if err := p.CheckEndTransaction(kind); err != nil {
			return err
		}
		p.EndTransaction(h.env, a.d.HasArg("commit"))
	case "results":
		for i, r := range p.Results() {
			status := "pending"
			switch {
			case r.Acked:
				status = fmt.Sprintf("acked at %d", r.Offset)
			case r.Failed:
				status = "failed: " + r.Error
			case r.LastError != "":
				status += " after " + r.LastError
			}
			fmt.Fprintf(&h.env.out, "%d %s p%d %s, attempts %d, seq %d epoch %d\n", i, RecordLabel(r.Key, r.Value), r.Partition, status, r.Attempts, r.Sequence, r.ProducerEpoch)
		}
	}
	return nil
}

// take removes and returns the oldest message sent that matches.
func (h *harness) take(match func(e *netsim.Envelope) bool) (netsim.Envelope, bool) {
	for i := range h.env.sent {
		if e := h.env.sent[i]; match(&e) {
			h.env.sent = append(h.env.sent[:i:i], h.env.sent[i+1:]...)
			return e, true
		}
	}
	return netsim.Envelope{}, false
}

// errorCode is the replica or group error code named name.
func errorCode[C interface {
	~int16
	String() string
}](name string) (C, error) {
	for c := range C(200) {
		if c.String() == name {
			return c, nil
		}
	}
	return 0, fmt.Errorf("no error code %s", name)
}

func (h *harness) addConsumer(a args) error {
	cfg := ConsumerConfig{Name: a.str("name", "c"), Topic: a.str("topic", ""), Partition: int32(a.num("partition", 0)),
		PollIntervalMs: a.num("poll", 0), Group: a.str("group", ""), Topics: a.list("topics"), Assignors: a.list("assignors"),
		CommitMode: a.str("commit", ""), AutoOffsetReset: a.str("reset", ""), MaxPollRecords: int(a.num("max-poll", 0)),
		GroupProtocol: a.str("protocol", ""), RemoteAssignor: a.str("remote-assignor", ""), GroupInstanceID: a.str("instance", "")}
	taken := false
	for _, c := range h.consumers {
		taken = taken || c.Name() == cfg.Name
	}
	if err := CheckConsumer(h.env, cfg, taken); err != nil {
		return err
	}
	c, err := NewConsumer(h.env, h.settings, cfg)
	if err != nil {
		return err
	}
	h.consumers = append(h.consumers, c)
	return nil
}

func (h *harness) consumer(a args) *Consumer { return named(a, h.consumers) }

// answerCommands name the command that answers each kind of group
// request.
var answerCommands = map[string]string{
	"group.JoinGroup": "join", "group.SyncGroup": "sync", "group.Heartbeat": "heartbeat",
	"group.OffsetCommit": "commit", "group.OffsetFetch": "fetch", "group.LeaveGroup": "leave",
	"group.ConsumerGroupHeartbeat": "beat",
}

// answerGroup answers the oldest group request of the consumer's kind as
// a coordinator would (or with the error given).
func (h *harness) answerGroup(a args) error {
	c := h.consumer(a)
	code, err := errorCode[group.ErrorCode](a.str("error", "NONE"))
	if err != nil {
		return err
	}
	e, ok := h.take(func(e *netsim.Envelope) bool {
		if e.Kind != netsim.KindGroupRequest || e.Client != c.Name() {
			return false
		}
		return answerCommands[fmt.Sprintf("%T", e.GroupReq)] == a.d.Cmd
	})
	if !ok {
		return fmt.Errorf("%s has no %s to answer", c.Name(), a.d.Cmd)
	}
	var resp group.Response
	switch r := e.GroupReq.(type) {
	case group.JoinGroup:
		resp, err = h.joinAnswer(a, code, r)
	case group.SyncGroup:
		resp, err = h.syncAnswer(a, code, r)
	case group.Heartbeat:
		resp = group.HeartbeatResponse{Error: code}
	case group.OffsetCommit:
		resp = group.OffsetCommitResponse{Error: code, Offsets: r.Offsets, Seq: r.Seq}
	case group.OffsetFetch:
		resp, err = fetchAnswer(a, code, r)
	case group.LeaveGroup:
		resp = group.LeaveGroupResponse{Error: code}
	case group.ConsumerGroupHeartbeat:
		resp, err = beatAnswer(a, code, r)
	}
	if err != nil {
		return err
	}
	c.Step(h.env, &netsim.Envelope{From: e.To, To: netsim.ConsumerNode, Kind: netsim.KindGroupResponse, Client: e.Client, ClientInc: e.ClientInc, GroupResp: resp})
	return nil
}

func (h *harness) joinAnswer(a args, code group.ErrorCode, r group.JoinGroup) (group.Response, error) {
	resp := group.JoinGroupResponse{Error: code, MemberID: a.str("member", r.MemberID), GenerationID: int32(a.num("generation", 1)),
		ProtocolName: a.str("protocol", r.Protocols[0].Name), ProtocolType: "consumer"}
	if !a.d.HasArg("leader") {
		resp.Leader = a.str("leader-id", "")
		return resp, nil
	}
	resp.Leader = resp.MemberID
	members := a.list("members")
	if members == nil {
		members = []string{resp.MemberID}
	}
	for _, id := range members {
		client := id[:strings.LastIndex(id, "-")]
		j, ok := h.env.joins[client]
		if !ok {
			return nil, fmt.Errorf("%s never joined", client)
		}
		if client == r.ClientID {
			j = r
		}
		for _, p := range j.Protocols {
			if p.Name == resp.ProtocolName {
				resp.Members = append(resp.Members, group.MemberSubscription{MemberID: id, Subscription: p.Subscription})
			}
		}
	}
	return resp, nil
}

func (h *harness) syncAnswer(a args, code group.ErrorCode, r group.SyncGroup) (group.Response, error) {
	for _, as := range r.Assignments {
		h.assigned[as.MemberID] = as.Partitions
	}
	resp := group.SyncGroupResponse{Error: code, Assignment: h.assigned[r.MemberID], ProtocolType: "consumer", ProtocolName: r.ProtocolName}
	if vals := a.list("assignment"); vals != nil {
		resp.Assignment = nil
		for _, v := range vals {
			tp, err := parseTP(v)
			if err != nil {
				return nil, err
			}
			resp.Assignment = append(resp.Assignment, group.TopicPartition(tp))
		}
	}
	return resp, nil
}

// beatAnswer answers a ConsumerGroupHeartbeat: the member's epoch
// (epoch=, default 1) and, with assignment=, the partitions it may own.
func beatAnswer(a args, code group.ErrorCode, r group.ConsumerGroupHeartbeat) (group.Response, error) {
	resp := group.ConsumerGroupHeartbeatResponse{Error: code}
	if code != group.None {
		return resp, nil
	}
	resp.MemberID, resp.MemberEpoch, resp.HeartbeatIntervalMs = r.MemberID, int32(a.num("epoch", 1)), int32(a.num("interval", 5000))
	if r.MemberEpoch < 0 {
		resp.MemberEpoch = r.MemberEpoch
	}
	if vals := a.list("assignment"); vals != nil {
		resp.Assignment = []group.TopicPartition{}
		for _, v := range vals {
			if v == "none" {
				continue
			}
			tp, err := parseTP(v)
			if err != nil {
				return nil, err
			}
			resp.Assignment = append(resp.Assignment, group.TopicPartition(tp))
		}
	}
	return resp, nil
}

func fetchAnswer(a args, code group.ErrorCode, r group.OffsetFetch) (group.Response, error) {
	committed := map[group.TopicPartition]int64{}
	for _, v := range a.list("offsets") {
		k, off, _ := strings.Cut(v, "=")
		tp, err := parseTP(k)
		if err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(off, 10, 64)
		if err != nil {
			return nil, err
		}
		committed[group.TopicPartition(tp)] = n
	}
	resp := group.OffsetFetchResponse{Error: code}
	for _, tp := range r.Partitions {
		off, ok := committed[tp]
		if !ok {
			off = -1
		}
		resp.Offsets = append(resp.Offsets, group.PartitionOffset{TopicPartition: tp, Offset: off, LeaderEpoch: -1})
	}
	return resp, nil
}

// drop has the network lose the oldest group request the consumer sent.
func (h *harness) drop(a args) error {
	c := h.consumer(a)
	e, ok := h.take(func(e *netsim.Envelope) bool { return e.Kind == netsim.KindGroupRequest && e.Client == c.Name() })
	if !ok {
		return fmt.Errorf("%s sent nothing to drop", c.Name())
	}
	reason := "broker stopped"
	if a.d.HasArg("cut") {
		reason = "link cut"
	}
	c.Dropped(h.env, &e, e.To, reason)
	return nil
}

func (h *harness) consumerCommand(a args) error {
	c := h.consumer(a)
	if a.d.Cmd == "poll" {
		if c.IsGroup() {
			return fmt.Errorf("%s is a group member", c.Name())
		}
		c.Poll(h.env)
		return nil
	}
	restart := a.d.Cmd == "restart"
	if err := CheckGroupAction(c, c.Name(), a.d.Cmd+"-consumer", restart, a.num("ms", 0)); err != nil {
		return err
	}
	switch a.d.Cmd {
	case "crash":
		c.Crash(h.env)
	case "restart":
		return c.Restart(h.env, h.settings)
	case "close":
		c.Close(h.env)
	case "stall":
		c.Stall(h.env, a.num("ms", 0))
	}
	return nil
}

// show prints a consumer: a simple one's position and records, a group
// member's state, partitions, positions and what it processed.
func (h *harness) show(c *Consumer) string {
	var b strings.Builder
	if !c.IsGroup() {
		fmt.Fprintf(&b, "position %d, read %d, resets %d\n", c.Position(), len(c.Records()), c.resets)
		return b.String()
	}
	g := c.grp
	st := g.member.Status()
	processed, dups := c.Processed()
	fmt.Fprintf(&b, "%s (%s) member %q generation %d, incarnation %d\n", c.Status(), c.MemberState(), c.MemberID(), st.Generation, g.inc)
	fmt.Fprintf(&b, "owned %v, fetchable %v\n", g.member.Owned(), st.Fetchable)
	for _, tp := range g.member.Owned() {
		if pos, ok := g.positions[topicPartition(tp)]; ok {
			fmt.Fprintf(&b, "position %s-%d: %d\n", tp.Topic, tp.Partition, pos)
		}
	}
	fmt.Fprintf(&b, "processed %d, duplicates %d\n", processed, dups)
	return b.String()
}

// assignorParts are learners' cooperative-sticky assignors: one that gives
// every partition to the first member (a valid assignment), one that gives
// each partition to every member (refused), one that declines.
var assignorParts = map[string]func([]group.MemberSubscription, []group.TopicMetadata) (group.Assignment, bool){
	"first": func(members []group.MemberSubscription, topics []group.TopicMetadata) (group.Assignment, bool) {
		out := group.Assignment{}
		for i, m := range members {
			out[m.MemberID] = nil
			for _, t := range topics {
				for p := range t.Partitions {
					if i == 0 && slices.Contains(m.Topics, t.Topic) {
						out[m.MemberID] = append(out[m.MemberID], group.TopicPartition{Topic: t.Topic, Partition: p})
					}
				}
			}
		}
		return out, true
	},
	"twice": func(members []group.MemberSubscription, topics []group.TopicMetadata) (group.Assignment, bool) {
		out := group.Assignment{}
		for _, m := range members {
			for _, t := range topics {
				for p := range t.Partitions {
					if slices.Contains(m.Topics, t.Topic) {
						out[m.MemberID] = append(out[m.MemberID], group.TopicPartition{Topic: t.Topic, Partition: p})
					}
				}
			}
		}
		return out, true
	},
	"decline": func([]group.MemberSubscription, []group.TopicMetadata) (group.Assignment, bool) { return nil, false },
}

// markerEntry is a transaction marker at offset, as a leader's log holds
// it: the control batch's bytes on its one record.
func markerEntry(offset int64, commit bool) replica.Entry {
	t := kafkalog.ControlAbort
	if commit {
		t = kafkalog.ControlCommit
	}
	b := kafkalog.NewEndTxnMarkerBatch(offset, 0, 7, 0, t, 0)
	return replica.Entry{Offset: offset, Key: b.Records[0].Key, Value: b.Records[0].Value, Batch: b.AppendTo(nil)}
}

// answerTxn answers the producer's oldest transactional request: with
// error=NAME (Kafka's name), or a success (InitProducerId: pid=, epoch=);
// "txn NAME drop" has the network drop it (broker not running).
func (h *harness) answerTxn(p *Producer, a args) error {
	e, ok := h.take(func(e *netsim.Envelope) bool { return e.From == p.id && e.Kind == netsim.KindTxnRequest })
	if !ok {
		return fmt.Errorf("%s sent no transactional request", p.Name())
	}
	if a.d.HasArg("drop") {
		p.TxnRequestDropped(h.env, &e, "broker stopped")
		return nil
	}
	var code int16
	if name := a.str("error", "NONE"); name != "NONE" {
		code = -1
		for c := range int16(200) {
			if kafkaerr.Name(c) == name {
				code = c
			}
		}
		if code < 0 {
			return fmt.Errorf("no error %s", name)
		}
	}
	var resp netsim.TxnMessage
	switch m := e.Txn.(type) {
	case txn.InitProducerID:
		resp = txn.InitProducerIDResponse{Corr: m.Corr, Error: code, ProducerID: a.num("pid", 5000), Epoch: int16(a.num("epoch", 0))}
	case txn.AddPartitions:
		r := txn.AddPartitionsResponse{Corr: m.Corr}
		for _, tp := range m.Partitions {
			r.Partitions = append(r.Partitions, txn.PartitionError{TP: tp, Error: code})
		}
		resp = r
	case txn.EndTxn:
		resp = txn.EndTxnResponse{Corr: m.Corr, Error: code, ProducerID: -1, Epoch: -1}
	case txn.AddOffsets:
		resp = txn.AddOffsetsResponse{Corr: m.Corr, Error: code}
	case txn.TxnOffsetCommit:
		if v := a.str("append", ""); v != "" {
			// the group coordinator appended: the offsets partition's
			// leader answers the producer
			rc, err := errorCode[replica.ErrorCode](v)
			if err != nil {
				return err
			}
			p.Step(h.env, &netsim.Envelope{From: e.To, To: p.id, Kind: netsim.KindProduceResp, Resp: replica.ProduceResponse{To: p.id, CorrelationID: m.Corr, Error: rc}})
			return nil
		}
		resp = txn.TxnOffsetCommitResponse{Corr: m.Corr, Error: code}
	}
	p.Step(h.env, &netsim.Envelope{From: e.To, To: p.id, Kind: netsim.KindTxnResponse, Txn: resp})
	return nil
}

// committed sets the group coordinator's answer to an OffsetFetch of a
// partition: "committed g in-0 offset=3", "... error=UNSTABLE_OFFSET_COMMIT",
// "... none".
func (h *harness) committed(a args) error {
	if len(a.d.CmdArgs) < 2 {
		return fmt.Errorf("committed GROUP TOPIC-PARTITION ...")
	}
	key := a.d.CmdArgs[0].Key + " " + a.d.CmdArgs[1].Key
	if a.d.HasArg("none") {
		delete(h.env.committed, key)
		return nil
	}
	ans := committedAnswer{offset: a.num("offset", -1)}
	if name := a.str("error", ""); name != "" {
		for c := range int16(200) {
			if kafkaerr.Name(c) == name {
				ans.code = c
			}
		}
		if ans.code == 0 {
			return fmt.Errorf("no error %s", name)
		}
	}
	h.env.committed[key] = ans
	return nil
}
