package cluster_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// clientClockMs is the clock's start of the worlds real clients' batches
// are sent to: the day those batches are stamped (1_700_000_000_000,
// 2023-11-14), as a served world's clock starts at the wall clock's time
// (under Kafka 4's rules, a record an hour ahead of the clock is refused).
const clientClockMs = 1_700_000_000_000

// extWorld is a three-broker modern world with topic t (one partition on
// 1, 2, 3) and min.insync.replicas 2, quiet.
func extWorld(t *testing.T) *cluster.World {
	t.Helper()
	w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: 3, MinInsyncReplicas: 2, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.RunFor(500))
	return w
}

// ask sends req from client 1 to broker and returns the answer, after
// running the world up to ms for it.
func ask[R kmsg.Response](t *testing.T, w *cluster.World, broker int32, req kmsg.Request, ms int64) R {
	t.Helper()
	id, err := w.External(cluster.ExternalRequest{Client: 1, ClientID: "test", Broker: broker, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
	require.NoError(t, err)
	for waited := int64(0); ; waited += 10 {
		for _, a := range w.ExternalAnswers() {
			if a.ID == id {
				return a.Response.(R)
			}
		}
		require.Less(t, waited, ms, "no answer to %s", kmsg.NameForKey(req.Key()))
		require.NoError(t, w.RunFor(10))
	}
}

// clientBatch is a producer's batch: three keyed records with a header,
// gzip, producer id 10000 epoch 0 from sequence seq.
func clientBatch(seq int32) []byte {
	var b kafkalog.RecordBatch
	b.Attributes = b.Attributes.WithCompression(kafkalog.CompressionGzip)
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, 10000, 0, seq
	for i := range 3 {
		b.AppendRecord(int64(i), 1_700_000_000_000+int64(i), []byte{'k', byte('a' + i)}, []byte("value"), kafkalog.Header{Key: []byte("h"), Value: []byte{byte(i)}})
	}
	return b.AppendTo(nil)
}

func produceReq(acks int16, batch []byte) *kmsg.ProduceRequest {
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(9)
	req.Acks, req.TimeoutMillis = acks, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = "t"
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Records = batch
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	return req
}

func fetchReq(offset int64, epoch int32) *kmsg.FetchRequest {
	req := kmsg.NewPtrFetchRequest()
	req.SetVersion(12)
	req.MaxBytes, req.MaxWaitMillis, req.MinBytes, req.SessionEpoch = 1<<20, 0, 1, -1
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic = "t"
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.FetchOffset, rp.PartitionMaxBytes, rp.CurrentLeaderEpoch = offset, 1<<20, epoch
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	return req
}

type partResult struct {
	Code       int16
	BaseOffset int64
}

func produced(r *kmsg.ProduceResponse) partResult {
	p := r.Topics[0].Partitions[0]
	return partResult{p.ErrorCode, p.BaseOffset}
}

// TestExternalProduceKeepsTheClientsBytes: a client's gzip batch with
// headers and producer fields, acks=all, is stored by the leader and both
// followers as it was sent, only the base offset and the leader epoch
// stamped; a fetch returns those bytes; a retry of the same sequence is
// answered with the first offset and not written again; a batch whose CRC
// fails is CORRUPT_MESSAGE.
func TestExternalProduceKeepsTheClientsBytes(t *testing.T) {
	w := extWorld(t)
	batch := clientBatch(0)
	got := produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, batch), 2000))
	require.Equal(t, partResult{0, 0}, got)

	want := append([]byte(nil), batch...)
	binary.BigEndian.PutUint64(want, 0)      // base offset 0
	binary.BigEndian.PutUint32(want[12:], 0) // leader epoch 0
	for id := int32(1); id <= 3; id++ {
		fsys, err := w.BrokerFS(id)
		require.NoError(t, err)
		f, err := fsys.Open(cluster.LogDir + "/t-0/00000000000000000000.log")
		require.NoError(t, err)
		data := make([]byte, len(want)+100)
		n, err := f.ReadAt(data, 0)
		require.ErrorIs(t, err, io.EOF)
		data = data[:n]
		require.NoError(t, f.Close())
		if diff := cmp.Diff(want, data); diff != "" {
			t.Errorf("broker %d's log (-want +got):\n%s", id, diff)
		}
	}
	f := ask[*kmsg.FetchResponse](t, w, 1, fetchReq(0, 0), 100)
	fp := f.Topics[0].Partitions[0]
	if diff := cmp.Diff(want, fp.RecordBatches); diff != "" {
		t.Errorf("fetched bytes (-want +got):\n%s", diff)
	}
	require.Equal(t, []int64{3, 3, 0}, []int64{fp.HighWatermark, fp.LastStableOffset, fp.LogStartOffset})

	// the retry: same producer id, epoch and sequence
	require.Equal(t, partResult{0, 0}, produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, clientBatch(0)), 2000)))
	require.Equal(t, partResult{0, 3}, produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(1, clientBatch(3)), 2000)))

	bad := clientBatch(6)
	bad[len(bad)-1] ^= 0xff
	require.Equal(t, partResult{2, -1}, produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, bad), 2000)))
	require.Empty(t, w.InternalErrors())
}

