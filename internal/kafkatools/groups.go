package kafkatools

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// ConsumerGroups is kafka-consumer-groups.sh: --list [--type [T,...]]
// [--state [S,...]] (listgroups.go), or --describe
// --group G (with --members or --state, each with [--verbose]), in the
// layout of the world's brokers' Kafka ([DescribeGroup], [LayoutOf]); --reset-offsets
// ([ResetOffsets]); --delete --group G [--group G2]... (deleteGroups).
func ConsumerGroups(s Session, args []string, out io.Writer) error {
	fl, _ := Flags(args)
	if _, ok := fl["reset-offsets"]; ok {
		return ResetOffsets(s, fl, out)
	}
	if _, ok := fl["delete"]; ok {
		names := Repeated(args, "group")
		if len(names) == 0 {
			//lint:ignore ST1005 the usage line's own syntax
			return fmt.Errorf("%w: --delete --group G [--group G2]...", ErrUsage)
		}
		return deleteGroups(s, names, out)
	}
	_, list := fl["list"]
	_, describe := fl["describe"]
	group, named := fl["group"]
	if list == describe || describe && !named {
		return ErrUsage
	}
	mode := DescribeOffsets
	if _, ok := fl["members"]; ok {
		mode = DescribeMembers
		if _, ok := fl["verbose"]; ok {
			mode = DescribeMembersVerbose
		}
	} else if _, ok := fl["state"]; ok {
		mode = DescribeState
		if _, ok := fl["verbose"]; ok {
			mode = DescribeStateVerbose
		}
	}
	return s.Look(func(w *cluster.World) error {
		groups := w.Groups()
		if list {
			return ListGroups(out, groups, args, LayoutOf(w.Config()))
		}
		for _, g := range groups {
			if g.Name == group {
				_, err := io.WriteString(out, DescribeGroup(groups, group, mode, LayoutOf(w.Config())))
				return err
			}
		}
		return kafkaMessagef("Consumer group '%s' does not exist.", group)
	})
}

// LayoutOf is the layout of the tools of a world under cfg: Kafka 4's when
// its brokers are Kafka 4's (they serve the consumer group protocol,
// [cluster.Config.ConsumerGroupProtocol]), Kafka 3.7's otherwise.
func LayoutOf(cfg cluster.Config) Layout {
	if cfg.ConsumerGroupProtocol() {
		return Layout4
	}
	return Layout37
}

// deleteGroups is kafka-consumer-groups --delete --group G..., as Kafka
// 3.7's ConsumerGroupCommand.deleteGroups prints it: each group the
// coordinator deletes (it must be Empty; [cluster.World.CheckDeleteGroup])
// is an action on the timeline, its offsets tombstoned; "Deletion of
// requested consumer groups ('G') was successful.", or the groups that
// could not be deleted and why, with the Java exception the tool prints.
func deleteGroups(s Session, names []string, out io.Writer) error {
	var deleted []string
	type failure struct {
		name string
		err  error
	}
	var failed []failure
	var events strings.Builder
	for _, name := range slices.Compact(slices.Sorted(slices.Values(names))) {
		refused, err := s.Act(&events, func(w *cluster.World) (cluster.Action, error) {
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
	return Printed{failed[0].err}
}

// ResetOffsets is kafka-consumer-groups --reset-offsets --group G --topic
// T --to-earliest | --to-latest | --to-offset N [--execute], its flags as
// [Flags] reads them: without --execute it only prints the plan, as
// Kafka's tool does; with it, it commits the offsets
// ([cluster.World.ResetOffsets]).
func ResetOffsets(s Session, fl map[string]string, out io.Writer) error {
	r, err := parseReset(fl)
	if err != nil {
		return err
	}
	if _, ok := fl["execute"]; !ok {
		fmt.Fprintln(out, "WARN: No action will be performed as the --execute option is missing. In a future major release, the default behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting.")
		return toolMessage(s.Look(func(w *cluster.World) error { return printReset(w, r, out) }))
	}
	err = s.Do(func(w *cluster.World) error {
		if err := printReset(w, r, out); err != nil {
			return err
		}
		return w.ResetOffsets(r)
	})
	return toolMessage(err)
}

// toolMessage is err as the tool prints it: the message of a Kafka error
// the world carries (cluster.KafkaError), without the world's own prefix;
// any other error as it is.
func toolMessage(err error) error {
	if ke := (*cluster.KafkaError)(nil); errors.As(err, &ke) {
		return kafkaMessage(ke.Message)
	}
	return err
}

// parseReset reads --reset-offsets' flags.
func parseReset(fl map[string]string) (cluster.OffsetReset, error) {
	r := cluster.OffsetReset{Group: fl["group"], Topic: fl["topic"]}
	if r.Group == "" || r.Topic == "" {
		return r, fmt.Errorf("%w: --reset-offsets needs --group and --topic", ErrUsage)
	}
	_, earliest := fl["to-earliest"]
	_, latest := fl["to-latest"]
	off, toOffset := fl["to-offset"]
	switch {
	case earliest && !latest && !toOffset:
		r.To = cluster.ResetEarliest
	case latest && !earliest && !toOffset:
		r.To = cluster.ResetLatest
	case toOffset && !earliest && !latest:
		n, err := strconv.ParseInt(off, 10, 64)
		if err != nil || n < 0 {
			return r, fmt.Errorf("%w: --to-offset takes an offset", ErrUsage)
		}
		r.To, r.Offset = cluster.ResetToOffset, n
	default:
		return r, fmt.Errorf("%w: one of --to-earliest, --to-latest, --to-offset N", ErrUsage)
	}
	return r, nil
}

// printReset prints the plan in the tool's layout.
func printReset(w *cluster.World, r cluster.OffsetReset, out io.Writer) error {
	plan, err := w.PlanReset(r)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%-30s %-30s %-10s %-15s\n", "GROUP", "TOPIC", "PARTITION", "NEW-OFFSET")
	for _, p := range plan {
		fmt.Fprintf(out, "%-30s %-30s %-10d %-15d\n", r.Group, p.Topic, p.Partition, p.Offset)
	}
	return nil
}
