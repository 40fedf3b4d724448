package cluster_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

// A request prepared ahead of the world (cluster.PrepareExternal, as the
// wire layer does on each connection's goroutine) is answered exactly as
// the same request unprepared: two worlds get the same random produces
// (every codec, keys or none, idempotent or not, several partitions, acks
// 0, 1 and all, and damage: a flipped byte, a cut batch, two batches, a
// wrong magic, no records), one prepared and one not, with fetches and
// time between; every answer's bytes and every fetched byte agree.
//
// The prepared world is handed its bodies (Preparer.HandOver, as the wire
// layer hands them): its leaders stamp the batches in them and its files
// keep them. So the test also rebuilds that world from its timeline, whose
// bodies are now stamped, and checks that the rebuilt world gave the same
// answers and holds the same bytes on every broker's disk as the world
// that copied every batch.
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
		w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: seed, MinInsyncReplicas: 2, Rules: replica.Modern})
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
	pp := cluster.Preparer{HandOver: true}
	var answers [][]byte // every answer of the world that copies, in order
	send := func(broker int32, req kmsg.Request) error {
		var ids [2]uint64
		for i, w := range ws {
			x := cluster.ExternalRequest{Client: 1, ClientID: "prep", Broker: broker, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)}
			var err error
			if i == 0 {
				ids[i], err = w.External(x)
			} else {
				ids[i], err = w.ExternalPrepared(x, pp.Prepare(&x))
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
			answers = append(answers, x)
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
	return replayAgrees(ws[0], ws[1], answers)
}

// replayAgrees rebuilds handedOver from its timeline and checks that the
// rebuilt world answered as copied did (answers) and that every broker's
// disk holds the same bytes in both; and that some body on the timeline
// was stamped, or the check proves nothing.
func replayAgrees(copied, handedOver *cluster.World, answers [][]byte) error {
	stamped := 0
	acts, orig := handedOver.Actions(), copied.Actions()
	for i := range acts {
		if x := acts[i].External; x != nil && !bytes.Equal(x.Body, orig[i].External.Body) {
			stamped++
		}
	}
	if stamped == 0 {
		return fmt.Errorf("no body on the timeline was stamped: the replay proves nothing")
	}
	again, err := handedOver.At(len(acts) - 1)
	if err != nil {
		return err
	}
	got := again.ExternalAnswers()
	if len(got) != len(answers) {
		return fmt.Errorf("rebuilt from the timeline (%d bodies stamped), the world gave %d answers, not %d", stamped, len(got), len(answers))
	}
	for i := range got {
		if b := got[i].Response.AppendTo(nil); !bytes.Equal(b, answers[i]) {
			return fmt.Errorf("rebuilt from the timeline (%d bodies stamped), answer %d to request %d is %x, not %x", stamped, i, got[i].ID, b, answers[i])
		}
	}
	if err := sameDisks(copied, again); err != nil {
		return fmt.Errorf("rebuilt from the timeline (%d bodies stamped): %w", stamped, err)
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

// sameDisks checks that every broker's disk (its page cache, what
// kafka-dump-log reads) holds the same files and bytes in a and b.
func sameDisks(a, b *cluster.World) error {
	for id := int32(1); id <= 3; id++ {
		var trees [2]vfstest.Tree
		for i, w := range []*cluster.World{a, b} {
			fsys, err := w.BrokerFS(id)
			if err != nil {
				return err
			}
			if trees[i], err = vfstest.ReadTree(fsys, ""); err != nil {
				return err
			}
		}
		if d := cmp.Diff(trees[0], trees[1]); d != "" {
			return fmt.Errorf("broker %d's disk differs (-first +second):\n%s", id, d)
		}
	}
	return nil
}
