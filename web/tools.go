package web

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools/dumplog"
)

// topics is kafka-topics.sh --describe / --list, in the layout of Kafka
// 3.7's TopicCommand ([cluster.World.DescribeTopics]): internal topics
// included unless --exclude-internal, an unknown --topic reported as
// "Error while executing topic command : ...".
func (t *Terminal) topics(args []string, at *int64, out io.Writer) error {
	fl, pos := flags(args)
	if len(pos) > 0 {
		return ErrUsage
	}
	_, list := fl["list"]
	_, describe := fl["describe"]
	if _, del := fl["delete"]; del {
		if list || describe || fl["topic"] == "" {
			return fmt.Errorf("%w: --delete --topic T", ErrUsage)
		}
		return t.deleteTopic(fl["topic"], at, out)
	}
	if _, create := fl["create"]; create {
		if list || describe || fl["topic"] == "" {
			return fmt.Errorf("%w: --create --topic T [--partitions N] [--replication-factor R] [--config K=V]... [--if-not-exists]", ErrUsage)
		}
		return t.createTopic(args, fl, at, out)
	}
	if _, alter := fl["alter"]; alter {
		if list || describe || fl["topic"] == "" || fl["partitions"] == "" {
			return fmt.Errorf("%w: --alter --topic T --partitions N [--if-exists]", ErrUsage)
		}
		return t.alterTopic(fl, at, out)
	}
	if list == describe {
		return fmt.Errorf("%w: exactly one of --list, --describe", ErrUsage)
	}
	has := func(k string) bool { _, ok := fl[k]; return ok }
	o := cluster.TopicsOptions{Topic: fl["topic"], ExcludeInternal: has("exclude-internal"),
		UnderReplicated: has("under-replicated-partitions"), Unavailable: has("unavailable-partitions"),
		UnderMinISR: has("under-min-isr-partitions"), AtMinISR: has("at-min-isr-partitions")}
	return t.look(at, func(w *cluster.World) error {
		if list {
			_, err := io.WriteString(out, w.ListTopics(o))
			return err
		}
		text, err := w.DescribeTopics(o)
		io.WriteString(out, text)
		if err != nil {
			return printedError{err}
		}
		return nil
	})
}

// createTopic is kafka-topics --create --topic T [--partitions N]
// [--replication-factor R] [--config K=V]... [--if-not-exists], as Kafka
// 3.7's TopicCommand.createTopic: it refuses a replication factor outside
// 1..32767 and a partition count under 1 itself, leaves either it was not
// given to the brokers (num.partitions, default.replication.factor), and
// asks the controller, which checks the rest as it checks a client's
// CreateTopics ([cluster.World.NewTopicSpec]); it prints "Created topic
// T." and the events, or Kafka's "Error while executing topic command :
// ..." (nothing for a topic that exists with --if-not-exists).
func (t *Terminal) createTopic(args []string, fl map[string]string, at *int64, out io.Writer) error {
	name := fl["topic"]
	partitions, partitionsSet, err := intFlag(fl, "partitions")
	if err != nil {
		return err
	}
	rf, rfSet, err := intFlag(fl, "replication-factor")
	if err != nil {
		return err
	}
	var configs [][2]string
	for _, v := range repeated(args, "config") {
		k, val, found := strings.Cut(v, "=")
		if !found || k == "" {
			return fmt.Errorf("%w: --config takes NAME=VALUE, not %q", ErrUsage, v)
		}
		configs = append(configs, [2]string{k, val})
	}
	kafkaErr := func(msg string) error { return topicCommandError(out, msg, errors.New(msg)) }
	switch {
	case rfSet && (rf < 1 || rf > math.MaxInt16):
		return kafkaErr(fmt.Sprintf("The replication factor must be between 1 and %d inclusive", math.MaxInt16))
	case partitionsSet && partitions < 1:
		return kafkaErr("The partitions must be greater than 0")
	}
	_, ifNotExists := fl["if-not-exists"]
	refused, err := t.actChecked(at, out, func(w *cluster.World) (cluster.Action, error) {
		spec, err := w.NewTopicSpec(name, partitions, rf, configs)
		return cluster.Action{Kind: cluster.ActCreateTopic, Topic: spec}, err
	}, fmt.Sprintf("Created topic %s.\n", name))
	switch {
	case err != nil:
		return err
	case refused == nil, ifNotExists && errors.Is(refused, cluster.ErrTopicExists):
		return nil
	}
	return kafkaErr(refused.Error())
}