// TestExternalErrors: the answers Kafka gives a client that asks the wrong
// broker, a fenced or future epoch, an offset out of range, acks=all with
// too few in-sync replicas.
func TestExternalErrors(t *testing.T) {
	w := extWorld(t)
	require.Equal(t, partResult{0, 0}, produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, clientBatch(0)), 2000)))
	fetchCode := func(broker int32, offset int64, epoch int32, version int16) int16 {
		req := fetchReq(offset, epoch)
		req.SetVersion(version)
		return ask[*kmsg.FetchResponse](t, w, broker, req, 100).Topics[0].Partitions[0].ErrorCode
	}
	tests := []struct {
		name    string
		broker  int32
		offset  int64
		epoch   int32
		version int16
		want    int16
	}{
		{"the leader answers", 1, 0, 0, 12, 0},
		{"a follower before v11 is NOT_LEADER_OR_FOLLOWER", 2, 0, 0, 10, 6},
		{"a follower serves a consumer from v11 (KIP-392)", 2, 0, 0, 11, 0},
		{"past the log end is OFFSET_OUT_OF_RANGE", 1, 4, 0, 12, 1},
		{"below the log start is OFFSET_OUT_OF_RANGE", 1, -1, 0, 12, 1},
		{"a future epoch is UNKNOWN_LEADER_EPOCH", 1, 0, 5, 12, 75},
		{"no epoch skips the check", 1, 0, -1, 12, 0},
		{"any negative epoch is none for a fetch (FetchRequest.optionalEpoch)", 1, 0, -7, 12, 0},
	}
	for _, tt := range tests {
		if got := fetchCode(tt.broker, tt.offset, tt.epoch, tt.version); got != tt.want {
			t.Errorf("%s: got error %d, want %d", tt.name, got, tt.want)
		}
	}
	require.NoError(t, w.Kill(2))
	require.NoError(t, w.Kill(3))
	require.NoError(t, w.RunFor(40_000))
	require.Equal(t, int16(19), produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, clientBatch(3)), 2000)).Code, "NOT_ENOUGH_REPLICAS")
	require.Empty(t, w.InternalErrors())
}

// TestExternalMetadataAndAdmin: Metadata lists the brokers and topics, a
// created topic shows up with its assignment and can be deleted.
func TestExternalMetadataAndAdmin(t *testing.T) {
	w := extWorld(t)
	md := kmsg.NewPtrMetadataRequest()
	md.SetVersion(12)
	m := ask[*kmsg.MetadataResponse](t, w, 2, md, 10)
	var brokers []int32
	for _, b := range m.Brokers {
		brokers = append(brokers, b.NodeID)
	}
	require.Equal(t, []int32{1, 2, 3}, brokers)
	require.Len(t, m.Topics, 1)
	require.Equal(t, "t", *m.Topics[0].Topic)

	ct := kmsg.NewPtrCreateTopicsRequest()
	ct.SetVersion(5)
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = "new", 3, 2
	ct.Topics = append(ct.Topics, rt)
	cr := ask[*kmsg.CreateTopicsResponse](t, w, 1, ct, 10)
	require.Equal(t, int16(0), cr.Topics[0].ErrorCode)
	require.Equal(t, int16(36), ask[*kmsg.CreateTopicsResponse](t, w, 1, ct, 10).Topics[0].ErrorCode, "TOPIC_ALREADY_EXISTS")
	var got [][]int32
	for _, p := range w.TopicPartitions("new") {
		got = append(got, p.Replicas)
	}
	require.Equal(t, [][]int32{{1, 2}, {2, 3}, {3, 1}}, got)

	dt := kmsg.NewPtrDeleteTopicsRequest()
	dt.SetVersion(4)
	dt.TopicNames = []string{"new", "nope"}
	dr := ask[*kmsg.DeleteTopicsResponse](t, w, 1, dt, 10)
	require.Equal(t, []int16{0, 3}, []int16{dr.Topics[0].ErrorCode, dr.Topics[1].ErrorCode})
	require.Empty(t, w.TopicPartitions("new"))
	require.NoError(t, w.RunFor(1000))
	require.Empty(t, w.InternalErrors())
}

