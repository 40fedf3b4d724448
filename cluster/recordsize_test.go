package cluster

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/replica"
)

// TestRecordsTooLarge: what a client sends never stops a broker. A batch
// above segment.bytes is RECORD_LIST_TOO_LARGE, one above
// max.message.bytes MESSAGE_TOO_LARGE (Kafka 3.7's UnifiedLog.append), a
// record above max.request.size is refused by the producer itself; the
// logs stay as they were and the next record goes through.
func TestRecordsTooLarge(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		segmentBytes, maxMessage int64
		size                     int
		want                     string
		reachesTheBroker         bool
	}{
		{name: "above segment.bytes", segmentBytes: 16 << 10, maxMessage: 1048588, size: 17000, want: "RECORD_LIST_TOO_LARGE", reachesTheBroker: true},
		{name: "above max.message.bytes", segmentBytes: 1 << 20, maxMessage: 1000, size: 1200, want: "MESSAGE_TOO_LARGE", reachesTheBroker: true},
		{name: "above max.request.size", segmentBytes: 4 << 20, maxMessage: 4 << 20, size: 2 << 20, want: "MESSAGE_TOO_LARGE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := New(Config{Seed: 5, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2})
			if err != nil {
				t.Fatal(err)
			}
			log := DefaultLogConfig()
			log.SegmentBytes, log.MaxMessageBytes = tc.segmentBytes, int32(tc.maxMessage)
			for _, a := range []Action{
				{Kind: ActCreateTopic, Topic: TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}, Config: &log}},
				{Kind: ActAddProducer, Producer: ProducerConfig{Name: "p", Topic: "t", Acks: "all", LingerMs: NoLinger}},
				{Kind: ActProduce, Name: "p", Value: "small-1", Partition: -1},
				{Kind: ActProduce, Name: "p", Value: strings.Repeat("v", tc.size), Partition: -1},
				{Kind: ActRun, Ms: 1000},
				{Kind: ActProduce, Name: "p", Value: "small-2", Partition: -1},
				{Kind: ActRun, Ms: 1000},
			} {
				if err := w.Do(a); err != nil {
					t.Fatalf("%s: %v", a.Kind, err)
				}
			}
			for _, ie := range w.InternalErrors() {
				t.Errorf("internal error: %s", ie.Error)
			}
			var got []string
			for _, r := range w.Producers()[0].Results() {
				switch {
				case r.Acked:
					got = append(got, "acked@"+itoa(r.Offset))
				default:
					got = append(got, r.Error)
				}
			}
			if diff := cmp.Diff([]string{"acked@0", tc.want, "acked@1"}, got); diff != "" {
				t.Errorf("what the producer was told (-want +got):\n%s", diff)
			}
			refused := false
			for _, e := range w.Events() {
				refused = refused || strings.Contains(e.Text, "refused a produce")
			}
			if refused != tc.reachesTheBroker {
				t.Errorf("the leader refused the produce: %v, want %v", refused, tc.reachesTheBroker)
			}
			if diff := cmp.Diff([]int32{1, 2, 3}, w.State().Partitions[0].ISR); diff != "" {
				t.Errorf("ISR (-want +got):\n%s", diff)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestNotEnoughReplicasBeforeSize: under acks=all with fewer in-sync
// replicas than min.insync.replicas, the answer is NOT_ENOUGH_REPLICAS
// whatever the size, as Partition.appendRecordsToLeader checks the ISR
// before UnifiedLog.appendAsLeader checks the records (Kafka 3.7).
func TestNotEnoughReplicasBeforeSize(t *testing.T) {
	w, err := New(Config{Seed: 5, Brokers: 3, Rules: replica.V2_1, MinInsyncReplicas: 2})
	if err != nil {
		t.Fatal(err)
	}
	log := DefaultLogConfig()
	log.SegmentBytes = 16 << 10
	for _, a := range []Action{
		{Kind: ActCreateTopic, Topic: TopicSpec{Name: "t", Assignment: [][]int32{{1}}, Config: &log}},
		{Kind: ActAddProducer, Producer: ProducerConfig{Name: "p", Topic: "t", Acks: "all", LingerMs: NoLinger}},
		{Kind: ActProduce, Name: "p", Value: strings.Repeat("v", 17000), Partition: -1},
		{Kind: ActRun, Ms: 1000},
	} {
		if err := w.Do(a); err != nil {
			t.Fatalf("%s: %v", a.Kind, err)
		}
	}
	var texts []string
	for _, e := range w.Events() {
		if strings.Contains(e.Text, "refused a produce") {
			t.Errorf("the leader refused the produce for its size: %s", e.Text)
		}
		texts = append(texts, e.Text)
	}
	if !strings.Contains(strings.Join(texts, "\n"), "NOT_ENOUGH_REPLICAS") {
		t.Errorf("no NOT_ENOUGH_REPLICAS among the events:\n%s", strings.Join(texts, "\n"))
	}
}

// TestEventsShowBigValuesShort: an event names a big record by its first
// bytes and its size, never the whole value (the terminal and the page show
// events line by line).
func TestEventsShowBigValuesShort(t *testing.T) {
	w, err := New(Config{Seed: 5, Brokers: 3, Rules: replica.Modern})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Action{
		{Kind: ActCreateTopic, Topic: TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}},
		{Kind: ActAddProducer, Producer: ProducerConfig{Name: "p", Topic: "t", Acks: "all", LingerMs: NoLinger}},
		{Kind: ActProduce, Name: "p", Key: strings.Repeat("k", 100), Value: strings.Repeat("é", 5000), Partition: -1},
		{Kind: ActRun, Ms: 1000},
	} {
		if err := w.Do(a); err != nil {
			t.Fatalf("%s: %v", a.Kind, err)
		}
	}
	sends := 0
	for _, e := range w.Events() {
		if e.Kind == EventAction {
			continue // the action itself is kept whole: it is what replays
		}
		if len(e.Text) > 400 {
			t.Errorf("an event of %d bytes: %.120s...", len(e.Text), e.Text)
		}
		if strings.Contains(e.Text, "p sends") {
			sends++
			if !strings.Contains(e.Text, "(10000 bytes)") || !strings.Contains(e.Text, "(100 bytes)") {
				t.Errorf("the send event does not give the sizes: %s", e.Text)
			}
		}
	}
	if sends == 0 {
		t.Error("no send event")
	}
}
