package kafkawire_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/kafkawire/kafkawiretest"
)

// A server for brokers 1-3 over the in-memory backend, and one Metadata round
// trip on broker 2's port: the answer names the three brokers at the
// addresses they listen on, and the leader of the topic it auto-created.
func Example() {
	srv, mem, err := kafkawiretest.Serve(nil)
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	mem.SetLeader(3)

	nc, err := net.Dial("tcp", srv.Addr(2).String())
	if err != nil {
		panic(err)
	}
	defer nc.Close()
	req := kmsg.NewPtrMetadataRequest()
	req.SetVersion(12)
	req.AllowAutoTopicCreation = true
	topic := kmsg.NewMetadataRequestTopic()
	topic.Topic = kmsg.StringPtr("orders")
	req.Topics = append(req.Topics, topic)
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID("example"))
	if _, err := nc.Write(f.AppendRequest(nil, req, 42)); err != nil {
		panic(err)
	}

	var size [4]byte
	if _, err := io.ReadFull(nc, size[:]); err != nil {
		panic(err)
	}
	frame := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(nc, frame); err != nil {
		panic(err)
	}
	resp := kmsg.NewPtrMetadataResponse()
	resp.SetVersion(12)
	// correlation id (4 bytes), the response header's tagged fields (1), body
	if err := resp.ReadFrom(frame[5:]); err != nil {
		panic(err)
	}
	fmt.Println("correlation id", binary.BigEndian.Uint32(frame))
	for _, b := range resp.Brokers {
		host, port, _ := srv.Advertised(b.NodeID)
		fmt.Println("broker", b.NodeID, b.Host == host && b.Port == port)
	}
	for _, t := range resp.Topics {
		fmt.Println(*t.Topic, "partition", t.Partitions[0].Partition, "leader", t.Partitions[0].Leader, "epoch", t.Partitions[0].LeaderEpoch)
	}
	fmt.Println(srv.Counts().ByClient["example"], "connection from client example")
	// Output:
	// correlation id 42
	// broker 1 true
	// broker 2 true
	// broker 3 true
	// orders partition 0 leader 3 epoch 1
	// 1 connection from client example
}

// The versions a server advertises and accepts: a Backend that serves fewer
// APIs, or lower versions, passes its own table.
func ExampleNewVersions() {
	v, err := kafkawire.NewVersions([]kafkawire.APIVersion{{Key: 3, MinVersion: 1, MaxVersion: 9}})
	if err != nil {
		panic(err)
	}
	for _, a := range v.List() {
		fmt.Println(kmsg.NameForKey(a.Key), a.MinVersion, a.MaxVersion)
	}
	fmt.Println(v.Supports(3, 12), v.Supports(18, 3))
	// Output:
	// Metadata 1 9
	// ApiVersions 0 3
	// false true
}
