package interop

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"testing"
	"time"

	"github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
)

// saramaDriver is IBM's sarama: SyncProducer, Consumer, ConsumerGroup and
// ClusterAdmin, at its default configuration but for acks and the version
// of Kafka it speaks (V3_7_0_0, the brokers' version).
type saramaDriver struct{ lc *liveCluster }

func (d saramaDriver) config(clientID string) *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.ClientID = clientID
	cfg.Version = sarama.V3_7_0_0
	cfg.Metadata.Retry.Backoff = 100 * time.Millisecond
	return cfg
}

func (d saramaDriver) addrs() []string { return []string{d.lc.bootstrap(3)} }

func (d saramaDriver) produce(ctx context.Context, t *testing.T, topic, acks string, recs []rec) ([]rec, error) {
	cfg := d.config("sarama-acks-" + acks)
	cfg.Producer.Return.Successes = true
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	if acks == "1" {
		cfg.Producer.RequiredAcks = sarama.WaitForLocal
	}
	p, err := sarama.NewSyncProducer(d.addrs(), cfg)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	var out []rec
	for _, r := range recs {
		part, off, err := p.SendMessage(&sarama.ProducerMessage{Topic: topic, Key: sarama.ByteEncoder(r.Key), Value: sarama.ByteEncoder(r.Value)})
		if err != nil {
			return out, fmt.Errorf("record %s: %w", r, err)
		}
		out = append(out, rec{Key: r.Key, Value: r.Value, Partition: part, Offset: off})
	}
	return out, nil
}

func fromSarama(m *sarama.ConsumerMessage) rec {
	return rec{Key: m.Key, Value: m.Value, Partition: m.Partition, Offset: m.Offset}
}