// TestExternalMetadataAutoCreatesTopics: a Metadata request for a topic
// that does not exist creates it, as a Kafka 3.7 broker with its default
// auto.create.topics.enable does (AutoTopicCreationManager): that answer
// is UNKNOWN_TOPIC_OR_PARTITION, the next one has the topic with
// num.partitions and default.replication.factor (1 and 1). Only when the
// request allows it (always before v4) and the brokers do; a name that is
// not legal is INVALID_TOPIC_EXCEPTION and creates nothing.
func TestExternalMetadataAutoCreatesTopics(t *testing.T) {
	metadata := func(w *cluster.World, version int16, allow bool, topics ...string) map[string]*kmsg.MetadataResponseTopic {
		t.Helper()
		req := kmsg.NewPtrMetadataRequest()
		req.SetVersion(version)
		req.AllowAutoTopicCreation = allow
		for _, name := range topics {
			rt := kmsg.NewMetadataRequestTopic()
			rt.Topic = kmsg.StringPtr(name)
			req.Topics = append(req.Topics, rt)
		}
		out := map[string]*kmsg.MetadataResponseTopic{}
		resp := ask[*kmsg.MetadataResponse](t, w, 2, req, 10)
		for i := range resp.Topics {
			out[*resp.Topics[i].Topic] = &resp.Topics[i]
		}
		return out
	}
	for _, tt := range []struct {
		name    string
		version int16
		allow   bool
		disable bool
		created bool
	}{
		{"v12 allowing creation", 12, true, false, true},
		{"v12 not allowing it", 12, false, false, false},
		{"v3, which always allows it", 3, false, false, true},
		{"v1, which always allows it", 1, false, false, true},
		{"v12, the brokers' auto.create.topics.enable=false", 12, true, true, false},
		{"v3, the brokers' auto.create.topics.enable=false", 3, true, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: 3, MinInsyncReplicas: 2, Rules: replica.Modern, DisableAutoCreateTopics: tt.disable})
			require.NoError(t, err)
			require.NoError(t, w.RunFor(500))
			// the brokers say what they do
			dc := kmsg.NewPtrDescribeConfigsRequest()
			dc.SetVersion(4)
			r := kmsg.NewDescribeConfigsRequestResource()
			r.ResourceType, r.ResourceName, r.ConfigNames = kmsg.ConfigResourceTypeBroker, "2", []string{"auto.create.topics.enable"}
			dc.Resources = append(dc.Resources, r)
			got := ask[*kmsg.DescribeConfigsResponse](t, w, 2, dc, 10).Resources[0].Configs
			require.Len(t, got, 1)
			wantSource := kmsg.ConfigSourceDefaultConfig
			if tt.disable {
				wantSource = kmsg.ConfigSourceStaticBrokerConfig
			}
			require.Equal(t, fmt.Sprint(!tt.disable), *got[0].Value)
			require.Equal(t, wantSource, got[0].Source)

			first := metadata(w, tt.version, tt.allow, "fresh", "bad name!", "..")
			require.Equal(t, int16(3), first["fresh"].ErrorCode, "UNKNOWN_TOPIC_OR_PARTITION while the controller creates it")
			require.Empty(t, first["fresh"].Partitions)
			for _, bad := range []string{"bad name!", ".."} {
				require.Equal(t, int16(17), first[bad].ErrorCode, "INVALID_TOPIC_EXCEPTION")
				require.Empty(t, w.TopicPartitions(bad))
			}
			require.NoError(t, w.RunFor(100))
			again := metadata(w, tt.version, false, "fresh")["fresh"]
			if !tt.created {
				require.Equal(t, int16(3), again.ErrorCode)
				require.Empty(t, w.TopicPartitions("fresh"))
				return
			}
			require.Equal(t, int16(0), again.ErrorCode)
			require.Len(t, again.Partitions, cluster.DefaultNumPartitions)
			require.Len(t, again.Partitions[0].Replicas, cluster.DefaultReplicationFactor)
			require.Equal(t, again.Partitions[0].Replicas[0], again.Partitions[0].Leader)
			// and a producer's records land in it
			produce := kmsg.NewPtrProduceRequest()
			produce.SetVersion(9)
			produce.Acks, produce.TimeoutMillis = -1, 5000
			pt := kmsg.NewProduceRequestTopic()
			pt.Topic = "fresh"
			pp := kmsg.NewProduceRequestTopicPartition()
			pp.Records = clientBatch(1)
			pt.Partitions = append(pt.Partitions, pp)
			produce.Topics = append(produce.Topics, pt)
			pr := ask[*kmsg.ProduceResponse](t, w, again.Partitions[0].Leader, produce, 2000)
			require.Equal(t, int16(0), pr.Topics[0].Partitions[0].ErrorCode, "acks=all on one replica: 3.7's effective min ISR is min(min.insync.replicas, replication factor)")
			require.Empty(t, w.InternalErrors())
		})
	}
}

