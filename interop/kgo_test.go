package interop

import (
	"context"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/partitioner"
)

// kgoDriver is franz-go: kgo for producing and consuming, kadm for the
// groups and their offsets.
type kgoDriver struct{ lc *liveCluster }

func (d kgoDriver) produce(ctx context.Context, t *testing.T, topic, acks string, recs []rec) ([]rec, error) {
	opts := []kgo.Opt{kgo.DefaultProduceTopic(topic), kgo.ClientID("kgo-acks-" + acks)}
	if acks == "1" {
		opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
	}
	cl := d.lc.kgoClient(t, opts...) // acks=all and idempotent by default
	var out []rec
	for _, r := range recs {
		kr := &kgo.Record{Key: r.Key, Value: r.Value}
		if err := cl.ProduceSync(ctx, kr).FirstErr(); err != nil {
			return out, fmt.Errorf("record %s: %w", r, err)
		}
		out = append(out, rec{Key: kr.Key, Value: kr.Value, Partition: kr.Partition, Offset: kr.Offset})
	}
	return out, nil
}

func (d kgoDriver) poll(ctx context.Context, t *testing.T, cl *kgo.Client, n int) ([]rec, error) {
	var out []rec
	for len(out) < n {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("read %d of %d: %w", len(out), n, err)
		}
		fs.EachError(func(topic string, p int32, err error) { t.Logf("fetch %s-%d: %v", topic, p, err) })
		fs.EachRecord(func(r *kgo.Record) {
			out = append(out, rec{Key: r.Key, Value: r.Value, Partition: r.Partition, Offset: r.Offset})
		})
	}
	return out, nil
}

func (d kgoDriver) consumePlain(ctx context.Context, t *testing.T, topic string, partitions int32, n int) ([]rec, error) {
	cl := d.lc.kgoClient(t, kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.ClientID("kgo-plain"))
	return d.poll(ctx, t, cl, n)
}

func (d kgoDriver) consumeGroup(ctx context.Context, t *testing.T, topic, group string, n int) ([]rec, error) {
	cl := d.lc.kgoClient(t, kgo.ConsumeTopics(topic), kgo.ConsumerGroup(group), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.DisableAutoCommit(), kgo.ClientID("kgo-group"))
	got, err := d.poll(ctx, t, cl, n)
	if err != nil {
		return got, err
	}
	if err := cl.CommitUncommittedOffsets(ctx); err != nil {
		return got, fmt.Errorf("commit: %w", err)
	}
	cl.Close() // leaves the group
	return got, nil
}

func (d kgoDriver) admin(t *testing.T) *kadm.Client { return kadm.NewClient(d.lc.kgoClient(t)) }

func (d kgoDriver) deleteGroup(ctx context.Context, t *testing.T, group string) error {
	resps, err := d.admin(t).DeleteGroups(ctx, group)
	if err != nil {
		return err
	}
	return resps.Error()
}

func (d kgoDriver) addPartitions(ctx context.Context, t *testing.T, topic string, count int32) error {
	resps, err := d.admin(t).UpdatePartitions(ctx, int(count), topic)
	if err != nil {
		return err
	}
	return resps.Error()
}

// alterConfigs is kadm's AlterTopicConfigs, an IncrementalAlterConfigs
// request (AlterTopicConfigsState would send the legacy AlterConfigs).
func (d kgoDriver) alterConfigs(ctx context.Context, t *testing.T, topic string, ops []cluster.ConfigOp) (string, error) {
	var acs []kadm.AlterConfig
	for _, o := range ops {
		ac := kadm.AlterConfig{Name: o.Name, Value: o.Value}
		switch o.Op {
		case cluster.ConfigSet:
			ac.Op = kadm.SetConfig
		case cluster.ConfigDelete:
			ac.Op = kadm.DeleteConfig
		case cluster.ConfigAppend:
			ac.Op = kadm.AppendConfig
		case cluster.ConfigSubtract:
			ac.Op = kadm.SubtractConfig
		default:
			return "", fmt.Errorf("kadm has no operation %s", o.Op)
		}
		acs = append(acs, ac)
	}
	resps, err := d.admin(t).AlterTopicConfigs(ctx, acs, topic)
	if err != nil {
		return "", err
	}
	r, err := resps.On(topic, nil)
	if err != nil {
		return "", err
	}
	if r.Err != nil {
		return "", fmt.Errorf("%s: %w: %s", topic, r.Err, r.ErrMessage)
	}
	return incrementalAlterConfigs, nil
}

// describeConfigs is kadm's DescribeTopicConfigs.
func (d kgoDriver) describeConfigs(ctx context.Context, t *testing.T, topic string) (map[string]configDesc, error) {
	rcs, err := d.admin(t).DescribeTopicConfigs(ctx, topic)
	if err != nil {
		return nil, err
	}
	rc, err := rcs.On(topic, nil)
	if err != nil {
		return nil, err
	}
	if rc.Err != nil {
		return nil, fmt.Errorf("%s: %w: %s", topic, rc.Err, rc.ErrMessage)
	}
	out := map[string]configDesc{}
	for _, c := range rc.Configs {
		out[c.Key] = configDesc{Value: c.MaybeValue(), Source: c.Source.String()}
	}
	return out, nil
}

func (d kgoDriver) committed(ctx context.Context, t *testing.T, group, topic string, _ int32) (map[int32]int64, error) {
	os, err := d.admin(t).FetchOffsets(ctx, group)
	if err != nil {
		return nil, err
	}
	if err := os.Error(); err != nil {
		return nil, err
	}
	out := map[int32]int64{}
	for p, o := range os[topic] {
		out[p] = o.At
	}
	return out, nil
}

func (d kgoDriver) listGroups(ctx context.Context, t *testing.T) ([]string, error) {
	gs, err := d.admin(t).ListGroups(ctx)
	if err != nil {
		return nil, err
	}
	return gs.Groups(), nil
}

func (d kgoDriver) describeGroup(ctx context.Context, t *testing.T, group string) (groupDesc, error) {
	gs, err := d.admin(t).DescribeGroups(ctx, group)
	if err != nil {
		return groupDesc{}, err
	}
	g, ok := gs[group]
	if !ok {
		return groupDesc{}, fmt.Errorf("%s not described: %v", group, gs.Names())
	}
	return groupDesc{State: g.State, ProtocolType: g.ProtocolType, Members: len(g.Members)}, g.Err
}

// murmur2 is the Java client's default partitioner for keyed records
// (Utils.murmur2, toPositive, modulo), partitioner.Partition.
var murmur2 = partitionRule{"murmur2 (partitioner.Partition)", func(key []byte, n int32) int32 {
	p, err := partitioner.Partition(key, n)
	if err != nil {
		panic(err) // n > 0 here
	}
	return p
}}

// TestKgo: franz-go's kgo and kadm. kgo's default partitioner
// (StickyKeyPartitioner with nil hasher: KafkaHasher(murmur2)) is the Java
// client's.
func TestKgo(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 1)
	runSuite(t, lc, "kgo", kgoDriver{lc}, murmur2)
}