// alterTopic is kafka-topics --alter --topic T --partitions N
// [--if-exists], as Kafka 3.7's TopicCommand.alterTopic: an unknown topic
// is "Topic 'T' does not exist as expected" (nothing with --if-exists);
// the controller checks the count as it checks a client's
// CreatePartitions ([cluster.World.CheckAddPartitions]) and places the new
// partitions; it prints the events, or Kafka's "Error while executing
// topic command : ...". A key's partition is its hash modulo the count:
// new records of a key may go elsewhere after this.
func (t *Terminal) alterTopic(fl map[string]string, at *int64, out io.Writer) error {
	name := fl["topic"]
	n, _, err := intFlag(fl, "partitions")
	if err != nil {
		return err
	}
	_, ifExists := fl["if-exists"]
	refused, err := t.actChecked(at, out, func(w *cluster.World) (cluster.Action, error) {
		return cluster.Action{Kind: cluster.ActAddPartitions, Name: name, N: n}, w.CheckAddPartitions(name, n)
	}, "")
	switch {
	case err != nil:
		return err
	case refused == nil, ifExists && errors.Is(refused, cluster.ErrUnknownTopicOrPartition):
		return nil
	}
	msg := refused.Error()
	if errors.Is(refused, cluster.ErrUnknownTopicOrPartition) {
		msg = fmt.Sprintf("Topic '%s' does not exist as expected", name)
	}
	return topicCommandError(out, msg, refused)
}

// topicCommandError prints msg as TopicCommand prints a failure, and
// returns err as printed.
func topicCommandError(out io.Writer, msg string, err error) error {
	fmt.Fprintf(out, "Error while executing topic command : %s\n", msg)
	return printedError{err}
}

// actChecked is act for an action the controller checks first: check
// runs in the world's lock and returns the action, or the refusal, which
// actChecked returns without acting (from a moment of the past, without
// forking: the future stays as it was); done is printed before the
// events.
func (t *Terminal) actChecked(at *int64, out io.Writer, check func(*cluster.World) (cluster.Action, error), done string) (refused, err error) {
	err = t.live.Do(at, func(w *cluster.World) error {
		a, err := check(w)
		if err != nil {
			refused = err
			return errRefused
		}
		from := nextSeq(w)
		if err := w.Do(a); err != nil {
			return err
		}
		io.WriteString(out, done)
		printEvents(out, eventsSince(w, from), 20)
		return nil
	})
	if err == errRefused {
		err = nil
	}
	return refused, err
}

// errRefused tells Live.Do that actChecked's check refused the action, so
// that a world forked from the past to take it is dropped.
var errRefused = errors.New("web: the action was refused")

// deleteTopic is kafka-topics --delete --topic name ([cluster.World.DeleteTopic]):
// TopicCommand.deleteTopic first checks that the topic exists
// (ensureTopicExists), then asks the controller to delete it, and prints
// nothing more; the terminal prints the events it caused.
func (t *Terminal) deleteTopic(name string, at *int64, out io.Writer) error {
	err := t.act(at, out, cluster.Action{Kind: cluster.ActDeleteTopic, Name: name})
	if errors.Is(err, cluster.ErrUnknownTopicOrPartition) {
		return topicCommandError(out, fmt.Sprintf("Topic '%s' does not exist as expected", name), err)
	}
	return err
}

// printedError is an error the tool has already printed the way Kafka's
// prints it; the terminal does not print it again.
type printedError struct{ err error }

func (e printedError) Error() string { return e.err.Error() }
func (e printedError) Unwrap() error { return e.err }