// TestExternalDescribeConfigs: a topic's configs come with their values
// and sources (the world's min.insync.replicas=2 is a broker setting, a
// topic's own retention.ms is DYNAMIC_TOPIC_CONFIG); an unknown topic is
// UNKNOWN_TOPIC_OR_PARTITION.
func TestExternalDescribeConfigs(t *testing.T) {
	w := extWorld(t)
	ct := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = "short", 1, 3
	rt.Configs = []kmsg.CreateTopicsRequestTopicConfig{{Name: "retention.ms", Value: kmsg.StringPtr("60000")}}
	ct.Topics = append(ct.Topics, rt)
	require.Equal(t, int16(0), ask[*kmsg.CreateTopicsResponse](t, w, 1, ct, 10).Topics[0].ErrorCode)

	req := kmsg.NewPtrDescribeConfigsRequest()
	req.SetVersion(4)
	for _, name := range []string{"short", "nope"} {
		r := kmsg.NewDescribeConfigsRequestResource()
		r.ResourceType, r.ResourceName, r.ConfigNames = kmsg.ConfigResourceTypeTopic, name, []string{"retention.ms", "min.insync.replicas", "cleanup.policy"}
		req.Resources = append(req.Resources, r)
	}
	resp := ask[*kmsg.DescribeConfigsResponse](t, w, 2, req, 10)
	type entry struct {
		Name, Value string
		Source      kmsg.ConfigSource
	}
	var got []entry
	for _, c := range resp.Resources[0].Configs {
		got = append(got, entry{c.Name, *c.Value, c.Source})
	}
	want := []entry{
		{"cleanup.policy", "delete", kmsg.ConfigSourceDefaultConfig},
		{"min.insync.replicas", "2", kmsg.ConfigSourceStaticBrokerConfig},
		{"retention.ms", "60000", kmsg.ConfigSourceDynamicTopicConfig},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("configs of short (-want +got):\n%s", diff)
	}
	require.Equal(t, int16(3), resp.Resources[1].ErrorCode)
}

// TestExternalBatchLargerThanASegment: a batch larger than segment.bytes
// (but within max.message.bytes) is RECORD_LIST_TOO_LARGE, and the broker
// goes on (kgo sends such batches after an outage).
func TestExternalBatchLargerThanASegment(t *testing.T) {
	log := cluster.DefaultLogConfig()
	log.SegmentBytes = 4096
	w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: 3, MinInsyncReplicas: 2, Rules: replica.Modern, Log: log})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.RunFor(500))
	var b kafkalog.RecordBatch
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
	for i := range 100 {
		b.AppendRecord(int64(i), 1, nil, make([]byte, 100))
	}
	require.Equal(t, partResult{18, -1}, produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, b.AppendTo(nil)), 100)))
	require.Equal(t, partResult{0, 0}, produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, clientBatch(0)), 2000)))
	require.Empty(t, w.InternalErrors())
}

