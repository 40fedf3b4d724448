package controller

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// fakeEnv is the world around the controller in these tests: a clock, the
// brokers' process states, and a record of what the controller sent and
// noted.
type fakeEnv struct {
	now     int64
	running map[int32]bool
	out     strings.Builder
}

func (f *fakeEnv) Now() int64                  { return f.now }
func (f *fakeEnv) BrokerRunning(id int32) bool { return f.running[id] }
func (f *fakeEnv) BrokerState(id int32) string {
	if f.running[id] {
		return "running"
	}
	return "crashed"
}
func (f *fakeEnv) MarkLast(string) {}
func (f *fakeEnv) Record(kind event.Kind, broker int32, k *kafkalog.TopicPartition, format string, args ...any) {
	fmt.Fprintf(&f.out, "note %s", kind)
	if broker != 0 {
		fmt.Fprintf(&f.out, " b%d", broker)
	}
	if k != nil {
		fmt.Fprintf(&f.out, " %s-%d", k.Topic, k.Partition)
	}
	fmt.Fprintf(&f.out, ": %s\n", fmt.Sprintf(format, args...))
}
func (f *fakeEnv) Send(e netsim.Envelope) {
	fmt.Fprintf(&f.out, "send %s", e.String())
	switch e.Kind {
	case netsim.KindLeaderAndISR:
		st := e.State
		fmt.Fprintf(&f.out, " leader=%d epoch=%d partition-epoch=%d isr=%s inc=%d", st.Leader, st.LeaderEpoch, st.PartitionEpoch, replica.FormatIDs(st.ISR), e.ToIncarnation)
		if len(st.ELR)+len(st.LastKnownELR) > 0 {
			fmt.Fprintf(&f.out, " elr=%s last-known-elr=%s", replica.FormatIDs(st.ELR), replica.FormatIDs(st.LastKnownELR))
		}
	case netsim.KindReplica:
		fmt.Fprintf(&f.out, " error=%s isr=%s partition-epoch=%d", e.Msg.Error, replica.FormatIDs(e.Msg.ISR), e.Msg.PartitionEpoch)
	}
	f.out.WriteString("\n")
}