// groups is kafka-consumer-groups.sh: --list, or --describe --group G
// (with --members [--verbose] or --state), in the layout of Kafka 3.7's
// ConsumerGroupCommand ([cluster.DescribeGroup]).
func (t *Terminal) groups(args []string, at *int64, out io.Writer) error {
	fl, _ := flags(args)
	if _, ok := fl["reset-offsets"]; ok {
		return t.resetOffsets(fl, at, out)
	}
	if _, ok := fl["delete"]; ok {
		names := repeated(args, "group")
		if len(names) == 0 {
			return fmt.Errorf("%w: --delete --group G [--group G2]...", ErrUsage)
		}
		return t.deleteGroups(names, at, out)
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
		if _, ok := fl["verbose"]; ok {
			mode = cluster.DescribeMembersVerbose
		}
	} else if _, ok := fl["state"]; ok {
		mode = cluster.DescribeState
	}
	return t.look(at, func(w *cluster.World) error {
		st := cluster.State{Groups: w.Groups()} // DescribeGroup reads the groups alone
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

// deleteGroups is kafka-consumer-groups --delete --group G..., as Kafka
// 3.7's ConsumerGroupCommand.deleteGroups prints it: each group the
// coordinator deletes (it must be Empty; [cluster.World.CheckDeleteGroup])
// is an action on the timeline, its offsets tombstoned; "Deletion of
// requested consumer groups ('G') was successful.", or the groups that
// could not be deleted and why, with the Java exception the tool prints.
func (t *Terminal) deleteGroups(names []string, at *int64, out io.Writer) error {
	var deleted []string
	type failure struct {
		name string
		err  error
	}
	var failed []failure
	var events strings.Builder
	for _, name := range slices.Compact(slices.Sorted(slices.Values(names))) {
		refused, err := t.actChecked(at, &events, func(w *cluster.World) (cluster.Action, error) {
			return cluster.Action{Kind: cluster.ActDeleteGroup, Name: name}, w.CheckDeleteGroup(name)
		}, "")
		switch {
		case err != nil:
			return err
		case refused != nil:
			failed = append(failed, failure{name, refused})
		default:
			deleted = append(deleted, name)
		}
	}
	quoted := func(ns []string) string { return "'" + strings.Join(ns, "', '") + "'" }
	if len(failed) == 0 {
		fmt.Fprintf(out, "Deletion of requested consumer groups (%s) was successful.\n", quoted(deleted))
		io.WriteString(out, events.String())
		return nil
	}
	fmt.Fprintln(out, "\nError: Deletion of some consumer groups failed:")
	for _, f := range failed {
		fmt.Fprintf(out, "* Group '%s' could not be deleted due to: java.util.concurrent.ExecutionException: %s: %v\n", f.name, javaException(f.err), f.err)
	}
	if len(deleted) > 0 {
		fmt.Fprintf(out, "\nThese consumer groups were deleted successfully: %s\n", quoted(deleted))
	}
	io.WriteString(out, events.String())
	return printedError{failed[0].err}
}

// javaException is the class of the exception Kafka's admin client
// raises for a refusal of the cluster's (Errors' exception of its code):
// a group deletion's, a topic config alteration's
// ([cluster.ConfigRefusal]), an unknown topic.
func javaException(err error) string {
	var r *cluster.ConfigRefusal
	switch {
	case errors.Is(err, cluster.ErrGroupIDNotFound):
		return "org.apache.kafka.common.errors.GroupIdNotFoundException"
	case errors.Is(err, cluster.ErrNonEmptyGroup):
		return "org.apache.kafka.common.errors.GroupNotEmptyException"
	case errors.Is(err, cluster.ErrCoordinatorNotAvailable):
		return "org.apache.kafka.common.errors.CoordinatorNotAvailableException"
	case errors.Is(err, cluster.ErrUnknownTopicOrPartition):
		return javaUnknownTopicOrPartition
	case errors.As(err, &r):
		if class, ok := map[string]string{"INVALID_CONFIG": javaInvalidConfiguration, "INVALID_REQUEST": javaInvalidRequest,
			"POLICY_VIOLATION": javaPolicyViolation, "INVALID_TOPIC_EXCEPTION": javaInvalidTopic}[r.ErrorName()]; ok {
			return class
		}
	}
	return "org.apache.kafka.common.KafkaException"
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

func joinIDs(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	return strings.Join(s, ",")
}
