package kafkawire_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// TestSummarize: the lines a view of the wire shows for the exchanges a
// producer and a consumer make, with the response's error codes.
func TestSummarize(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	produce := produce(9, -1, "orders", batch("a", "b", "c"))
	presp := kmsg.NewPtrProduceResponse()
	pt := kmsg.NewProduceResponseTopic()
	pt.Topic = "orders"
	pp := kmsg.NewProduceResponseTopicPartition()
	pp.BaseOffset = 41
	pt.Partitions = append(pt.Partitions, pp)
	presp.Topics = append(presp.Topics, pt)

	fetchByID := fetch(13, "", [16]byte{9}, 44, 1<<20)
	fetch := fetch(12, "orders", [16]byte{}, 44, 1<<20)
	fresp := kmsg.NewPtrFetchResponse()
	ft := kmsg.NewFetchResponseTopic()
	ft.Topic = "orders"
	fp := kmsg.NewFetchResponseTopicPartition()
	fp.ErrorCode, fp.HighWatermark = 6, 44 // NOT_LEADER_OR_FOLLOWER
	ft.Partitions = append(ft.Partitions, fp)
	fresp.Topics = append(fresp.Topics, ft)

	// a fetch by topic id (v13 on) of two batches, offsets 44-45 and 46-48
	fresp2 := kmsg.NewPtrFetchResponse()
	ft2 := kmsg.NewFetchResponseTopic()
	ft2.TopicID = [16]byte{9}
	fp2 := kmsg.NewFetchResponseTopicPartition()
	fp2.HighWatermark = 49
	b1, b2 := batch("a", "b"), batch("c", "d", "e")
	b1[7], b2[7] = 44, 46 // their base offsets
	fp2.RecordBatches = append(b1, b2...)
	ft2.Partitions = append(ft2.Partitions, fp2)
	fresp2.Topics = append(fresp2.Topics, ft2)

	md := kmsg.NewPtrMetadataRequest()
	mresp := kmsg.NewPtrMetadataResponse()
	mt := kmsg.NewMetadataResponseTopic()
	mt.ErrorCode = 3 // UNKNOWN_TOPIC_OR_PARTITION
	mresp.Topics = append(mresp.Topics, mt)

	conn := kafkawire.ConnInfo{ID: 7, Broker: 2}
	for _, tc := range []struct {
		x    kafkawire.Exchange
		want kafkawire.Summary
	}{
		{kafkawire.Exchange{Conn: conn, Header: kafkawire.RequestHeader{APIKey: 0, APIVersion: 9, CorrelationID: 3, ClientID: "app"}, Request: produce, Response: presp,
			Received: at, Answered: at.Add(1500 * time.Microsecond)},
			kafkawire.Summary{Conn: 7, Broker: 2, Client: "app", API: "Produce", Version: 9, Correlation: 3, At: at, LatencyMicros: 1500,
				Request: "acks=all orders-0 3 record(s) 85 B", Response: "orders-0 base offset 41", Carried: []kafkawire.Carried{{Topic: "orders", First: 41, Last: 43}}}},
		{kafkawire.Exchange{Conn: conn, Header: kafkawire.RequestHeader{APIKey: 1, APIVersion: 12, ClientID: "app"}, Request: fetch, Response: fresp, Received: at, Answered: at},
			kafkawire.Summary{Conn: 7, Broker: 2, Client: "app", API: "Fetch", Key: 1, Version: 12, At: at,
				Request: "replica -1 max wait 0 ms orders-0 from 44", Response: "orders-0 hw 44 0 record(s) 0 B", ErrorCodes: []int16{6}}},
		{kafkawire.Exchange{Conn: conn, Header: kafkawire.RequestHeader{APIKey: 1, APIVersion: 13, ClientID: "app"}, Request: fetchByID, Response: fresp2, Received: at, Answered: at},
			kafkawire.Summary{Conn: 7, Broker: 2, Client: "app", API: "Fetch", Key: 1, Version: 13, At: at,
				Request: "replica -1 max wait 0 ms id 09000000-0 from 44", Response: "id 09000000-0 hw 49 5 record(s) 162 B",
				Carried: []kafkawire.Carried{{TopicID: [16]byte{9}, First: 44, Last: 48}}}},
		{kafkawire.Exchange{Conn: conn, Header: kafkawire.RequestHeader{APIKey: 3, APIVersion: 12}, Request: md, Response: mresp, Received: at, Answered: at},
			kafkawire.Summary{Conn: 7, Broker: 2, API: "Metadata", Key: 3, Version: 12, At: at, Request: "every topic",
				Response: "0 broker(s), 1 topic(s), controller -1", ErrorCodes: []int16{3}}},
		{kafkawire.Exchange{Conn: conn, Header: kafkawire.RequestHeader{APIKey: 0, APIVersion: 9}, Request: produce, Closed: "the broker is down", Received: at, Answered: at},
			kafkawire.Summary{Conn: 7, Broker: 2, API: "Produce", Version: 9, At: at, Request: "acks=all orders-0 3 record(s) 85 B", Closed: "the broker is down"}},
	} {
		if diff := cmp.Diff(tc.want, kafkawire.Summarize(tc.x)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.want.API, diff)
		}
	}
}

// TestSummarizeAnyExchange: every request and response kmsg knows, with
// random bytes where a producer's or a fetch's records go, is summarized
// without a panic, its API named.
func TestSummarizeAnyExchange(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		key := int16(rapid.IntRange(0, 90).Draw(rt, "key"))
		req := kmsg.RequestForKey(key)
		if req == nil {
			return
		}
		resp := req.ResponseKind()
		junk := rapid.SliceOfN(rapid.Byte(), 0, 200).Draw(rt, "records")
		switch r := req.(type) {
		case *kmsg.ProduceRequest:
			tp := kmsg.NewProduceRequestTopic()
			p := kmsg.NewProduceRequestTopicPartition()
			p.Records = junk
			tp.Partitions = append(tp.Partitions, p)
			r.Topics = append(r.Topics, tp)
		}
		if f, ok := resp.(*kmsg.FetchResponse); ok {
			tp := kmsg.NewFetchResponseTopic()
			p := kmsg.NewFetchResponseTopicPartition()
			p.RecordBatches = junk
			tp.Partitions = append(tp.Partitions, p)
			f.Topics = append(f.Topics, tp)
		}
		s := kafkawire.Summarize(kafkawire.Exchange{Header: kafkawire.RequestHeader{APIKey: key}, Request: req, Response: resp})
		if s.API == "" || s.API != kmsg.NameForKey(key) {
			rt.Fatalf("key %d summarized as %q", key, s.API)
		}
	})
}
