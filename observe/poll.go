package observe

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A poll asks the cluster, with B the brokers the cluster lists and N the
// partitions:
//
//	Metadata (every topic)                      1
//	then side by side:
//	DescribeCluster (fenced brokers too)        1
//	DescribeQuorum                              1 (to the controller)
//	DescribeConfigs (every topic)               1
//	DescribeTopicPartitions (every topic)       ⌈N / 2000⌉: pages of
//	                                            DescribePartitionsLimit, from
//	                                            the cursor each answer names
//	ListOffsets at each broker                  up to 4 a broker: its replicas'
//	                                            log ends (replica id -2), and for
//	                                            the partitions it leads their log
//	                                            start, high watermark and last
//	                                            stable offset (read_committed)
//	DescribeLogDirs at each broker              1 a broker
//	DescribeProducers at each leader            1 a broker, for at most
//	                                            MaxProducerPartitions of the
//	                                            partitions it leads, in turn
//	ListGroups at each broker                   1 a broker
//	FindCoordinator (the listed groups)         1, when there are groups
//	DescribeGroups, OffsetFetch                 1 each a coordinator
//
// at most 5 + ⌈N/2000⌉ + 9B requests however many groups there are (kadm
// batches OffsetFetch by coordinator from v8): 35 for 2,000 partitions on
// three brokers. Besides them the client sends its own: a Metadata refresh
// about once a poll, and on each new connection ApiVersions and the SASL
// exchange. Measured on the simulated cluster of three brokers with a
// group: 30 a poll once connected (41 the first).
// Sample.Requests counts them all.
// A broker that is down costs a failed connection instead, or, when its
// host does not answer, a request timeout; a request any broker may answer
// goes first to one that answered the poll before, so that a dead broker
// costs the poll little. The poll stops at its timeout (Config.PollTimeout):
// what did not answer by then is not observed in that sample.

// poller runs the polls of one client; it keeps what it saw last, to share
// what did not change and to remember brokers that went away.
type poller struct {
	cl  *kgo.Client
	adm *kadm.Client
	// requests counts the requests written (the client's hook).
	requests *counter
	last     *Sample
	seq      uint64
	// answered are the brokers that answered the last poll's requests,
	// the one that answered its Metadata first.
	answered []int32
	// timeout bounds a poll.
	timeout time.Duration
	// producerNext is, by broker, where the next poll's DescribeProducers
	// starts in the partitions it leads (MaxProducerPartitions).
	producerNext map[int32]int
	// describeLimit is DescribeTopicPartitions' ResponsePartitionLimit (0:
	// DescribePartitionsLimit; tests page with less).
	describeLimit int32
}

// counter counts the requests a client writes, by api key.
type counter struct {
	mu     sync.Mutex
	n      int
	keys   map[int16]int
	others []int16 // keys outside ReadOnlyKeys, which must stay empty
}

// OnBrokerWrite implements kgo.HookBrokerWrite.
func (c *counter) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.keys == nil {
		c.keys = map[int16]int{}
	}
	c.keys[key]++
	if !IsReadOnly(key) {
		c.others = append(c.others, key)
	}
}

// take returns the requests counted since the last take.
func (c *counter) take() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = 0
	return n
}

// poll asks the cluster once and returns what it saw.
func (p *poller) poll(ctx context.Context, now time.Time) *Sample {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	p.seq++
	s := &Sample{Seq: p.seq, At: now, ControllerID: -1}
	p.requests.take()
	md, from, err := p.metadata(ctx)
	if err != nil {
		s.Unanswered = append(s.Unanswered, "Metadata: "+err.Error())
		s.Brokers = p.unreachableBrokers()
		s.Took, s.Requests = time.Since(now), p.requests.take()
		p.last, p.answered = s, nil
		return s
	}
	if from >= 0 {
		// the requests of this poll that any broker may answer go first to
		// the one that just did
		p.answered = append([]int32{from}, slices.DeleteFunc(p.answered, func(id int32) bool { return id == from })...)
	}
	s.ClusterID, s.ControllerID = deref(md.ClusterID), md.ControllerID
	s.TopicsListed = true
	s.Brokers = metadataBrokers(md)
	s.Topics, s.Partitions = p.topics(md)
	var wg sync.WaitGroup
	var mu sync.Mutex
	note := func(line string) {
		mu.Lock()
		s.Unanswered = append(s.Unanswered, line)
		mu.Unlock()
	}
	run := func(fn func()) {
		wg.Add(1)
		go func() { defer wg.Done(); fn() }()
	}
	var described []Broker
	var quorum *Quorum
	var configs map[string][]TopicConfig
	var offsets partitionOffsets
	var dirs map[int32]brokerDir
	var groups []*Group
	var groupsListed bool
	var elr map[TopicPartition]partitionELR
	var prods producersOf
	run(func() { described = p.describeCluster(ctx, note) })
	run(func() { quorum = p.quorum(ctx, note) })
	run(func() { configs = p.configs(ctx, s.Topics, note) })
	run(func() { offsets = p.offsets(ctx, s, note) })
	run(func() { dirs = p.logDirs(ctx, s, note) })
	run(func() { groups, groupsListed = p.groups(ctx, note) })
	run(func() { elr, s.ELRListed = p.elr(ctx, s, note) })
	run(func() { prods = p.producers(ctx, s, note) })
	wg.Wait()
	if described != nil {
		s.Brokers = described
	}
	s.Brokers = p.goneBrokers(s.Brokers)
	s.Quorum, s.GroupsListed = quorum, groupsListed
	p.fillELR(s, elr)
	p.fillProducers(s, prods)
	p.fill(s, configs, offsets, dirs, groups)
	slices.Sort(s.Unanswered)
	s.Took, s.Requests = time.Since(now), p.requests.take()
	p.last, p.answered = s, answering(s, from)
	return s
}

