package cluster

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
)

// servedKeys are the api keys World.External answers, with the highest
// version the wire layer serves (kafkawire.DefaultAPIVersions; this
// package may not import it).
var servedKeys = map[int16]int16{0: 10, 1: 16, 2: 8, 3: 12, 8: 9, 9: 9, 10: 4, 11: 9, 12: 4, 13: 5, 14: 5, 15: 5, 16: 5, 19: 7, 20: 6, 22: 4, 23: 4, 32: 4, 33: 2, 35: 4, 37: 3, 42: 2, 44: 1, 46: 0, 55: 2, 60: 2, 68: 1, 69: 1, 75: 0}

// FuzzExternalRequest feeds any body, as any served request at any
// version, from any client to any broker, to a three-broker world, then
// lets it run: a body that does not parse is refused with an error, any
// other is answered or not as the world decides, and the world panics at
// nothing and records no internal error (go test -fuzz
// FuzzExternalRequest ./cluster).
func FuzzExternalRequest(f *testing.F) {
	for key, max := range servedKeys {
		req := kmsg.RequestForKey(key)
		for _, v := range []int16{0, max} {
			req.SetVersion(v)
			f.Add(key, v, uint8(1), req.AppendTo(nil))
		}
	}
	// a few that name the world's topic and a group
	for _, req := range []kmsg.Request{
		func() kmsg.Request {
			r := kmsg.NewPtrCreatePartitionsRequest()
			r.SetVersion(3)
			t := kmsg.NewCreatePartitionsRequestTopic()
			t.Topic, t.Count = "t", 3
			r.Topics = append(r.Topics, t)
			return r
		}(),
		func() kmsg.Request {
			r := kmsg.NewPtrOffsetForLeaderEpochRequest()
			r.SetVersion(4)
			t := kmsg.NewOffsetForLeaderEpochRequestTopic()
			t.Topic = "t"
			p := kmsg.NewOffsetForLeaderEpochRequestTopicPartition()
			p.CurrentLeaderEpoch, p.LeaderEpoch = -1, 0
			t.Partitions = append(t.Partitions, p)
			r.Topics = append(r.Topics, t)
			return r
		}(),
		func() kmsg.Request {
			r := kmsg.NewPtrIncrementalAlterConfigsRequest()
			r.SetVersion(1)
			res := kmsg.NewIncrementalAlterConfigsRequestResource()
			res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeTopic, "t"
			for _, c := range [][2]string{{"segment.bytes", "100"}, {"retention.bytes", "1"}, {"min.insync.replicas", "3"}} {
				rc := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
				rc.Name, rc.Value = c[0], kmsg.StringPtr(c[1])
				res.Configs = append(res.Configs, rc)
			}
			r.Resources = append(r.Resources, res)
			return r
		}(),
		func() kmsg.Request {
			r := kmsg.NewPtrAlterConfigsRequest()
			r.SetVersion(2)
			res := kmsg.NewAlterConfigsRequestResource()
			res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeTopic, "t"
			rc := kmsg.NewAlterConfigsRequestResourceConfig()
			rc.Name, rc.Value = "cleanup.policy", kmsg.StringPtr("compact")
			res.Configs = append(res.Configs, rc)
			r.Resources = append(r.Resources, res)
			return r
		}(),
		func() kmsg.Request {
			r := kmsg.NewPtrDeleteGroupsRequest()
			r.SetVersion(2)
			r.Groups = []string{"g", "g", ""}
			return r
		}(),
	} {
		f.Add(req.Key(), req.GetVersion(), uint8(2), req.AppendTo(nil))
	}
	base := topicWorld(f, 5)
	f.Fuzz(func(t *testing.T, key, version int16, to uint8, body []byte) {
		max, ok := servedKeys[key]
		if !ok || version < 0 || version > max {
			return // the wire layer closes such a connection before the world
		}
		w := base.Clone()
		x := ExternalRequest{Client: 1, ClientID: "fuzz", Broker: int32(to%3) + 1, Key: key, Version: version, Body: body}
		if _, err := w.External(x); err != nil {
			if _, derr := new(broker.Requests).Decode(&x); derr == nil {
				t.Fatalf("%s v%d parses and is refused: %v", kmsg.NameForKey(key), version, err)
			}
			return
		}
		if err := w.RunFor(300); err != nil {
			t.Fatalf("run: %v", err)
		}
		if errs := w.InternalErrors(); len(errs) > 0 {
			t.Fatalf("%s v%d: internal errors: %v", kmsg.NameForKey(key), version, errs)
		}
	})
}