// TestExternalProduceOffsetsOutOfOrder: a compressed batch whose records'
// offset deltas are not 0, 1, 2... is written anew by the leader, the same
// records (keys, values, headers, timestamps) at offsets in order, in a
// batch of the same compression and producer fields, as Kafka's
// LogValidator does (0.11-2.3 and 2.6+; 3.7's
// buildRecordsAndAssignOffsets), and every
// replica holds that batch; an uncompressed one is INVALID_RECORD (Kafka
// stores it as it is, its records at repeated offsets; the simulation
// keeps a log's offsets increasing) and nothing of it is appended.
func TestExternalProduceOffsetsOutOfOrder(t *testing.T) {
	batch := func(c kafkalog.Compression, seq int32, deltas ...int32) []byte {
		var b kafkalog.RecordBatch
		b.Attributes = b.Attributes.WithCompression(c)
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = 10000, 0, seq
		for i := range deltas {
			b.AppendRecord(int64(i), 1_700_000_000_000+int64(7*(2-i)), []byte{'k', byte('0' + i)}, []byte{'v', byte('0' + i)}, kafkalog.Header{Key: []byte("h"), Value: []byte{byte(i)}})
		}
		for i, d := range deltas {
			b.Records[i].OffsetDelta = d // as a faulty client writes them
		}
		return b.AppendTo(nil)
	}
	w := extWorld(t)
	resp := ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, batch(kafkalog.CompressionNone, 0, 0, 2, 2)), 5000)
	p := resp.Topics[0].Partitions[0]
	require.Equal(t, int16(87), p.ErrorCode, "uncompressed, offsets 0, 2, 2: INVALID_RECORD")
	require.NotNil(t, p.ErrorMessage)
	require.Contains(t, *p.ErrorMessage, "offset")
	require.Equal(t, int64(0), w.State().Partitions[0].LogEndOffset, "nothing appended")

	for i, c := range []kafkalog.Compression{kafkalog.CompressionGzip, kafkalog.CompressionSnappy, kafkalog.CompressionLZ4, kafkalog.CompressionZstd} {
		sent := batch(c, int32(3*i), 0, 2, 2)
		resp := ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, sent), 5000)
		require.Equal(t, partResult{0, int64(3 * i)}, produced(resp), "%v, offsets 0, 2, 2: written anew", c)
		var dec kafkalog.Decoder
		var in, stored kafkalog.RecordBatch
		_, err := dec.Decode(sent, &in)
		require.NoError(t, err)
		for broker := int32(1); broker <= 3; broker++ {
			req := fetchReq(int64(3*i), -1)
			req.SetVersion(10)
			fetched := ask[*kmsg.FetchResponse](t, w, broker, req, 5000).Topics[0].Partitions[0]
			if broker != 1 {
				require.Equal(t, int16(6), fetched.ErrorCode, "before v11 only the leader answers a consumer's fetch")
				continue
			}
			require.Equal(t, int16(0), fetched.ErrorCode)
			_, err = dec.Decode(fetched.RecordBatches, &stored)
			require.NoError(t, err, "%v: the batch written anew", c)
			require.Equal(t, c, stored.Attributes.Compression())
			require.Equal(t, int64(3*i), stored.BaseOffset)
			require.Equal(t, [3]any{in.ProducerID, in.ProducerEpoch, in.BaseSequence}, [3]any{stored.ProducerID, stored.ProducerEpoch, stored.BaseSequence})
			require.Len(t, stored.Records, 3)
			for j := range stored.Records {
				r, want := stored.Records[j], in.Records[j]
				require.Equal(t, int32(j), r.OffsetDelta, "%v: record %d", c, j)
				require.Equal(t, in.Timestamp(&want), stored.Timestamp(&r))
				require.Equal(t, [2]string{string(want.Key), string(want.Value)}, [2]string{string(r.Key), string(r.Value)})
				require.Equal(t, want.Headers, r.Headers)
			}
			require.Equal(t, int64(1_700_000_000_014), stored.MaxTimestamp)
		}
	}
	require.NoError(t, w.RunFor(1000))
	require.Empty(t, w.InternalErrors())
}