// TestController drives the controller alone with the messages brokers
// send it and the passing of time, and prints what it noted and sent.
// Regenerate with -rewrite and review the diff.
//
//	new brokers=3 [zk] [combined] [elr] [session=9000]   (elr: KIP-966's eligible leader replicas, Kafka 4.1)
//	topic name=t [unclean] [min-isr=2] [replicas=(1,2,3)]   (a topic, for its configs; one partition's replicas)
//	partition t-0 replicas=(1,2,3)
//	register b=1 [inc=1] [prev=-1]          (KindRegister; prev: the broker epoch of its clean shutdown marker)
//	heartbeat b=1 [inc=1] [prev=-1]         (KindHeartbeat)
//	clear-elr name=t                        (the topic's min.insync.replicas changed)
//	shutdown b=1 [inc=1]                    (KindShutdown)
//	alter b=1 t-0 isr=(1,2) epoch=0 partition-epoch=0
//	run ms=10000 [step=1000]                (ticks)
//	stop b=1 | start b=1                    (the broker's process, for the quorum)
//	show t-0 | quorum
//	check-create-topic name=t [partitions=-1] [rf=-1] [config=(k=v,...)] [assign=(1,2)...]   (the controller's checks alone)
//	check-create-partitions name=t count=3 [assign=(1,2)...]
//	check-alter-configs name=t [set=(k=v,...)] [delete=(k,...)] [append=(k=v)] [subtract=(k=v)] [replace]
func TestController(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if strings.Contains(filepath.ToSlash(path), "testdata/rapid/") {
			t.Skip("rapid's failure files, not a script")
		}
		var c *Controller
		env := &fakeEnv{running: map[int32]bool{}}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			env.out.Reset()
			arg := func(key string) string {
				for _, a := range d.CmdArgs {
					if a.Key == key && len(a.Vals) > 0 {
						return a.Vals[0]
					}
				}
				return ""
			}
			num := func(key string, def int64) int64 {
				if v := arg(key); v != "" {
					n, err := strconv.ParseInt(v, 10, 64)
					if err != nil {
						d.Fatalf(t, "%s: %v", key, err)
					}
					return n
				}
				return def
			}
			ids := func(key string) []int32 {
				var out []int32
				for _, a := range d.CmdArgs {
					if a.Key == key {
						for _, v := range a.Vals {
							n, _ := strconv.Atoi(v)
							out = append(out, int32(n))
						}
					}
				}
				return out
			}
			part := func() kafkalog.TopicPartition {
				for _, a := range d.CmdArgs {
					if i := strings.LastIndex(a.Key, "-"); i > 0 && len(a.Vals) == 0 {
						p, _ := strconv.Atoi(a.Key[i+1:])
						return kafkalog.TopicPartition{Topic: a.Key[:i], Partition: int32(p)}
					}
				}
				d.Fatalf(t, "no partition")
				return kafkalog.TopicPartition{}
			}
			b := int32(num("b", 0))
			inc := int(num("inc", 1))
			switch d.Cmd {
			case "new":
				n := int(num("brokers", 3))
				c = New(Config{Brokers: n, ZooKeeperEra: d.HasArg("zk"), BrokerSessionTimeoutMs: num("session", 9000), EligibleLeaderReplicas: d.HasArg("elr"),
					Combined: d.HasArg("combined"), FailoverMs: 3000, ClientTopicSegmentBytes: num("client-segment-bytes", 0),
					BrokerSettings: topicconfig.Settings{Log: kafkalog.DefaultConfig(), MinInsyncReplicas: 1}})
				for id := int32(1); int(id) <= n; id++ {
					env.running[id] = true
				}
			case "topic":
				unclean := d.HasArg("unclean")
				topic := metadata.Topic{Name: arg("name"), UncleanLeaderElectionEnable: &unclean, MinInsyncReplicas: int(num("min-isr", 0))}
				if reps := ids("replicas"); reps != nil {
					topic.Assignment = [][]int32{reps}
				}
				c.AddTopic(topic)
			case "partition":
				c.AddPartition(env, part(), ids("replicas"))
			case "register":
				c.Step(env, &netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindRegister, Incarnation: inc, PreviousBrokerEpoch: num("prev", -1)})
			case "heartbeat":
				c.Step(env, &netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindHeartbeat, Incarnation: inc, PreviousBrokerEpoch: num("prev", -1)})
			case "clear-elr":
				c.ClearELR(env, arg("name"))
			case "shutdown":
				c.Step(env, &netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindShutdown, Incarnation: inc})
			case "alter":
				c.Step(env, &netsim.Envelope{From: b, To: netsim.Controller, Kind: netsim.KindAlterPartition, TP: part(),
					Alter: replica.AlterPartition{ISR: ids("isr"), LeaderEpoch: int32(num("epoch", 0)), PartitionEpoch: int32(num("partition-epoch", 0))}})
			case "run":
				step := num("step", 1000)
				for end := env.now + num("ms", 0); env.now < end; {
					env.now += step
					c.Tick(env)
				}
			case "stop":
				env.running[b] = false
			case "start":
				env.running[b] = true
			case "check-create-topic":
				return checkCreateTopic(c, d)
			case "check-create-partitions":
				rt := kmsg.NewCreatePartitionsRequestTopic()
				rt.Topic, rt.Count = arg("name"), int32(num("count", 0))
				for _, a := range d.CmdArgs {
					if a.Key == "assign" {
						rt.Assignment = append(rt.Assignment, kmsg.CreatePartitionsRequestTopicAssignment{Replicas: parseIDs(a.Vals)})
					}
				}
				extra, code, msg := c.CheckCreatePartitions(rt)
				return answer(code, msg, fmt.Sprintf("add %v", extra))
			case "check-alter-configs":
				var ops []topicconfig.Op
				for _, a := range d.CmdArgs {
					op, ok := map[string]topicconfig.OpType{"set": topicconfig.OpSet, "delete": topicconfig.OpDelete, "append": topicconfig.OpAppend, "subtract": topicconfig.OpSubtract}[a.Key]
					if !ok {
						continue
					}
					for _, v := range a.Vals {
						name, value, hasValue := strings.Cut(v, "=")
						o := topicconfig.Op{Name: name, Op: op}
						if hasValue {
							o.Value = &value
						}
						ops = append(ops, o)
					}
				}
				spec, code, msg := c.CheckAlterConfigs(arg("name"), ops, d.HasArg("replace"))
				return answer(code, msg, "own configs "+c.OwnConfigs(spec.Own()))
			case "show":
				if d.HasArg("describe") {
					return describeQuorum(c, env)
				}
				if d.HasArg("quorum") {
					q, _ := c.QuorumStatus()
					return fmt.Sprintf("leader %d epoch %d hw %d\n", q.LeaderID, q.LeaderEpoch, q.HighWatermark)
				}
				v, ok := c.View(part())
				if !ok {
					return "unknown\n"
				}
				out := fmt.Sprintf("leader=%d epoch=%d partition-epoch=%d replicas=%s isr=%s", v.Leader, v.LeaderEpoch, v.PartitionEpoch, replica.FormatIDs(v.Replicas), replica.FormatIDs(v.ISR))
				if c.cfg.EligibleLeaderReplicas {
					out += fmt.Sprintf(" elr=%s last-known-elr=%s", replica.FormatIDs(v.ELR), replica.FormatIDs(v.LastKnownELR))
				}
				return out + "\n"
			default:
				d.Fatalf(t, "unknown command %s", d.Cmd)
			}
			if env.out.Len() == 0 {
				return "ok\n"
			}
			return env.out.String()
		})
	})
}

