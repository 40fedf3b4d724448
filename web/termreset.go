package web

import (
	"fmt"
	"io"
	"strconv"

	"github.com/kafkalive/kafkalive/cluster"
)

// resetOffsets is kafka-consumer-groups --reset-offsets --group G --topic
// T --to-earliest | --to-latest | --to-offset N [--execute]: without
// --execute it only prints the plan, as Kafka's tool does.
func (t *Terminal) resetOffsets(fl map[string]string, at *int64, out io.Writer) error {
	r, err := parseReset(fl)
	if err != nil {
		return err
	}
	if _, ok := fl["execute"]; !ok {
		fmt.Fprintln(out, "WARN: No action will be performed as the --execute option is missing. In a future major release, the default behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting.")
		return t.look(at, func(w *cluster.World) error { return printReset(w, r, out) })
	}
	return t.live.Do(at, func(w *cluster.World) error {
		if err := printReset(w, r, out); err != nil {
			return err
		}
		return w.ResetOffsets(r)
	})
}

// seek is the short form: seek GROUP TOPIC earliest|latest|OFFSET.
func (t *Terminal) seek(args []string, at *int64, out io.Writer) error {
	if len(args) != 3 {
		return ErrUsage
	}
	fl := map[string]string{"group": args[0], "topic": args[1], "execute": ""}
	switch args[2] {
	case "earliest", "latest":
		fl["to-"+args[2]] = ""
	default:
		fl["to-offset"] = args[2]
	}
	return t.resetOffsets(fl, at, out)
}

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