// TestExternalProduceRecordErrors: the leader checks each record of a
// client's batch as Kafka 3.7's LogValidator.validateRecord does and
// refuses the batch, nothing of it appended, with one error record for
// each record refused and Kafka's messages: a record without a key in a
// compacted topic (INVALID_RECORD); a CreateTime timestamp further from
// the leader's clock than message.timestamp.before.max.ms or after.max.ms,
// or than difference.max.ms standing in for either at its default
// (INVALID_TIMESTAMP); a batch that says LogAppendTime to a LogAppendTime
// topic (INVALID_TIMESTAMP). Records within the bounds, -1 timestamps
// included, are taken.
func TestExternalProduceRecordErrors(t *testing.T) {
	w := extWorld(t)
	require.NoError(t, w.RunFor(10_000))
	created := createTopics(t, w, 3, map[string][]string{
		"compacted":  {"cleanup.policy", "compact"},
		"bounded":    {"message.timestamp.before.max.ms", "1000", "message.timestamp.after.max.ms", "2000"},
		"difference": {"message.timestamp.difference.max.ms", "1000", "message.timestamp.after.max.ms", "5000"},
		"appendtime": {"message.timestamp.type", "LogAppendTime"},
	})
	for name, got := range created {
		require.Equal(t, "0 ", got, name)
	}
	require.NoError(t, w.RunFor(1000))
	type rec struct {
		key []byte
		ts  int64 // from the leader's clock
	}
	batch := func(now int64, tt kafkalog.TimestampType, recs ...rec) []byte {
		var b kafkalog.RecordBatch
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
		for i, r := range recs {
			ts := r.ts
			if ts != -1 {
				ts += now
			}
			b.AppendRecord(int64(i), ts, r.key, []byte("vv"))
		}
		raw := b.AppendTo(nil)
		if tt == kafkalog.LogAppendTime {
			require.NoError(t, kafkalog.SetMaxTimestamp(raw, tt, now))
		}
		return raw
	}
	k := []byte("k")
	type answer struct {
		Code    int16
		Message string
		Records map[int32]string
		Took    int64
	}
	compactMsg := "Compacted topic cannot accept message without key in topic partition compacted-0."
	outOfRange := func(ts, offset, lo, hi int64) string {
		return fmt.Sprintf("Timestamp %d of message with offset %d is out of range. The timestamp should be within [%d, %d]", ts, offset, lo, hi)
	}
	cases := []struct {
		name, topic string
		tt          kafkalog.TimestampType
		recs        []rec
		want        func(now int64) answer
	}{
		{"null keys in a compacted topic", "compacted", kafkalog.CreateTime, []rec{{k, 0}, {nil, 0}, {k, 0}, {nil, 0}}, func(int64) answer {
			return answer{87, "One or more records have been rejected due to 2 record errors in total, and only showing the first three errors at most: [RecordError(batchIndex=1, message='" + compactMsg + "'), RecordError(batchIndex=3, message='" + compactMsg + "')]",
				map[int32]string{1: compactMsg, 3: compactMsg}, 0}
		}},
		{"keys in a compacted topic", "compacted", kafkalog.CreateTime, []rec{{k, 0}, {k, 0}}, func(int64) answer { return answer{0, "", map[int32]string{}, 2} }},
		{"timestamps out of bounds", "bounded", kafkalog.CreateTime, []rec{{k, 0}, {k, -1001}, {k, 2001}, {k, -1}, {k, -1000}}, func(now int64) answer {
			return answer{32, "One or more records have been rejected due to invalid timestamp", map[int32]string{
				1: outOfRange(now-1001, 1, now-1000, now+2000),
				2: outOfRange(now+2001, 2, now-1000, now+2000),
			}, 0}
		}},
		{"timestamps within bounds", "bounded", kafkalog.CreateTime, []rec{{k, -1000}, {k, 2000}, {k, -1}}, func(int64) answer { return answer{0, "", map[int32]string{}, 3} }},
		{"difference.max.ms for before.max.ms", "difference", kafkalog.CreateTime, []rec{{k, -1001}, {k, 4000}}, func(now int64) answer {
			return answer{32, "One or more records have been rejected due to invalid timestamp", map[int32]string{0: outOfRange(now-1001, 0, now-1000, now+5000)}, 0}
		}},
		{"LogAppendTime from a producer", "appendtime", kafkalog.LogAppendTime, []rec{{k, 5}}, func(now int64) answer {
			return answer{32, "One or more records have been rejected due to invalid timestamp", map[int32]string{
				0: fmt.Sprintf("Invalid timestamp type in message DefaultRecord(offset=0, timestamp=%d, key=1 bytes, value=2 bytes). Producer should not set timestamp type to LogAppendTime.", now),
			}, 0}
		}},
		{"CreateTime to a LogAppendTime topic", "appendtime", kafkalog.CreateTime, []rec{{k, 5}}, func(int64) answer { return answer{0, "", map[int32]string{}, 1} }},
	}
	for _, c := range cases {
		end := func() int64 {
			for _, p := range w.State().Partitions {
				if p.Topic == c.topic {
					return p.LogEndOffset
				}
			}
			return -1
		}
		before, now := end(), w.ClockMs() // the leader takes the request at once, on its clock
		req := produceReq(-1, batch(now, c.tt, c.recs...))
		req.Topics[0].Topic = c.topic
		rp := ask[*kmsg.ProduceResponse](t, w, 1, req, 5000).Topics[0].Partitions[0]
		got := answer{Code: rp.ErrorCode, Records: map[int32]string{}}
		if rp.ErrorMessage != nil {
			got.Message = *rp.ErrorMessage
		}
		for _, e := range rp.ErrorRecords {
			got.Records[e.RelativeOffset] = *e.ErrorMessage
		}
		require.NoError(t, w.RunFor(100))
		got.Took = end() - before
		if diff := cmp.Diff(c.want(now), got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
	require.Empty(t, w.InternalErrors())
}

// TestExternalProduceBatchErrors: a client's batch that passes its CRC but
// that Kafka 3.7's LogValidator refuses is answered as Kafka answers it,
// and nothing of it is appended: a header whose offsets and record count
// disagree, a control batch, an idempotent producer's batch without a
// sequence number, and records that do not parse are INVALID_RECORD; a
// compressed stream the codec refuses is UNKNOWN_SERVER_ERROR (a
// KafkaException in Kafka); none carries a message. A CRC that does not
// hold is CORRUPT_MESSAGE.
func TestExternalProduceBatchErrors(t *testing.T) {
	w := extWorld(t)
	good := func(c kafkalog.Compression) kafkalog.RecordBatch {
		var b kafkalog.RecordBatch
		b.Attributes = b.Attributes.WithCompression(c)
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = 40000, 0, 0
		for i := range 3 {
			b.AppendRecord(int64(i), 1_700_000_000_000, []byte("k"), []byte("a value, a value, a value"))
		}
		return b
	}
	crc := func(raw []byte) []byte {
		binary.BigEndian.PutUint32(raw[17:], kafkalog.CRC32C(raw[21:]))
		return raw
	}
	edit := func(c kafkalog.Compression, f func(*kafkalog.RecordBatch)) []byte {
		b := good(c)
		f(&b)
		return b.AppendTo(nil)
	}
	garbled := edit(kafkalog.CompressionGzip, func(*kafkalog.RecordBatch) {})
	for i := kafkalog.BatchHeaderLen; i < len(garbled); i++ {
		garbled[i] = 0xff
	}
	miscounted := edit(kafkalog.CompressionNone, func(*kafkalog.RecordBatch) {})
	binary.BigEndian.PutUint32(miscounted[57:], 4) // records count
	binary.BigEndian.PutUint32(miscounted[23:], 3) // lastOffsetDelta, so that the header agrees with itself
	badCRC := edit(kafkalog.CompressionNone, func(*kafkalog.RecordBatch) {})
	badCRC[len(badCRC)-1] ^= 1
	cases := []struct {
		name string
		raw  []byte
		code int16
	}{
		{"lastOffsetDelta -1", edit(kafkalog.CompressionNone, func(b *kafkalog.RecordBatch) { b.LastOffsetDelta = -1 }), 87},
		{"offsets span 5, 3 records", edit(kafkalog.CompressionNone, func(b *kafkalog.RecordBatch) { b.LastOffsetDelta = 4 }), 87},
		{"a control batch", edit(kafkalog.CompressionNone, func(b *kafkalog.RecordBatch) {
			b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, false, true)
		}), 87},
		{"producer id without a sequence", edit(kafkalog.CompressionNone, func(b *kafkalog.RecordBatch) { b.BaseSequence = -1 }), 87},
		{"4 records declared, 3 there", crc(miscounted), 87},
		{"a gzip stream gzip refuses", crc(garbled), -1},
		{"a CRC that does not hold", badCRC, 2},
	}
	for _, c := range cases {
		rp := ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, c.raw), 5000).Topics[0].Partitions[0]
		require.Equal(t, c.code, rp.ErrorCode, c.name)
		require.Nil(t, rp.ErrorMessage, "%s: Kafka sends no message", c.name)
		require.Equal(t, int64(-1), rp.BaseOffset, c.name)
	}
	require.NoError(t, w.RunFor(500))
	require.Equal(t, int64(0), w.State().Partitions[0].LogEndOffset, "nothing appended")
	rp := ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, edit(kafkalog.CompressionGzip, func(*kafkalog.RecordBatch) {})), 5000).Topics[0].Partitions[0]
	require.Equal(t, partResult{0, 0}, partResult{rp.ErrorCode, rp.BaseOffset}, "the good batch")
	require.Empty(t, w.InternalErrors())
}

