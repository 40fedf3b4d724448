package cluster_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// A request prepared ahead of the world (cluster.PrepareExternal, as the
// wire layer does on each connection's goroutine) is answered exactly as
// the same request unprepared: two worlds get the same random produces
// (every codec, keys or none, idempotent or not, several partitions, acks
// 0, 1 and all, and damage: a flipped byte, a cut batch, two batches, a
// wrong magic, no records), one prepared and one not, with fetches and
// time between; every answer's bytes and every fetched byte agree.
func TestExternalPreparedAnswersAsUnprepared(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			if err := preparedAgrees(seed, 120); err != nil {
				t.Fatalf("seed %d: %v\nreplay: go test ./cluster -run 'TestExternalPreparedAnswersAsUnprepared/^%d$' -v", seed, err, seed)
			}
		})
	}
}

func preparedAgrees(seed uint64, steps int) error {
	var ws [2]*cluster.World
	for i := range ws {
		w, err := cluster.New(cluster.Config{Seed: seed, MinInsyncReplicas: 2, Rules: replica.Modern})
		if err != nil {
			return err
		}
		if err := w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 3, ReplicationFactor: 3}); err != nil {
			return err
		}
		if err := w.RunFor(1000); err != nil {
			return err
		}
		ws[i] = w
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	codes := map[int16]int{} // produce answers' error codes
	seq := map[int32]int32{}
	send := func(broker int32, req kmsg.Request) error {
		var ids [2]uint64
		for i, w := range ws {
			x := cluster.ExternalRequest{Client: 1, ClientID: "prep", Broker: broker, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)}
			var err error
			if i == 0 {
				ids[i], err = w.External(x)
			} else {
				ids[i], err = w.ExternalPrepared(x, cluster.PrepareExternal(&x))
			}
			if err != nil {
				return fmt.Errorf("world %d: %w", i, err)
			}
		}
		if ids[0] != ids[1] {
			return fmt.Errorf("ids %d and %d", ids[0], ids[1])
		}
		return nil
	}
	compare := func(step int) error {
		a, b := ws[0].ExternalAnswers(), ws[1].ExternalAnswers()
		if len(a) != len(b) {
			return fmt.Errorf("step %d: %d answers unprepared, %d prepared", step, len(a), len(b))
		}
		for i := range a {
			if r, ok := a[i].Response.(*kmsg.ProduceResponse); ok {
				for _, t := range r.Topics {
					for _, p := range t.Partitions {
						codes[p.ErrorCode]++
					}
				}
			}
			x, y := a[i].Response.AppendTo(nil), b[i].Response.AppendTo(nil)
			if a[i].ID != b[i].ID || !bytes.Equal(x, y) {
				return fmt.Errorf("step %d: answer %d to request %d: unprepared %x, prepared %x", step, i, a[i].ID, x, y)
			}
		}
		return nil
	}
	for step := range steps {
		broker := int32(1 + rng.IntN(3))
		switch r := rng.IntN(10); {
		case r < 6:
			req := kmsg.NewPtrProduceRequest()
			req.SetVersion(9)
			req.Acks, req.TimeoutMillis = []int16{0, 1, -1}[rng.IntN(3)], 5000
			rt := kmsg.NewProduceRequestTopic()
			rt.Topic = "t"
			// one partition, most often sent to its leader; sometimes all three
			parts := []int32{int32(rng.IntN(3))}
			if l := ws[0].PartitionLeader("t", parts[0]); l > 0 && rng.IntN(5) > 0 {
				broker = l
			}
			if rng.IntN(6) == 0 {
				parts = []int32{0, 1, 2}
			}
			for _, p := range parts {
				rp := kmsg.NewProduceRequestTopicPartition()
				rp.Partition = p
				rp.Records = randomClientBatch(rng, p, seq)
				rt.Partitions = append(rt.Partitions, rp)
			}
			req.Topics = append(req.Topics, rt)
			if err := send(broker, req); err != nil {
				return err
			}
		case r < 8:
			req := fetchReq(int64(rng.IntN(40)), -1)
			req.Topics[0].Partitions[0].Partition = int32(rng.IntN(3))
			if err := send(broker, req); err != nil {
				return err
			}
		default:
			ms := int64(rng.IntN(2000))
			for _, w := range ws {
				if err := w.RunFor(ms); err != nil {
					return err
				}
			}
		}
		if err := compare(step); err != nil {
			return err
		}
	}
	if codes[0] == 0 || codes[2]+codes[87] == 0 {
		return fmt.Errorf("the produces met too few cases to compare (answers by error code: %v)", codes)
	}
	return nil
}

// randomClientBatch is a producer's batch for partition p with random
// records, codec and producer fields, sometimes damaged.
func randomClientBatch(rng *rand.Rand, p int32, seq map[int32]int32) []byte {
	var b kafkalog.RecordBatch
	codecs := []kafkalog.Compression{kafkalog.CompressionNone, kafkalog.CompressionGzip, kafkalog.CompressionSnappy, kafkalog.CompressionLZ4, kafkalog.CompressionZstd}
	b.Attributes = b.Attributes.WithCompression(codecs[rng.IntN(len(codecs))])
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
	n := 1 + rng.IntN(20)
	if rng.IntN(4) == 0 {
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = 20000+int64(p), 0, seq[p]
		seq[p] += int32(n)
	}
	for i := range n {
		var key []byte
		if rng.IntN(2) == 0 {
			key = []byte(fmt.Sprintf("k%d", rng.IntN(5)))
		}
		b.AppendRecord(int64(i), 1_700_000_000_000+int64(i), key, bytes.Repeat([]byte{byte('a' + rng.IntN(26))}, rng.IntN(300)))
	}
	out := b.AppendTo(nil)
	switch rng.IntN(12) {
	case 0:
		out[rng.IntN(len(out))] ^= 1 << rng.IntN(8)
	case 1:
		out = out[:rng.IntN(len(out))]
	case 2:
		out = append(out, out...)
	case 3:
		out[16] = 1 // magic
	}
	return out
}
