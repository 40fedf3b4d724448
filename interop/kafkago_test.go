package interop

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
)

// kafkaGoDriver is segmentio's kafka-go: Writer, Reader (one per
// partition, and a group Reader) and Client. The Writer's default
// Balancer is RoundRobin, which ignores keys; this driver sets
// kafka.Murmur2Balancer, the Java client's rule, so that keyed records
// land where the other clients put them.
type kafkaGoDriver struct{ lc *liveCluster }

func (d kafkaGoDriver) produce(ctx context.Context, t *testing.T, topic, acks string, recs []rec) ([]rec, error) {
	w := &kafka.Writer{
		Addr:         kafka.TCP(d.lc.bootstrap(1)),
		Topic:        topic,
		Balancer:     &kafka.Murmur2Balancer{},
		RequiredAcks: kafka.RequireAll,
		BatchTimeout: 5 * time.Millisecond,
		Transport:    &kafka.Transport{ClientID: "kafka-go-acks-" + acks},
	}
	if acks == "1" {
		w.RequiredAcks = kafka.RequireOne
	}
	defer w.Close()
	var msgs []kafka.Message
	for _, r := range recs {
		msgs = append(msgs, kafka.Message{Key: r.Key, Value: r.Value})
	}
	if err := w.WriteMessages(ctx, msgs...); err != nil {
		return nil, err
	}
	// WriteMessages says neither partitions nor offsets
	return recs, nil
}

func fromKafkaGo(m kafka.Message) rec {
	return rec{Key: m.Key, Value: m.Value, Partition: int32(m.Partition), Offset: m.Offset}
}

func (d kafkaGoDriver) dialer(id string) *kafka.Dialer {
	return &kafka.Dialer{ClientID: id, Timeout: 10 * time.Second}
}

func (d kafkaGoDriver) consumePlain(ctx context.Context, t *testing.T, topic string, partitions int32, n int) ([]rec, error) {
	msgs := make(chan kafka.Message)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for p := range partitions {
		r := kafka.NewReader(kafka.ReaderConfig{Brokers: []string{d.lc.bootstrap(2)}, Topic: topic, Partition: int(p),
			MaxWait: 300 * time.Millisecond, Dialer: d.dialer("kafka-go-plain")})
		defer r.Close()
		go func() {
			for {
				m, err := r.ReadMessage(cctx)
				if err != nil {
					return
				}
				select {
				case msgs <- m:
				case <-cctx.Done():
					return
				}
			}
		}()
	}
	var out []rec
	for len(out) < n {
		select {
		case m := <-msgs:
			out = append(out, fromKafkaGo(m))
		case <-ctx.Done():
			return out, fmt.Errorf("read %d of %d: %w", len(out), n, ctx.Err())
		}
	}
	return out, nil
}

func (d kafkaGoDriver) consumeGroup(ctx context.Context, t *testing.T, topic, group string, n int) ([]rec, error) {
	r := kafka.NewReader(kafka.ReaderConfig{Brokers: []string{d.lc.bootstrap(2)}, Topic: topic, GroupID: group,
		StartOffset: kafka.FirstOffset, MaxWait: 300 * time.Millisecond, Dialer: d.dialer("kafka-go-group")})
	var out []rec
	for len(out) < n {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			r.Close()
			return out, fmt.Errorf("read %d of %d: %w", len(out), n, err)
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			r.Close()
			return out, fmt.Errorf("commit: %w", err)
		}
		out = append(out, fromKafkaGo(m))
	}
	return out, r.Close() // leaves the group
}

func (d kafkaGoDriver) client() *kafka.Client {
	return &kafka.Client{Addr: kafka.TCP(d.lc.bootstrap(3)), Timeout: 10 * time.Second, Transport: &kafka.Transport{ClientID: "kafka-go-admin"}}
}

func (d kafkaGoDriver) committed(ctx context.Context, t *testing.T, group, topic string, partitions int32) (map[int32]int64, error) {
	var ps []int
	for p := range partitions {
		ps = append(ps, int(p))
	}
	resp, err := d.client().OffsetFetch(ctx, &kafka.OffsetFetchRequest{GroupID: group, Topics: map[string][]int{topic: ps}})
	if err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error
	}
	out := map[int32]int64{}
	for _, p := range resp.Topics[topic] {
		if p.Error != nil {
			return nil, fmt.Errorf("partition %d: %w", p.Partition, p.Error)
		}
		if p.CommittedOffset >= 0 {
			out[int32(p.Partition)] = p.CommittedOffset
		}
	}
	return out, nil
}