// answering are the brokers of s that answered, from first.
func answering(s *Sample, from int32) []int32 {
	out := []int32{from}
	for _, b := range s.Brokers {
		if b.State == BrokerUp && b.ID != from {
			out = append(out, b.ID)
		}
	}
	return out
}

// metadata asks for every topic, creating none, and says which broker
// answered.
func (p *poller) metadata(ctx context.Context) (*kmsg.MetadataResponse, int32, error) {
	req := kmsg.NewPtrMetadataRequest()
	req.AllowAutoTopicCreation = false
	var from int32 = -1
	md, err := anyBroker[*kmsg.MetadataResponse](ctx, p, req, &from)
	return md, from, err
}

// anyBroker sends req, which any broker may answer, to the brokers that
// answered the poll before, one after the other, each given at most half
// of what is left of the poll; then lets the client pick (the seed
// brokers before the first answer). from, when not nil, is set to the
// broker that answered (-1: the client's pick).
func anyBroker[R kmsg.Response](ctx context.Context, p *poller, req kmsg.Request, from *int32) (R, error) {
	var firstErr error
	for i, id := range p.answered {
		if i == 2 || ctx.Err() != nil {
			break
		}
		actx, cancel := context.WithTimeout(ctx, remaining(ctx)/2)
		resp, err := request[R](actx, p.cl.Broker(int(id)), req)
		cancel()
		if err == nil {
			if from != nil {
				*from = id
			}
			return resp, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	resp, err := request[R](ctx, p.cl, req)
	if err != nil && firstErr != nil && ctx.Err() != nil {
		err = firstErr // the first broker's own failure says more than the deadline
	}
	return resp, err
}

// remaining is the time left before ctx's deadline (a minute: none).
func remaining(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return time.Minute
}

// request sends a read-only req through r (the client, or one broker) and
// returns its response of type R.
func request[R kmsg.Response](ctx context.Context, r kmsg.Requestor, req kmsg.Request) (R, error) {
	var zero R
	if err := checkReadOnly(req); err != nil {
		return zero, err
	}
	resp, err := r.Request(ctx, req)
	if err != nil {
		return zero, err
	}
	out, ok := resp.(R)
	if !ok {
		return zero, fmt.Errorf("observe: %s answered with %T", kmsg.NameForKey(req.Key()), resp)
	}
	return out, nil
}

// metadataBrokers are the brokers Metadata lists: up, sorted.
func metadataBrokers(md *kmsg.MetadataResponse) []Broker {
	out := make([]Broker, 0, len(md.Brokers))
	for _, b := range md.Brokers {
		out = append(out, Broker{ID: b.NodeID, Host: b.Host, Port: b.Port, Rack: deref(b.Rack), State: BrokerUp,
			TotalBytes: NotObserved, UsableBytes: NotObserved})
	}
	slices.SortFunc(out, func(a, b Broker) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// describeCluster are the brokers DescribeCluster lists, the fenced ones
// too, sorted; nil where the cluster does not answer it (the brokers are
// then Metadata's).
func (p *poller) describeCluster(ctx context.Context, note func(string)) []Broker {
	req := kmsg.NewPtrDescribeClusterRequest()
	req.IncludeFencedBrokers = true
	dc, err := anyBroker[*kmsg.DescribeClusterResponse](ctx, p, req, nil)
	if err == nil {
		err = kerr.ErrorForCode(dc.ErrorCode)
	}
	if err != nil {
		note("DescribeCluster: " + err.Error() + " (the brokers are Metadata's)")
		return nil
	}
	out := make([]Broker, 0, len(dc.Brokers))
	for _, b := range dc.Brokers {
		st := BrokerUp
		if b.IsFenced {
			st = BrokerFenced
		}
		out = append(out, Broker{ID: b.NodeID, Host: b.Host, Port: b.Port, Rack: deref(b.Rack), State: st,
			TotalBytes: NotObserved, UsableBytes: NotObserved})
	}
	slices.SortFunc(out, func(a, b Broker) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// unreachableBrokers are the last sample's brokers when the cluster did
// not answer at all: those that were listed, unreachable; those that were
// not, still down.
func (p *poller) unreachableBrokers() []Broker {
	if p.last == nil {
		return nil
	}
	out := slices.Clone(p.last.Brokers)
	for i := range out {
		b := &out[i]
		if b.State != BrokerDown {
			b.State = BrokerUnreachable
		}
		b.TotalBytes, b.UsableBytes = NotObserved, NotObserved
	}
	return out
}

// goneBrokers adds to listed (sorted) the brokers of the last sample it
// does not hold, down.
func (p *poller) goneBrokers(listed []Broker) []Broker {
	if p.last == nil {
		return listed
	}
	for _, b := range p.last.Brokers {
		if _, ok := slices.BinarySearchFunc(listed, b.ID, func(x Broker, id int32) int { return cmp.Compare(x.ID, id) }); !ok {
			b.State, b.TotalBytes, b.UsableBytes = BrokerDown, NotObserved, NotObserved
			listed = append(listed, b)
		}
	}
	slices.SortFunc(listed, func(a, b Broker) int { return cmp.Compare(a.ID, b.ID) })
	return listed
}

// topics are Metadata's topics and partitions, sorted, their offsets not
// observed yet.
func (p *poller) topics(md *kmsg.MetadataResponse) ([]*Topic, []*Partition) {
	var topics []*Topic
	var parts []*Partition
	for _, t := range md.Topics {
		if t.Topic == nil || t.ErrorCode != 0 && len(t.Partitions) == 0 {
			continue
		}
		topics = append(topics, &Topic{Name: *t.Topic, ID: t.TopicID, Internal: t.IsInternal})
		for _, mp := range t.Partitions {
			pt := &Partition{Topic: *t.Topic, Partition: mp.Partition, Leader: mp.Leader, LeaderEpoch: mp.LeaderEpoch,
				Replicas: mp.Replicas, ISR: mp.ISR, Offline: mp.OfflineReplicas, ErrorCode: mp.ErrorCode,
				LogStartOffset: NotObserved, HighWatermark: NotObserved, LastStableOffset: NotObserved}
			for _, r := range mp.Replicas {
				pt.Logs = append(pt.Logs, ReplicaLog{Broker: r, LogEndOffset: NotObserved, Size: NotObserved, OffsetLag: NotObserved})
			}
			parts = append(parts, pt)
		}
	}
	slices.SortFunc(topics, func(a, b *Topic) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(parts, comparePartitions)
	return topics, parts
}

func comparePartitions(a, b *Partition) int {
	if c := strings.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return cmp.Compare(a.Partition, b.Partition)
}

// quorum asks for the metadata quorum; nil when it is not answered. Any
// broker answers DescribeQuorum: Kafka 3.9's KafkaApis forwards it to the
// active controller.
func (p *poller) quorum(ctx context.Context, note func(string)) *Quorum {
	req := kmsg.NewPtrDescribeQuorumRequest()
	rt := kmsg.NewDescribeQuorumRequestTopic()
	rt.Topic = "__cluster_metadata"
	rp := kmsg.NewDescribeQuorumRequestTopicPartition()
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := anyBroker[*kmsg.DescribeQuorumResponse](ctx, p, req, nil)
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if err == nil && (len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1) {
		err = errors.New("an answer without the metadata partition")
	}
	if err == nil {
		err = kerr.ErrorForCode(resp.Topics[0].Partitions[0].ErrorCode)
	}
	if err != nil {
		note("DescribeQuorum: " + err.Error())
		return nil
	}
	qp := resp.Topics[0].Partitions[0]
	q := &Quorum{LeaderID: qp.LeaderID, LeaderEpoch: qp.LeaderEpoch, HighWatermark: qp.HighWatermark}
	replicas := func(rs []kmsg.DescribeQuorumResponseTopicPartitionReplicaState) []QuorumReplica {
		out := make([]QuorumReplica, 0, len(rs))
		for _, r := range rs {
			out = append(out, QuorumReplica{ID: r.ReplicaID, LogEndOffset: r.LogEndOffset, LastFetchTimestamp: r.LastFetchTimestamp, LastCaughtUpTimestamp: r.LastCaughtUpTimestamp})
		}
		return out
	}
	q.Voters, q.Observers = replicas(qp.CurrentVoters), replicas(qp.Observers)
	return q
}

// configs asks for every topic's configs with their synonyms.
func (p *poller) configs(ctx context.Context, topics []*Topic, note func(string)) map[string][]TopicConfig {
	if len(topics) == 0 {
		return nil
	}
	req := kmsg.NewPtrDescribeConfigsRequest()
	req.IncludeSynonyms = true
	for _, t := range topics {
		r := kmsg.NewDescribeConfigsRequestResource()
		r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeTopic, t.Name
		req.Resources = append(req.Resources, r)
	}
	resp, err := anyBroker[*kmsg.DescribeConfigsResponse](ctx, p, req, nil)
	if err != nil {
		note("DescribeConfigs: " + err.Error())
		return nil
	}
	out := map[string][]TopicConfig{}
	for _, r := range resp.Resources {
		if r.ErrorCode != 0 {
			continue
		}
		cs := make([]TopicConfig, 0, len(r.Configs))
		for _, c := range r.Configs {
			cfg := TopicConfig{Name: c.Name, Value: deref(c.Value), Source: c.Source.String(), Sensitive: c.IsSensitive}
			for _, syn := range c.ConfigSynonyms {
				cfg.Synonyms = append(cfg.Synonyms, Synonym{Name: syn.Name, Value: deref(syn.Value), Source: syn.Source.String()})
			}
			cs = append(cs, cfg)
		}
		slices.SortFunc(cs, func(a, b TopicConfig) int { return strings.Compare(a.Name, b.Name) })
		out[r.ResourceName] = cs
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// fill puts what the poll's requests found into s: the topics' configs,
// the partitions' offsets and log sizes, each broker's log dir and
// whether it answered, the groups with their lag; then shares with the
// last sample whatever is equal to it.
func (p *poller) fill(s *Sample, configs map[string][]TopicConfig, offs partitionOffsets, dirs map[int32]brokerDir, groups []*Group) {
	for _, t := range s.Topics {
		t.Configs = configs[t.Name]
	}
	for i := range s.Brokers {
		b := &s.Brokers[i]
		if d, ok := dirs[b.ID]; ok {
			b.LogDir, b.TotalBytes, b.UsableBytes = d.dir, d.totalBytes, d.usableBytes
		}
		if b.State == BrokerUp && offs.unreachable[b.ID] {
			b.State = BrokerUnreachable
		}
	}
	for _, pt := range s.Partitions {
		k := TopicPartition{pt.Topic, pt.Partition}
		pt.LogStartOffset = valueOr(offs.logStart, k)
		pt.HighWatermark = valueOr(offs.hw, k)
		pt.LastStableOffset = valueOr(offs.lastStable, k)
		for i := range pt.Logs {
			l := &pt.Logs[i]
			if off, ok := offs.leo[replicaKey{k, l.Broker}]; ok {
				l.LogEndOffset = off
			}
			if d, ok := dirs[l.Broker].logs[k]; ok {
				l.Size, l.OffsetLag = d.size, d.lag
			}
		}
	}
	for _, g := range groups {
		for i := range g.Offsets {
			o := &g.Offsets[i]
			if pt := s.Partition(o.Topic, o.Partition); pt != nil && pt.HighWatermark >= 0 {
				o.LogEndOffset = pt.HighWatermark
				if o.Committed >= 0 {
					o.Lag = max(0, pt.HighWatermark-o.Committed)
				}
			}
		}
	}
	s.Groups = groups
	p.share(s)
}

// valueOr is m[k], NotObserved if absent.
func valueOr(m map[TopicPartition]int64, k TopicPartition) int64 {
	if v, ok := m[k]; ok {
		return v
	}
	return NotObserved
}

// fillELR puts each partition's eligible leader replicas into s.
func (p *poller) fillELR(s *Sample, elr map[TopicPartition]partitionELR) {
	for _, pt := range s.Partitions {
		if e, ok := elr[TopicPartition{pt.Topic, pt.Partition}]; ok {
			pt.ELR, pt.LastKnownELR = e.elr, e.lastKnown
		}
	}
}

// fillProducers puts into s the producers this poll was told of, and for
// the partitions it did not ask, those the poll that last asked was told,
// with its number.
func (p *poller) fillProducers(s *Sample, prods producersOf) {
	for _, pt := range s.Partitions {
		if ps, ok := prods[TopicPartition{pt.Topic, pt.Partition}]; ok {
			pt.Producers, pt.ProducersSeq = ps, s.Seq
			continue
		}
		if p.last == nil {
			continue
		}
		if old := p.last.Partition(pt.Topic, pt.Partition); old != nil {
			pt.Producers, pt.ProducersSeq = old.Producers, old.ProducersSeq
		}
	}
}