// checkCreateTopic runs the controller's checks of a CreateTopics topic
// and prints the answer: Kafka's code and message, or the spec.
func checkCreateTopic(c *Controller, d *datadriven.TestData) string {
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.NumPartitions, rt.ReplicationFactor = -1, -1
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "name":
			rt.Topic = a.Vals[0]
		case "partitions":
			n, _ := strconv.Atoi(a.Vals[0])
			rt.NumPartitions = int32(n)
		case "rf":
			n, _ := strconv.Atoi(a.Vals[0])
			rt.ReplicationFactor = int16(n)
		case "config":
			for _, kv := range a.Vals {
				k, v, _ := strings.Cut(kv, "=")
				rt.Configs = append(rt.Configs, kmsg.CreateTopicsRequestTopicConfig{Name: k, Value: kmsg.StringPtr(v)})
			}
		case "assign":
			rt.ReplicaAssignment = append(rt.ReplicaAssignment, kmsg.CreateTopicsRequestTopicReplicaAssignment{Partition: int32(len(rt.ReplicaAssignment)), Replicas: parseIDs(a.Vals)})
		}
	}
	spec, code, msg := c.CheckCreateTopic(rt)
	return answer(code, msg, fmt.Sprintf("assignment %v, own configs %s", spec.Assignment, c.OwnConfigs(spec.Own())))
}

// answer prints a check's result: the error's name and message, or what
// passed.
func answer(code int16, msg, ok string) string {
	if code != 0 {
		return fmt.Sprintf("%s: %s\n", kafkaerr.Name(code), msg)
	}
	return ok + "\n"
}

func parseIDs(vals []string) []int32 {
	var out []int32
	for _, v := range vals {
		n, _ := strconv.Atoi(v)
		out = append(out, int32(n))
	}
	return out
}