// TestNewTopicSpec: the checks of a client's CreateTopics, for the
// terminal's kafka-topics --create: a spec the world then creates, or
// Kafka's message with ErrTopicExists or ErrInvalidConfig.
func TestNewTopicSpec(t *testing.T) {
	w := extWorld(t)
	spec, err := w.NewTopicSpec("made", 2, 3, [][2]string{{"retention.ms", "60000"}})
	require.NoError(t, err)
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCreateTopic, Topic: spec}))
	require.Len(t, w.TopicPartitions("made"), 2)
	_, err = w.NewTopicSpec("made", -1, -1, nil)
	require.ErrorIs(t, err, cluster.ErrTopicExists)
	require.EqualError(t, err, "Topic 'made' already exists.")
	for _, c := range []struct {
		name       string
		partitions int
		rf         int
		configs    [][2]string
		want       string
	}{
		{"x", -5, -1, nil, "Number of partitions was set to an invalid non-positive value."},

		{"x", -1, -7, nil, "Replication factor must be larger than 0, or -1 to use the default value."},
		{"x", -1, 4, nil, "Unable to replicate the partition 4 time(s): The target replication factor of 4 cannot be reached because only 3 broker(s) are registered."},
		{"x y", -1, -1, nil, `Topic name is invalid: 'x y' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'`},
		{"x", -1, -1, [][2]string{{"retention.ms", "soon"}}, "Invalid value soon for configuration retention.ms: Not a number of type LONG"},
	} {
		_, err := w.NewTopicSpec(c.name, c.partitions, c.rf, c.configs)
		if c.want == "" {
			continue
		}
		require.ErrorIs(t, err, cluster.ErrInvalidConfig, c.want)
		require.NotErrorIs(t, err, cluster.ErrTopicExists)
		require.EqualError(t, err, c.want)
	}
	// the world's bound on partitions, before any of them is made
	_, err = w.NewTopicSpec("huge", 1<<40, 1, nil)
	require.ErrorIs(t, err, cluster.ErrInvalidConfig)
	require.ErrorContains(t, err, "topic huge: 2147483647 partitions")
	require.ErrorContains(t, err, fmt.Sprintf("the simulated cluster holds at most %d partitions", cluster.MaxPartitions))
	require.Empty(t, w.TopicPartitions("huge"))
}

