// Command produce is a Kafka producer of your own to point at kafkalive's
// brokers: it sends -n records (values r1, r2, ...) to a topic with franz-go
// and prints, for each, the partition and offset the leader acknowledged it
// at, or the error. From the repository's root:
//
//	go run ./interop/cmd/produce -b 127.0.0.1:9092 -acks 1 -n 5 clicks
//
// -acks is all (kgo's default, idempotent) or 1 (idempotence off: it needs
// acks=all); -key gives every record that key.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("produce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bootstrap := fs.String("b", "127.0.0.1:9092", "`HOST:PORT[,HOST:PORT]` of brokers to bootstrap from")
	acks := fs.String("acks", "all", "`all` or 1")
	n := fs.Int("n", 5, "records to send")
	key := fs.String("key", "", "the records' key (none when empty)")
	timeout := fs.Duration("timeout", 30*time.Second, "how long to wait for the acknowledgements")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *n < 1 || (*acks != "all" && *acks != "1") {
		fmt.Fprintln(stderr, "usage: produce [-b HOST:PORT] [-acks all|1] [-n N] [-key K] TOPIC")
		return 2
	}
	topic := fs.Arg(0)
	opts := []kgo.Opt{kgo.SeedBrokers(strings.Split(*bootstrap, ",")...), kgo.DefaultProduceTopic(topic), kgo.ClientID("kafkalive-produce"),
		kgo.ProducerLinger(0), kgo.AllowAutoTopicCreation()}
	if *acks == "1" {
		opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		fmt.Fprintf(stderr, "produce: %v\n", err)
		return 1
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	failed := 0
	for i := 1; i <= *n; i++ {
		r := &kgo.Record{Value: fmt.Appendf(nil, "r%d", i)}
		if *key != "" {
			r.Key = []byte(*key)
		}
		if err := cl.ProduceSync(ctx, r).FirstErr(); err != nil {
			fmt.Fprintf(stdout, "%s: not acknowledged: %v\n", r.Value, err)
			failed++
			continue
		}
		fmt.Fprintf(stdout, "%s: acknowledged at %s-%d offset %d (acks=%s)\n", r.Value, r.Topic, r.Partition, r.Offset, *acks)
	}
	if failed > 0 {
		return 1
	}
	return 0
}