func (d saramaDriver) consumePlain(ctx context.Context, t *testing.T, topic string, partitions int32, n int) ([]rec, error) {
	c, err := sarama.NewConsumer(d.addrs(), d.config("sarama-plain"))
	if err != nil {
		return nil, err
	}
	defer c.Close()
	msgs := make(chan *sarama.ConsumerMessage)
	for p := range partitions {
		pc, err := c.ConsumePartition(topic, p, sarama.OffsetOldest)
		if err != nil {
			return nil, fmt.Errorf("partition %d: %w", p, err)
		}
		defer pc.Close()
		go func() {
			for m := range pc.Messages() {
				select {
				case msgs <- m:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	var out []rec
	for len(out) < n {
		select {
		case m := <-msgs:
			out = append(out, fromSarama(m))
		case <-ctx.Done():
			return out, fmt.Errorf("read %d of %d: %w", len(out), n, ctx.Err())
		}
	}
	return out, nil
}

// saramaHandler reads until it has n records, marking each.
type saramaHandler struct {
	mu   sync.Mutex
	out  []rec
	n    int
	done chan struct{}
	once sync.Once
}

func (h *saramaHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (h *saramaHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (h *saramaHandler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error {
	for m := range c.Messages() {
		s.MarkMessage(m, "")
		h.mu.Lock()
		h.out = append(h.out, fromSarama(m))
		full := len(h.out) >= h.n
		h.mu.Unlock()
		if full {
			s.Commit() // synchronous with auto-commit's settings
			h.once.Do(func() { close(h.done) })
		}
	}
	return nil
}

func (d saramaDriver) consumeGroup(ctx context.Context, t *testing.T, topic, group string, n int) ([]rec, error) {
	cfg := d.config("sarama-group")
	cfg.Consumer.Offsets.Initial = sarama.OffsetOldest
	cg, err := sarama.NewConsumerGroup(d.addrs(), group, cfg)
	if err != nil {
		return nil, err
	}
	h := &saramaHandler{n: n, done: make(chan struct{})}
	cctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		for cctx.Err() == nil {
			if err := cg.Consume(cctx, []string{topic}, h); err != nil && !errors.Is(err, sarama.ErrClosedConsumerGroup) {
				t.Logf("sarama Consume: %v", err)
				time.Sleep(100 * time.Millisecond)
			}
		}
		errc <- nil
	}()
	select {
	case <-h.done:
	case <-ctx.Done():
	}
	cancel()
	<-errc
	if err := cg.Close(); err != nil { // leaves the group
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.out) < n {
		return h.out, fmt.Errorf("read %d of %d: %w", len(h.out), n, ctx.Err())
	}
	return h.out, nil
}

func (d saramaDriver) admin() (sarama.ClusterAdmin, error) {
	return sarama.NewClusterAdmin(d.addrs(), d.config("sarama-admin"))
}

func (d saramaDriver) committed(ctx context.Context, t *testing.T, group, topic string, partitions int32) (map[int32]int64, error) {
	a, err := d.admin()
	if err != nil {
		return nil, err
	}
	defer a.Close()
	var ps []int32
	for p := range partitions {
		ps = append(ps, p)
	}
	resp, err := a.ListConsumerGroupOffsets(group, map[string][]int32{topic: ps})
	if err != nil {
		return nil, err
	}
	out := map[int32]int64{}
	for p, b := range resp.Blocks[topic] {
		if b.Err != sarama.ErrNoError {
			return nil, fmt.Errorf("partition %d: %w", p, b.Err)
		}
		if b.Offset >= 0 {
			out[p] = b.Offset
		}
	}
	return out, nil
}

func (d saramaDriver) listGroups(ctx context.Context, t *testing.T) ([]string, error) {
	a, err := d.admin()
	if err != nil {
		return nil, err
	}
	defer a.Close()
	gs, err := a.ListConsumerGroups()
	var out []string
	for g := range gs {
		out = append(out, g)
	}
	return out, err
}

func (d saramaDriver) describeGroup(ctx context.Context, t *testing.T, group string) (groupDesc, error) {
	a, err := d.admin()
	if err != nil {
		return groupDesc{}, err
	}
	defer a.Close()
	gs, err := a.DescribeConsumerGroups([]string{group})
	if err != nil {
		return groupDesc{}, err
	}
	if len(gs) != 1 {
		return groupDesc{}, fmt.Errorf("%d groups described", len(gs))
	}
	g := gs[0]
	if g.Err != sarama.ErrNoError {
		return groupDesc{}, g.Err
	}
	return groupDesc{State: g.State, ProtocolType: g.ProtocolType, Members: len(g.Members)}, nil
}

// saramaFNV is sarama's default partitioner for keyed records
// (NewHashPartitioner): FNV-1a of the key, the signed 32-bit remainder
// made positive by negation, not the Java client's murmur2.
var saramaFNV = partitionRule{"FNV-1a (sarama's NewHashPartitioner)", func(key []byte, n int32) int32 {
	h := fnv.New32a()
	h.Write(key)
	p := int32(h.Sum32()) % n
	if p < 0 {
		p = -p
	}
	return p
}}

// TestSarama: IBM's sarama.
func TestSarama(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 1)
	runSuite(t, lc, "sarama", saramaDriver{lc}, saramaFNV)
}

func (d saramaDriver) addPartitions(ctx context.Context, t *testing.T, topic string, count int32) error {
	a, err := d.admin()
	if err != nil {
		return err
	}
	defer a.Close()
	return a.CreatePartitions(topic, count, nil, false)
}

func (d saramaDriver) deleteGroup(ctx context.Context, t *testing.T, group string) error {
	a, err := d.admin()
	if err != nil {
		return err
	}
	defer a.Close()
	return a.DeleteConsumerGroup(group)
}

// alterConfigs is ClusterAdmin.IncrementalAlterConfig (IncrementalAlterConfigs
// v1, as sarama sends it to a Kafka of 2.4 or later).
func (d saramaDriver) alterConfigs(ctx context.Context, t *testing.T, topic string, ops []cluster.ConfigOp) (string, error) {
	entries := map[string]sarama.IncrementalAlterConfigsEntry{}
	for _, o := range ops {
		e := sarama.IncrementalAlterConfigsEntry{Value: o.Value}
		switch o.Op {
		case cluster.ConfigSet:
			e.Operation = sarama.IncrementalAlterConfigsOperationSet
		case cluster.ConfigDelete:
			e.Operation = sarama.IncrementalAlterConfigsOperationDelete
		case cluster.ConfigAppend:
			e.Operation = sarama.IncrementalAlterConfigsOperationAppend
		case cluster.ConfigSubtract:
			e.Operation = sarama.IncrementalAlterConfigsOperationSubtract
		default:
			return "", fmt.Errorf("sarama has no operation %s", o.Op)
		}
		entries[o.Name] = e
	}
	a, err := d.admin()
	if err != nil {
		return "", err
	}
	defer a.Close()
	if err := a.IncrementalAlterConfig(sarama.TopicResource, topic, entries, false); err != nil {
		return "", err
	}
	return incrementalAlterConfigs, nil
}

// describeConfigs is ClusterAdmin.DescribeConfigs (its DescribeConfig of
// one resource is deprecated). sarama's ConfigSource numbers the sources
// as Kafka does, and kmsg names them.
func (d saramaDriver) describeConfigs(ctx context.Context, t *testing.T, topic string) (map[string]configDesc, error) {
	a, err := d.admin()
	if err != nil {
		return nil, err
	}
	defer a.Close()
	rs, err := a.DescribeConfigs([]*sarama.ConfigResource{{Type: sarama.TopicResource, Name: topic}}, sarama.DescribeConfigsOptions{})
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 {
		return nil, fmt.Errorf("%d resources described", len(rs))
	}
	if rs[0].ErrorCode != sarama.ErrNoError {
		return nil, fmt.Errorf("%s: %w: %s", topic, rs[0].ErrorCode, rs[0].ErrorMsg)
	}
	out := map[string]configDesc{}
	for _, c := range rs[0].Configs {
		out[c.Name] = configDesc{Value: c.Value, Source: kmsg.ConfigSource(c.Source).String()}
	}
	return out, nil
}
