package cluster_test

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
)

// alterConfigs alters a topic's configs as a client's admin does, at
// random: IncrementalAlterConfigs (SET, DELETE, APPEND, SUBTRACT) or the
// legacy AlterConfigs (which replaces them; the topic's timestamp bounds
// are kept, so that the produces in flight are checked against the bounds
// they were sent under), validate-only or not, with values valid or not,
// to a topic of the world's, one it does not have or __consumer_offsets.
// Invariants: the answer is one of Kafka's codes for it; a topic it does
// not have is UNKNOWN_TOPIC_OR_PARTITION when its configs are valid; when
// it says it altered the topic, every config set is the topic's own with
// the value asked (cleanup.policy as the list it makes) and every config
// deleted is not; otherwise the topic's configs are what they were.
func (d *extDriver) alterConfigs() error {
	topic, _ := d.pick()
	switch d.rng.IntN(10) {
	case 0:
		topic = "no-such-topic"
	case 1:
		topic = cluster.OffsetsTopic
	}
	pool := []cluster.ConfigOp{
		set("min.insync.replicas", []string{"1", "2", "3", "0", "two"}[d.rng.IntN(5)]),
		set("segment.bytes", []string{"1024", "100000", "13"}[d.rng.IntN(3)]),
		set("segment.ms", []string{"1000", "600000", "0"}[d.rng.IntN(3)]),
		set("retention.ms", []string{"-1", "60000", "5000", "-2"}[d.rng.IntN(4)]),
		set("retention.bytes", []string{"-1", "2000", "50000"}[d.rng.IntN(3)]),
		set("unclean.leader.election.enable", []string{"true", "false", "maybe"}[d.rng.IntN(3)]),
		set("max.message.bytes", []string{"100", "1048588"}[d.rng.IntN(2)]),
		set("no.such.config", "1"),
		{Name: []string{"min.insync.replicas", "segment.bytes", "retention.ms", "unclean.leader.election.enable"}[d.rng.IntN(4)], Op: cluster.ConfigDelete},
		op("cleanup.policy", cluster.ConfigAppend, "delete"),
		op("cleanup.policy", cluster.ConfigSubtract, "compact"),
		op("retention.ms", cluster.ConfigAppend, "1"),
	}
	replace := d.rng.IntN(4) == 0
	var ops []cluster.ConfigOp
	for _, i := range d.rng.Perm(len(pool))[:1+d.rng.IntN(3)] {
		o := pool[i]
		if replace && o.Op != cluster.ConfigSet {
			continue
		}
		ops = append(ops, o)
	}
	if replace {
		if b, ok := d.bounds[topic]; ok {
			ops = append(ops, set("message.timestamp.before.max.ms", fmt.Sprint(b[0])), set("message.timestamp.after.max.ms", fmt.Sprint(b[1])))
		}
	}
	validateOnly := d.rng.IntN(4) == 0
	before, _ := d.w.TopicConfigs(topic)
	_, exists := d.topics[topic]
	check := func(code int16, msg string) error {
		what := fmt.Sprintf("alter %s (replace %v, validate only %v) %s", topic, replace, validateOnly, cluster.ConfigOpsString(ops))
		after, _ := d.w.TopicConfigs(topic)
		if code != 0 || validateOnly {
			if !reflect.DeepEqual(before, after) {
				return fmt.Errorf("%s: answered %d %q, and the configs changed", what, code, msg)
			}
		}
		switch {
		case !slices.Contains([]int16{0, 3, 40, 42, 44}, code):
			return fmt.Errorf("%s: error %d %q", what, code, msg)
		case code == 0 && (!exists || topic == cluster.OffsetsTopic):
			return fmt.Errorf("%s: altered a topic it should not", what)
		case code == 3 && exists:
			return fmt.Errorf("%s: UNKNOWN_TOPIC_OR_PARTITION for a topic it has", what)
		case code == 0 && !validateOnly:
			own := map[string]string{}
			for _, c := range after {
				if c.Source == "DYNAMIC_TOPIC_CONFIG" {
					own[c.Name] = c.Value
				}
			}
			for _, o := range ops {
				switch {
				case o.Op == cluster.ConfigSet && own[o.Name] != *o.Value:
					return fmt.Errorf("%s: done, and %s is %q (own configs %v)", what, o.Name, own[o.Name], own)
				case o.Op == cluster.ConfigDelete && own[o.Name] != "":
					return fmt.Errorf("%s: done, and %s is still its own: %q", what, o.Name, own[o.Name])
				}
			}
			if replace {
				for name := range own {
					if !slices.ContainsFunc(ops, func(o cluster.ConfigOp) bool { return o.Name == name }) {
						return fmt.Errorf("%s: replaced, and %s=%s is still its own", what, name, own[name])
					}
				}
			}
			if own["retention.ms"] != "" || own["retention.bytes"] != "" {
				d.trimmed[topic] = true
			}
			if own["unclean.leader.election.enable"] == "true" {
				d.unclean[topic] = true
			}
		}
		return nil
	}
	if replace {
		req := kmsg.NewPtrAlterConfigsRequest()
		req.SetVersion(int16(d.rng.IntN(3)))
		req.ValidateOnly = validateOnly
		r := kmsg.NewAlterConfigsRequestResource()
		r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeTopic, topic
		for _, o := range ops {
			c := kmsg.NewAlterConfigsRequestResourceConfig()
			c.Name, c.Value = o.Name, o.Value
			r.Configs = append(r.Configs, c)
		}
		req.Resources = append(req.Resources, r)
		return d.send(int32(1+d.rng.IntN(3)), req, func(resp kmsg.Response) error {
			rr := resp.(*kmsg.AlterConfigsResponse).Resources
			if len(rr) != 1 || rr[0].ResourceName != topic {
				return fmt.Errorf("AlterConfigs %s: %d resources answered", topic, len(rr))
			}
			return check(rr[0].ErrorCode, deref(rr[0].ErrorMessage))
		})
	}
	req := alterReq(validateOnly, topicOps(topic, ops...))
	req.SetVersion(int16(d.rng.IntN(2)))
	return d.send(int32(1+d.rng.IntN(3)), req, func(resp kmsg.Response) error {
		rr := resp.(*kmsg.IncrementalAlterConfigsResponse).Resources
		if len(rr) != 1 || rr[0].ResourceName != topic {
			return fmt.Errorf("IncrementalAlterConfigs %s: %d resources answered", topic, len(rr))
		}
		return check(rr[0].ErrorCode, deref(rr[0].ErrorMessage))
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// logStartOffset is the log start offset of a partition's leader (0 if
// the state does not list it).
func logStartOffset(w *cluster.World, topic string, partition int32) int64 {
	for _, p := range w.State().Partitions {
		if p.Topic == topic && p.Partition == partition {
			return p.LogStartOffset
		}
	}
	return 0
}