func (d kafkaGoDriver) listGroups(ctx context.Context, t *testing.T) ([]string, error) {
	resp, err := d.client().ListGroups(ctx, &kafka.ListGroupsRequest{})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, g := range resp.Groups {
		out = append(out, g.GroupID)
	}
	return out, resp.Error
}

func (d kafkaGoDriver) describeGroup(ctx context.Context, t *testing.T, group string) (groupDesc, error) {
	resp, err := d.client().DescribeGroups(ctx, &kafka.DescribeGroupsRequest{GroupIDs: []string{group}})
	if err != nil {
		return groupDesc{}, err
	}
	if len(resp.Groups) != 1 {
		return groupDesc{}, fmt.Errorf("%d groups described", len(resp.Groups))
	}
	g := resp.Groups[0]
	if g.Error != nil {
		return groupDesc{}, g.Error
	}
	// kafka-go's DescribeGroups does not say the protocol type
	return groupDesc{State: g.GroupState, Members: len(g.Members)}, nil
}

// TestKafkaGo: segmentio's kafka-go, its Writer with Murmur2Balancer (the
// default, RoundRobin, puts keys anywhere).
func TestKafkaGo(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 1)
	runSuite(t, lc, "kafka-go", kafkaGoDriver{lc}, murmur2)
}

func (d kafkaGoDriver) addPartitions(ctx context.Context, t *testing.T, topic string, count int32) error {
	resp, err := d.client().CreatePartitions(ctx, &kafka.CreatePartitionsRequest{Topics: []kafka.TopicPartitionsConfig{{Name: topic, Count: count}}})
	if err != nil {
		return err
	}
	return resp.Errors[topic]
}

func (d kafkaGoDriver) deleteGroup(ctx context.Context, t *testing.T, group string) error {
	resp, err := d.client().DeleteGroups(ctx, &kafka.DeleteGroupsRequest{GroupIDs: []string{group}})
	if err != nil {
		return err
	}
	return resp.Errors[group]
}

// alterConfigs is Client.IncrementalAlterConfigs (IncrementalAlterConfigs
// v0, the one version kafka-go encodes).
func (d kafkaGoDriver) alterConfigs(ctx context.Context, t *testing.T, topic string, ops []cluster.ConfigOp) (string, error) {
	res := kafka.IncrementalAlterConfigsRequestResource{ResourceType: kafka.ResourceTypeTopic, ResourceName: topic}
	for _, o := range ops {
		c := kafka.IncrementalAlterConfigsRequestConfig{Name: o.Name}
		if o.Value != nil {
			c.Value = *o.Value
		}
		switch o.Op {
		case cluster.ConfigSet:
			c.ConfigOperation = kafka.ConfigOperationSet
		case cluster.ConfigDelete:
			c.ConfigOperation = kafka.ConfigOperationDelete
		case cluster.ConfigAppend:
			c.ConfigOperation = kafka.ConfigOperationAppend
		case cluster.ConfigSubtract:
			c.ConfigOperation = kafka.ConfigOperationSubtract
		default:
			return "", fmt.Errorf("kafka-go has no operation %s", o.Op)
		}
		res.Configs = append(res.Configs, c)
	}
	resp, err := d.client().IncrementalAlterConfigs(ctx, &kafka.IncrementalAlterConfigsRequest{Resources: []kafka.IncrementalAlterConfigsRequestResource{res}})
	if err != nil {
		return "", err
	}
	if len(resp.Resources) != 1 {
		return "", fmt.Errorf("%d resources in the answer", len(resp.Resources))
	}
	return incrementalAlterConfigs, resp.Resources[0].Error
}

// describeConfigs is Client.DescribeConfigs; its ConfigSource is Kafka's
// number, which kmsg names.
func (d kafkaGoDriver) describeConfigs(ctx context.Context, t *testing.T, topic string) (map[string]configDesc, error) {
	resp, err := d.client().DescribeConfigs(ctx, &kafka.DescribeConfigsRequest{
		Resources: []kafka.DescribeConfigRequestResource{{ResourceType: kafka.ResourceTypeTopic, ResourceName: topic}}})
	if err != nil {
		return nil, err
	}
	if len(resp.Resources) != 1 {
		return nil, fmt.Errorf("%d resources described", len(resp.Resources))
	}
	r := resp.Resources[0]
	if r.Error != nil {
		return nil, r.Error
	}
	out := map[string]configDesc{}
	for _, c := range r.ConfigEntries {
		out[c.ConfigName] = configDesc{Value: c.ConfigValue, Source: kmsg.ConfigSource(c.ConfigSource).String()}
	}
	return out, nil
}
