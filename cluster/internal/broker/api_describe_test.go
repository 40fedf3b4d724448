package broker

import (
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// The read-only admin APIs in TestAPIs (testdata/api/describe.txt):
//
//	describe-cluster b=1 [v=2] [endpoint=1] [fenced] [ops]
//	describe-log-dirs b=1 [v=4] [topics=(t:0,t:1)]       (no topics: every log)
//	describe-quorum b=1 [v=2] [topic=__cluster_metadata] [partition=0]
//	list-reassignments b=1

// Fenced implements APIEnv.
func (f *fakeEnv) Fenced() []int32 { return f.ctl.Fenced() }

// DescribeQuorum implements APIEnv as the world does.
func (f *fakeEnv) DescribeQuorum() (metadata.QuorumDescription, bool) {
	return f.ctl.DescribeQuorum(f)
}

// setRacks gives every broker its broker.rack, and with selector the
// rack-aware replica.selector.class.
func (f *fakeEnv) setRacks(a args) {
	racks := a.vals("names")
	for _, b := range f.brokers {
		b.cfg.Racks = racks
		if a.str("selector", "") != "" {
			b.cfg.ReplicaSelectorClass = RackAwareSelector
		}
	}
}

// describeRequest builds the read-only admin requests, nil for another
// command.
func (a args) describeRequest() kmsg.Request {
	switch a.d.Cmd {
	case "describe-cluster":
		r := kmsg.NewPtrDescribeClusterRequest()
		r.SetVersion(int16(a.num("v", 2)))
		r.EndpointType = int8(a.num("endpoint", 1))
		r.IncludeFencedBrokers = a.str("fenced", "") != ""
		r.IncludeClusterAuthorizedOperations = a.str("ops", "") != ""
		return r
	case "describe-log-dirs":
		r := kmsg.NewPtrDescribeLogDirsRequest()
		r.SetVersion(int16(a.num("v", 4)))
		for _, tp := range a.vals("topics") {
			name, part, _ := strings.Cut(tp, ":")
			var p int32
			fmt.Sscan(part, &p)
			if n := len(r.Topics); n == 0 || r.Topics[n-1].Topic != name {
				rt := kmsg.NewDescribeLogDirsRequestTopic()
				rt.Topic = name
				r.Topics = append(r.Topics, rt)
			}
			rt := &r.Topics[len(r.Topics)-1]
			rt.Partitions = append(rt.Partitions, p)
		}
		return r
	case "describe-quorum":
		r := kmsg.NewPtrDescribeQuorumRequest()
		r.SetVersion(int16(a.num("v", 2)))
		rt := kmsg.NewDescribeQuorumRequestTopic()
		rt.Topic = a.str("topic", MetadataTopic)
		rp := kmsg.NewDescribeQuorumRequestTopicPartition()
		rp.Partition = int32(a.num("partition", 0))
		rt.Partitions = append(rt.Partitions, rp)
		r.Topics = append(r.Topics, rt)
		return r
	case "list-reassignments":
		r := kmsg.NewPtrListPartitionReassignmentsRequest()
		r.Topics = nil
		return r
	}
	return nil
}

// preferred prints a fetched partition's preferred read replica, if any.
func preferred(id int32) string {
	if id < 0 {
		return ""
	}
	return fmt.Sprintf(", preferred read replica %d", id)
}

// formatDescribe prints the answers of the read-only admin set.
func formatDescribe(b *strings.Builder, resp kmsg.Response) {
	code := func(c int16, m *string) string {
		if c == 0 {
			return "ok"
		}
		if m != nil {
			return kafkaerr.Name(c) + ": " + *m
		}
		return kafkaerr.Name(c)
	}
	switch r := resp.(type) {
	case *kmsg.DescribeClusterResponse:
		fmt.Fprintf(b, "  %s cluster %s controller %d endpoint %d ops %d\n", code(r.ErrorCode, r.ErrorMessage), r.ClusterID, r.ControllerID, r.EndpointType, r.ClusterAuthorizedOperations)
		for _, br := range r.Brokers {
			rack := "-"
			if br.Rack != nil {
				rack = *br.Rack
			}
			fmt.Fprintf(b, "    broker %d rack %s fenced %t\n", br.NodeID, rack, br.IsFenced)
		}
	case *kmsg.DescribeLogDirsResponse:
		fmt.Fprintf(b, "  %s\n", code(r.ErrorCode, nil))
		for _, d := range r.Dirs {
			fmt.Fprintf(b, "  dir %s: %s total %d usable %d\n", d.Dir, code(d.ErrorCode, nil), d.TotalBytes, d.UsableBytes)
			for _, t := range d.Topics {
				for _, p := range t.Partitions {
					fmt.Fprintf(b, "    %s-%d: size %d lag %d future %t\n", t.Topic, p.Partition, p.Size, p.OffsetLag, p.IsFuture)
				}
			}
		}
	case *kmsg.DescribeQuorumResponse:
		fmt.Fprintf(b, "  %s\n", code(r.ErrorCode, r.ErrorMessage))
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				fmt.Fprintf(b, "  %s-%d: %s leader %d epoch %d hw %d\n", t.Topic, p.Partition, code(p.ErrorCode, p.ErrorMessage), p.LeaderID, p.LeaderEpoch, p.HighWatermark)
				for _, v := range p.CurrentVoters {
					fmt.Fprintf(b, "    voter %d leo %d fetch %d caught-up %d\n", v.ReplicaID, v.LogEndOffset, v.LastFetchTimestamp, v.LastCaughtUpTimestamp)
				}
				for _, v := range p.Observers {
					fmt.Fprintf(b, "    observer %d leo %d fetch %d caught-up %d\n", v.ReplicaID, v.LogEndOffset, v.LastFetchTimestamp, v.LastCaughtUpTimestamp)
				}
			}
		}
		for _, n := range r.Nodes {
			fmt.Fprintf(b, "    node %d, %d listener(s)\n", n.NodeID, len(n.Listeners))
		}
	case *kmsg.ListPartitionReassignmentsResponse:
		fmt.Fprintf(b, "  %s, %d topic(s) reassigning\n", code(r.ErrorCode, r.ErrorMessage), len(r.Topics))
	}
}
