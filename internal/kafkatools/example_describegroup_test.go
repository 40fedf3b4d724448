package kafkatools_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
)

// A consumer crashes: its partition waits for the session to expire, and
// the member that takes it over processes again what was not committed.
func ExampleDescribeGroup() {
	w, _ := cluster.New(cluster.Config{Seed: 1, OffsetsTopicNumPartitions: 3})
	_ = w.CreateTopic(cluster.TopicSpec{Name: "tasks", Partitions: 2})
	_ = w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "tasks"})
	for _, name := range []string{"W1", "W2"} {
		_ = w.AddConsumer(cluster.ConsumerConfig{Name: name, Group: "workers", Topics: []string{"tasks"}, AutoOffsetReset: "earliest"})
	}
	for i := range 4 {
		_ = w.Produce("p", "", fmt.Sprint("t", i), int32(i%2))
	}
	_ = w.RunFor(11000) // joined at 6 s, processed, auto-committed at 10 s
	for i := 4; i < 8; i++ {
		_ = w.Produce("p", "", fmt.Sprint("t", i), int32(i%2))
	}
	_ = w.RunFor(1000) // processed, not committed
	_ = w.CrashConsumer("W1")
	_ = w.RunFor(50000) // the session (45 s) expires, W2 takes p0 from the commit
	fmt.Print(kafkatools.DescribeGroup(w.State().Groups, "workers", kafkatools.DescribeOffsets, kafkatools.LayoutOf(w.Config())))
	for _, c := range w.State().Consumers {
		fmt.Printf("%s processed %d, duplicates %d\n", c.ID, c.Processed, c.Duplicates)
	}
	// Output:
	// GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID                             HOST            CLIENT-ID
	// workers         tasks           0          4               4               0               W2-ef3847e3-81be-4395-b788-2d7a4935c00b /10.0.0.100     W2
	// workers         tasks           1          4               4               0               W2-ef3847e3-81be-4395-b788-2d7a4935c00b /10.0.0.100     W2
	// W1 processed 4, duplicates 0
	// W2 processed 6, duplicates 2
}