// TestFetchMaxBytes: a consumer's fetch gets at most the brokers'
// fetch.max.bytes (KafkaApis.handleFetchRequest caps the request's
// MaxBytes with it), whatever its MaxBytes and PartitionMaxBytes ask, but
// for a first batch larger than that, which comes whole; DescribeConfigs
// says the value.
func TestFetchMaxBytes(t *testing.T) {
	const capBytes = 10_000
	w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: 3, MinInsyncReplicas: 2, Rules: replica.Modern, FetchMaxBytes: capBytes})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.RunFor(500))
	batch := func(size int) []byte {
		var b kafkalog.RecordBatch
		b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
		b.AppendRecord(0, w.ClockMs(), []byte("k"), make([]byte, size))
		return b.AppendTo(nil)
	}
	for _, size := range []int{30_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000} {
		require.Equal(t, int16(0), produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, batch(size)), 2000)).Code)
	}
	fetched := func(offset int64) []byte {
		req := fetchReq(offset, -1)
		req.MaxBytes, req.Topics[0].Partitions[0].PartitionMaxBytes = math.MaxInt32, math.MaxInt32
		return ask[*kmsg.FetchResponse](t, w, 1, req, 10).Topics[0].Partitions[0].RecordBatches
	}
	first := fetched(0)
	require.Greater(t, len(first), capBytes, "the first batch comes whole")
	size, _, err := kafkalog.PeekBatch(first)
	require.NoError(t, err)
	require.Equal(t, int64(len(first)), size, "that batch alone")
	require.LessOrEqual(t, len(fetched(1)), capBytes, "the rest stops at fetch.max.bytes")
	require.Greater(t, len(fetched(1)), capBytes-2_100, "and fills it but for the batch cut")

	dc := kmsg.NewPtrDescribeConfigsRequest()
	r := kmsg.NewDescribeConfigsRequestResource()
	r.ResourceType, r.ResourceName, r.ConfigNames = kmsg.ConfigResourceTypeBroker, "1", []string{"fetch.max.bytes"}
	dc.Resources = append(dc.Resources, r)
	got := ask[*kmsg.DescribeConfigsResponse](t, w, 1, dc, 10).Resources[0].Configs
	require.Len(t, got, 1)
	require.Equal(t, "10000", *got[0].Value)
}

// TestAutoCreationStopsAtThePartitionBound: one Metadata request naming
// 500 new topics more than MaxPartitions creates them until the world holds MaxPartitions
// partitions, answers every name UNKNOWN_TOPIC_OR_PARTITION, and says in
// one event, not a thousand, that the rest were not created.
func TestAutoCreationStopsAtThePartitionBound(t *testing.T) {
	w := extWorld(t)
	req := kmsg.NewPtrMetadataRequest()
	req.SetVersion(12)
	req.AllowAutoTopicCreation = true
	n := cluster.MaxPartitions + 500
	for i := range n {
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(fmt.Sprintf("many-%05d", i))
		req.Topics = append(req.Topics, rt)
	}
	events := len(w.Events())
	resp := ask[*kmsg.MetadataResponse](t, w, 1, req, 10)
	require.Len(t, resp.Topics, n)
	for _, mt := range resp.Topics {
		require.Equal(t, int16(3), mt.ErrorCode, *mt.Topic)
	}
	total := 0
	for _, tp := range w.Topics() {
		total += len(tp.Assignment)
	}
	require.Equal(t, cluster.MaxPartitions, total)
	refused := 0
	for _, e := range w.Events()[events:] {
		if strings.Contains(e.Text, "not auto-created") {
			refused++
			require.Contains(t, e.Text, "more")
			require.Contains(t, e.Text, "the simulated cluster holds at most")
		}
	}
	require.Equal(t, 1, refused)
	require.Empty(t, w.InternalErrors())
}
