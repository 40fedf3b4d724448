package web

import (
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/dumplog"
)

// topics is kafka-topics.sh --describe / --list, in the layout of Kafka
// 3.x's TopicCommand: a topic line, then one tab-indented line per
// partition.
func (t *Terminal) topics(args []string, at *int64, out io.Writer) error {
	fl, pos := flags(args)
	if len(pos) > 0 {
		return ErrUsage
	}
	_, list := fl["list"]
	_, describe := fl["describe"]
	if list == describe {
		return fmt.Errorf("%w: exactly one of --list, --describe", ErrUsage)
	}
	return t.look(at, func(w *cluster.World) error {
		st := w.State()
		topic, named := fl["topic"]
		found := false
		for _, tp := range w.Topics() {
			if named && tp.Name != topic {
				continue
			}
			found = true
			if list {
				fmt.Fprintln(out, tp.Name)
				continue
			}
			parts := topicPartitions(st, tp.Name)
			if tp.Internal {
				if !named {
					continue // __consumer_offsets only when named, as Kafka lists internal topics
				}
				parts = w.TopicPartitions(tp.Name)
			}
			describeTopic(out, tp, parts, fl)
		}
		if named && !found {
			return fmt.Errorf("Topic '%s' does not exist as expected", topic)
		}
		return nil
	})
}

func describeTopic(out io.Writer, tp cluster.Topic, parts []cluster.PartitionInfo, fl map[string]string) {
	_, underRep := fl["under-replicated-partitions"]
	_, unavail := fl["unavailable-partitions"]
	rf := 0
	if len(tp.Assignment) > 0 {
		rf = len(tp.Assignment[0])
	}
	if !underRep && !unavail {
		fmt.Fprintf(out, "Topic: %s\tTopicId: %s\tPartitionCount: %d\tReplicationFactor: %d\tConfigs: %s\n",
			tp.Name, tp.ID, len(tp.Assignment), rf, topicConfigs(tp))
	}
	for _, p := range parts {
		if underRep && len(p.ISR) >= len(p.Replicas) || unavail && p.Leader >= 0 {
			continue
		}
		leader := "none"
		if p.Leader >= 0 {
			leader = strconv.Itoa(int(p.Leader))
		}
		fmt.Fprintf(out, "\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s\n",
			p.Topic, p.Partition, leader, joinIDs(p.Replicas), joinIDs(p.ISR))
	}
}

// topicPartitions returns the state's partitions of topic.
func topicPartitions(st cluster.State, topic string) []cluster.PartitionInfo {
	var out []cluster.PartitionInfo
	for _, p := range st.Partitions {
		if p.Topic == topic {
			out = append(out, p)
		}
	}
	return out
}

// topicConfigs is the Configs column: what the topic sets itself
// (__consumer_offsets: compact, as Kafka shows it).
func topicConfigs(tp cluster.Topic) string {
	if tp.Internal {
		return "cleanup.policy=compact"
	}
	return ""
}

func joinIDs(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	return strings.Join(s, ",")
}

// groups is kafka-consumer-groups.sh: --list, or --describe --group G
// (with --members or --state), in the layout the cluster prints.
func (t *Terminal) groups(args []string, at *int64, out io.Writer) error {
	fl, _ := flags(args)
	if _, ok := fl["reset-offsets"]; ok {
		return t.resetOffsets(fl, at, out)
	}
	_, list := fl["list"]
	_, describe := fl["describe"]
	group, named := fl["group"]
	if list == describe || describe && !named {
		return ErrUsage
	}
	mode := cluster.DescribeOffsets
	if _, ok := fl["members"]; ok {
		mode = cluster.DescribeMembers
	} else if _, ok := fl["state"]; ok {
		mode = cluster.DescribeState
	}
	return t.look(at, func(w *cluster.World) error {
		st := w.State()
		for _, g := range st.Groups {
			if list {
				fmt.Fprintln(out, g.Name)
				continue
			}
			if g.Name == group {
				_, err := io.WriteString(out, cluster.DescribeGroup(st, group, mode))
				return err
			}
		}
		if describe {
			return fmt.Errorf("Consumer group '%s' does not exist.", group)
		}
		return nil
	})
}

// dumpLog is kafka-dump-log.sh on one broker's files: --broker N, or the
// leader of the partition whose directory the first file is in.
func (t *Terminal) dumpLog(args []string, at *int64, out io.Writer) error {
	fl, _ := flags(args)
	if fl["files"] == "" {
		return ErrUsage
	}
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--broker":
			i++
		case strings.HasPrefix(a, "--broker="):
		default:
			rest = append(rest, a)
		}
	}
	opts, _, ok := dumplog.ParseFlags(rest, out)
	if !ok {
		return ErrUsage
	}
	return t.look(at, func(w *cluster.World) error {
		id, err := dumpBroker(w, fl)
		if err != nil {
			return err
		}
		fsys, err := w.BrokerFS(id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "(broker %d)\n", id)
		if dumplog.Dump(fsys, opts, out, out) != 0 {
			return errDumpFailed
		}
		return nil
	})
}

// errDumpFailed means kafka-dump-log found a file torn, corrupt or
// failing a check (it printed why).
var errDumpFailed = errors.New("kafka-dump-log: a file failed its checks")

// dumpBroker is --broker, or the leader of the partition of the first
// file's directory (/kafka-logs/T-P/...).
func dumpBroker(w *cluster.World, fl map[string]string) (int32, error) {
	if b, ok := fl["broker"]; ok {
		return parseBroker(b)
	}
	dir := path.Base(path.Dir(strings.Split(fl["files"], ",")[0]))
	if i := strings.LastIndexByte(dir, '-'); i > 0 {
		if p, err := strconv.ParseInt(dir[i+1:], 10, 32); err == nil {
			if l := w.PartitionLeader(dir[:i], int32(p)); l > 0 {
				return l, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: --broker N (no leader known for %s)", ErrUsage, dir)
}
