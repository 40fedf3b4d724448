package broker

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// TestDescribeTopicPartitionsPages: paging through DescribeTopicPartitions
// with any page size, for every topic or a list of names (some unknown),
// from any broker (an empty list asks for every topic), gives every partition of the topics asked exactly once,
// topics by name and partitions in order, never more partitions a page
// than the limit asked (at least one), each with its leader, replicas and
// ISR as the controller has them; unknown names are errors, once each.
func TestDescribeTopicPartitionsPages(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := newFakeEnv(3, 2)
		for _, b := range f.brokers {
			if err := b.Start(f); err != nil {
				t.Fatalf("start: %v", err)
			}
		}
		f.quiet()
		want := map[string]int32{}
		for i := range rapid.IntRange(0, 5).Draw(t, "topics") {
			name := fmt.Sprintf("t%d", i)
			n := rapid.IntRange(1, 7).Draw(t, "partitions of "+name)
			spec := metadata.TopicSpec{Name: name, Partitions: n, ReplicationFactor: 3}
			if err := f.CreateTopic(spec); err != nil {
				t.Fatalf("create %s: %v", name, err)
			}
			want[name] = int32(n)
		}
		f.run(200)
		var asked []string
		if rapid.Bool().Draw(t, "by name") {
			asked = rapid.SliceOfDistinct(rapid.SampledFrom([]string{"t0", "t1", "t2", "t3", "t4", "nope"}), func(s string) string { return s }).Draw(t, "names")
		}
		limit := rapid.Int32Range(-1, 9).Draw(t, "limit")
		broker := rapid.Int32Range(1, 3).Draw(t, "broker")

		got := map[string][]int32{}
		var order []string
		unknown := map[string]int{}
		var cursor *kmsg.DescribeTopicPartitionsRequestCursor
		for page := 0; ; page++ {
			if page > 100 {
				t.Fatalf("no end after 100 pages")
			}
			req := kmsg.NewPtrDescribeTopicPartitionsRequest()
			req.ResponsePartitionLimit, req.Cursor = limit, cursor
			for _, n := range asked {
				req.Topics = append(req.Topics, kmsg.DescribeTopicPartitionsRequestTopic{Topic: n})
			}
			if _, err := f.serve(broker, req); err != nil {
				t.Fatalf("serve: %v", err)
			}
			answers := f.rq.Answers()
			if len(answers) != 1 {
				t.Fatalf("%d answers", len(answers))
			}
			resp := answers[0].Response.(*kmsg.DescribeTopicPartitionsResponse)
			count := 0
			for _, rt := range resp.Topics {
				if rt.ErrorCode != 0 {
					unknown[*rt.Topic]++
					continue
				}
				if len(order) == 0 || order[len(order)-1] != *rt.Topic {
					order = append(order, *rt.Topic)
				}
				for _, p := range rt.Partitions {
					count++
					got[*rt.Topic] = append(got[*rt.Topic], p.Partition)
					st, _ := f.Partition(tp{Topic: *rt.Topic, Partition: p.Partition})
					if diff := cmp.Diff([]any{st.Leader, st.Replicas, st.ISR}, []any{p.LeaderID, p.Replicas, p.ISR}); diff != "" {
						t.Fatalf("%s-%d (-controller +answer):\n%s", *rt.Topic, p.Partition, diff)
					}
				}
			}
			if count > max(int(limit), 1) {
				t.Fatalf("page %d: %d partitions, limit %d", page, count, limit)
			}
			if resp.NextCursor == nil {
				break
			}
			cursor = &kmsg.DescribeTopicPartitionsRequestCursor{Topic: resp.NextCursor.Topic, Partition: resp.NextCursor.Partition}
		}

		wantGot, wantUnknown := map[string][]int32{}, map[string]int{}
		var wantOrder []string
		for _, n := range []string{"nope", "t0", "t1", "t2", "t3", "t4"} {
			if len(asked) > 0 && !slices.Contains(asked, n) {
				continue
			}
			if count, ok := want[n]; ok {
				wantOrder = append(wantOrder, n)
				for p := range count {
					wantGot[n] = append(wantGot[n], p)
				}
			} else if len(asked) > 0 {
				wantUnknown[n] = 1
			}
		}
		if diff := cmp.Diff(wantGot, got); diff != "" {
			t.Fatalf("partitions described (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantOrder, order); diff != "" {
			t.Fatalf("topic order (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantUnknown, unknown); diff != "" {
			t.Fatalf("unknown topics answered (-want +got):\n%s", diff)
		}
	})
}
