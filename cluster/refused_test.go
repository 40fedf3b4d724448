package cluster

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Clients send Produce requests whose partitions carry, each, a good
// batch, one over max.message.bytes, one failing its CRC, garbage, nothing,
// or go to a partition that does not exist, handed over as the wire layer
// hands bodies over or not, between runs of the world. The history keeps
// of each request only the batches that were not refused (a refused
// batch's bytes go once it is answered), and the world rebuilt from that
// history records the same events and gives the same answers, the same
// clients' counts and the same logs as the world that ran.
//
// Replay a failure with go test ./cluster -run TestRefusedProducesLeaveNothing -rapid.seed=SEED.
func TestRefusedProducesLeaveNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := Config{Seed: rapid.Uint64Range(1, 1000).Draw(t, "seed"), MinInsyncReplicas: 2, Rules: replica.Modern}
		w, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		small := kafkalog.DefaultConfig()
		small.MaxMessageBytes = 1024
		for _, spec := range []TopicSpec{{Name: "t", Partitions: 2, ReplicationFactor: 3}, {Name: "small", Partitions: 1, ReplicationFactor: 3, Config: &small}} {
			if err := w.CreateTopic(spec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.RunFor(500); err != nil {
			t.Fatal(err)
		}
		var answers []string
		take := func(w *World) {
			for _, a := range w.ExternalAnswers() {
				answers = append(answers, fmt.Sprintf("%d %x", a.ID, a.Response.AppendTo(nil)))
			}
		}
		for i := range rapid.IntRange(1, 12).Draw(t, "requests") {
			req, kept := drawProduce(t, i)
			x := ExternalRequest{Client: rapid.Int32Range(1, 3).Draw(t, "client"), ClientID: "c", Broker: rapid.Int32Range(1, 3).Draw(t, "broker"),
				Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)}
			var p *PreparedExternal
			if rapid.Bool().Draw(t, "prepared") {
				pp := Preparer{HandOver: rapid.Bool().Draw(t, "handed over")}
				p = pp.Prepare(&x)
			}
			if _, err := w.ExternalPrepared(x, p); err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			if a := w.actions[len(w.actions)-1]; len(a.External.Body) > kept {
				t.Fatalf("request %d: the history keeps %d bytes of a request whose batches not refused are %d bytes (with the rest of the request)",
					i, len(a.External.Body), kept)
			}
			take(w)
			if err := w.RunFor(rapid.Int64Range(0, 300).Draw(t, "run ms")); err != nil {
				t.Fatal(err)
			}
			take(w)
		}
		r, err := Replay(cfg, w.Actions())
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		var again []string
		for _, a := range r.ExternalAnswers() {
			again = append(again, fmt.Sprintf("%d %x", a.ID, a.Response.AppendTo(nil)))
		}
		if d := cmp.Diff(answers, again); d != "" {
			t.Fatalf("the answers of the world rebuilt from its history (-ran +rebuilt):\n%s", d)
		}
		if d := cmp.Diff(eventLines(w), eventLines(r)); d != "" {
			t.Fatalf("the events of the world rebuilt from its history (-ran +rebuilt):\n%s", d)
		}
		if d := cmp.Diff(fmt.Sprintf("%+v", w.ExternalClients()), fmt.Sprintf("%+v", r.ExternalClients())); d != "" {
			t.Fatalf("the clients of the world rebuilt from its history (-ran +rebuilt):\n%s", d)
		}
		if d := cmp.Diff(stateJSON(t, w), stateJSON(t, r)); d != "" {
			t.Fatalf("the state of the world rebuilt from its history (-ran +rebuilt):\n%s", d)
		}
	})
}

// drawProduce draws a Produce of request i (acks 1 or all) to topics t
// and small, and how many bytes the history may keep of it: its batches
// that can be appended, and a little for the rest.
func drawProduce(t *rapid.T, i int) (*kmsg.ProduceRequest, int) {
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(int16(rapid.IntRange(3, 9).Draw(t, "version")))
	req.Acks, req.TimeoutMillis = int16(rapid.SampledFrom([]int{1, -1}).Draw(t, "acks")), 5000
	kept := 64
	for _, topic := range []string{"t", "small"} {
		if rapid.Bool().Draw(t, "skip topic") {
			continue
		}
		rt := kmsg.NewProduceRequestTopic()
		rt.Topic = topic
		kept += len(topic) + 8
		for p := range int32(rapid.IntRange(1, 3).Draw(t, "partitions")) {
			rp := kmsg.NewProduceRequestTopicPartition()
			rp.Partition = p
			var b kafkalog.RecordBatch
			b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
			b.Attributes = b.Attributes.WithCompression(kafkalog.Compression(rapid.IntRange(0, 4).Draw(t, "codec")))
			size := rapid.SampledFrom([]int{10, 300, 5000}).Draw(t, "value size")
			b.AppendRecord(0, 1_700_000_000_000, []byte{byte(i)}, make([]byte, size))
			rp.Records = b.AppendTo(nil)
			switch rapid.IntRange(0, 4).Draw(t, "batch") {
			case 0: // as it is: appended, unless too large or the partition is not there
			case 1:
				rp.Records[len(rp.Records)-1] ^= 0xff // fails its CRC
			case 2:
				rp.Records = slices.Repeat([]byte{0xab}, rapid.IntRange(1, 3000).Draw(t, "garbage"))
			case 3:
				rp.Records = nil
			default:
				rp.Partition = 7 // no such partition
			}
			kept += 16
			if len(rp.Records) <= 1024 || topic == "t" {
				kept += len(rp.Records) // maybe appended
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
	}
	return req, kept
}

// stateJSON is w's state as JSON.
func stateJSON(t *rapid.T, w *World) string {
	b, err := json.MarshalIndent(w.State(), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// eventLines prints w's events.
func eventLines(w *World) []string {
	var out []string
	for _, e := range w.Events() {
		out = append(out, fmt.Sprintf("%d %d %s %d %s-%d %s", e.TimeMs, e.Step, e.Kind, e.Broker, e.Topic, e.Partition, e.Text))
	}
	return out
}
