package web

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
)

// ErrUsage means a terminal command was mistyped; the message says how to
// type it. It is Kafka's tools' own ([kafkatools.ErrUsage]).
var ErrUsage = kafkatools.ErrUsage

// Terminal interprets the commands a user types: Kafka's tools and the
// cluster's verbs. It writes what the command prints; the page and
// "kafkalive shell" share it.
type Terminal struct {
	live *Live
}

// NewTerminal returns a terminal over l.
func NewTerminal(l *Live) *Terminal { return &Terminal{live: l} }

// termCommand is one command: its usage line and what it does.
type termCommand struct {
	usage string
	help  string
	run   func(t *Terminal, args []string, at *int64, out io.Writer) error
}

var termCommands map[string]termCommand

func init() {
	termCommands = map[string]termCommand{
		"help":               {"help", "this list", (*Terminal).help},
		"stop":               {"stop BROKER", "shut a broker down cleanly", brokerVerb(cluster.ActStop)},
		"kill":               {"kill BROKER", "crash a broker's process (the page cache survives)", brokerVerb(cluster.ActKill)},
		"power-cut":          {"power-cut BROKER [--torn]", "cut a broker's power (only synced bytes survive)", (*Terminal).powerCut},
		"start":              {"start BROKER", "start a broker (log recovery, registration); one whose files cannot be loaded does not start, as Kafka's does, and stays failed", (*Terminal).start},
		"writeback":          {"writeback BROKER", "have the OS write a broker's dirty pages to disk", brokerVerb(cluster.ActWriteback)},
		"corrupt":            {"corrupt BROKER FILE OFFSET --flip | --zero N", "damage a file's bytes on the disk of a broker that is down (FILE under /kafka-logs): flip the bits of the byte at OFFSET, or N bytes from it read back as zeros; its next start's recovery meets them", (*Terminal).corrupt},
		"wipe":               {"wipe BROKER PATH", "remove a partition directory or a file of a broker that is down (PATH under /kafka-logs), as rm -rf on its host: what to do when a damaged file stops its start; the next start reads a missing checkpoint as empty and creates a wiped partition's replica empty, which fetches everything from its leader (the only in-sync copy wiped is lost)", (*Terminal).wipe},
		"produce":            {"produce PRODUCER VALUE [--key K] [--partition P] [--timestamp-ms MS]", "send one record now (--timestamp-ms: its CreateTime as the application sets it, a backfill's)", (*Terminal).produce},
		"set-producer":       {"set-producer PRODUCER [--rate R] [--acks 0|1|all] [--keys K1,K2|none]", "change a producer's rate (records a second, 1.5 allowed), acks and keys", (*Terminal).setProducer},
		"add-consumer":       {"add-consumer NAME --group G --topics T[,T] [--protocol classic|consumer] [--remote-assignor uniform|range] [--max-poll-records N] [--isolation read_committed] | add-consumer NAME TOPIC PARTITION [--isolation read_committed]", "add a group member (or a simple consumer of one partition); it polls every second", (*Terminal).addConsumer},
		"add-copier":         {"add-copier NAME TOPIC PARTITION --to TOPIC [--group G] [--transactional-id ID] [--max-poll-records N] [--poll-ms MS]", "add a consume-transform-produce loop (Kafka's TransactionalMessageCopier): a transactional producer that reads TOPIC's PARTITION at read_committed, copies each record to the same partition of --to in a transaction, and commits its group's offsets (--group, default NAME) in the same transaction (--transactional-id, default NAME: a second copier with the same id fences the first)", (*Terminal).addCopier},
		"commit-transaction": {"commit-transaction PRODUCER", "commit a transactional producer's open transaction (a copier's with its offsets)", producerVerb(cluster.ActCommitTransaction)},
		"abort-transaction":  {"abort-transaction PRODUCER", "abort a transactional producer's open transaction (a copier then reads again from its group's committed offset)", producerVerb(cluster.ActAbortTransaction)},
		"remove-consumer":    {"remove-consumer NAME", "close a group member cleanly (it leaves the group)", consumerVerb(cluster.ActCloseConsumer)},
		"crash-consumer":     {"crash-consumer NAME", "kill a group member's process (the group notices after session.timeout.ms)", consumerVerb(cluster.ActCrashConsumer)},
		"poll":               {"poll CONSUMER", "have a consumer read what the leader exposes", (*Terminal).poll},
		"seek":               {"seek GROUP TOPIC earliest|latest|OFFSET", "commit new offsets for an Empty group (kafka-consumer-groups --reset-offsets --execute)", (*Terminal).seek},
		"cut":                {"cut A,B C,D | cut client N [BROKERS]", "cut the network links between two sets of nodes (brokers 1..3, controller 0), or a Kafka client's links (N as the page numbers it; its connections hang until heal)", (*Terminal).cut},
		"heal":               {"heal", "restore every network link", (*Terminal).heal},
		"run":                {"run MS", "move the virtual clock forward", (*Terminal).run},
		"state":              {"state", "print the state in the scenarios' notation (each log's newest 100 records)", (*Terminal).state},
		"events":             {"events [N]", "print the newest N events (default 20)", (*Terminal).events},
	}
	for _, tool := range kafkatools.Tools() {
		termCommands[tool.Name] = termCommand{tool.Usage, tool.Help, kafkaTool(tool)}
	}
}

// Exec runs one command line, its words split and unquoted as a shell
// does ([kafkatools.SplitLine]: 'single' and "double" quotes, backslash escapes). at,
// when set to a moment before now, is the
// moment of the timeline the user acts from: an action forks a new future
// from there. Errors are printed as the tools print them, and returned.
func (t *Terminal) Exec(line string, at *int64, out io.Writer) error {
	args, err := kafkatools.SplitLine(line)
	if err != nil {
		fmt.Fprintf(out, "Error: %v\n", err)
		return err
	}
	if len(args) == 0 {
		return nil
	}
	name := strings.TrimSuffix(args[0], ".sh")
	c, ok := termCommands[name]
	if !ok {
		err := fmt.Errorf("%s: command not found (type help)", args[0])
		fmt.Fprintln(out, err)
		return err
	}
	err = c.run(t, args[1:], at, out)
	var printed kafkatools.Printed
	if errors.Is(err, ErrUsage) {
		if why, ok := strings.CutPrefix(err.Error(), ErrUsage.Error()+": "); ok {
			fmt.Fprintln(out, why) // what was wrong, then how it goes
		}
		fmt.Fprintf(out, "usage: %s\n", c.usage)
	} else if err != nil && !errors.As(err, &printed) {
		fmt.Fprintf(out, "Error: %v\n", err)
	}
	return err
}

// Names returns the commands, sorted (for completion).
func Names() []string {
	out := make([]string, 0, len(termCommands))
	for n := range termCommands {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (t *Terminal) help(args []string, at *int64, out io.Writer) error {
	fmt.Fprintln(out, "Kafka's tools and the cluster's verbs:")
	for _, n := range Names() {
		c := termCommands[n]
		fmt.Fprintf(out, "  %s\n      %s\n", c.usage, c.help)
		for _, e := range termExamples[n] {
			if e.line != c.usage {
				fmt.Fprintf(out, "      e.g. %s\n", e)
			}
		}
	}
	return nil
}

// act applies an action to the world and prints the events it caused.
func (t *Terminal) act(at *int64, out io.Writer, a cluster.Action) error {
	return t.actThen(at, out, a, nil)
}

// actThen is act, then (if set) then on the world it acted on.
func (t *Terminal) actThen(at *int64, out io.Writer, a cluster.Action, then func(*cluster.World)) error {
	return t.live.Do(at, func(w *cluster.World) error {
		from := nextSeq(w)
		if err := w.Do(a); err != nil {
			return err
		}
		evs := eventsSince(w, from)
		if a.Kind == cluster.ActRun {
			evs = quietRun(evs)
		}
		printEvents(out, evs, 20)
		if then != nil {
			then(w)
		}
		return nil
	})
}

// start starts a broker, and says plainly when the start failed (the
// event that says why may be past the lines printed).
func (t *Terminal) start(args []string, at *int64, out io.Writer) error {
	if len(args) != 1 {
		return ErrUsage
	}
	id, err := kafkatools.ParseBroker(args[0])
	if err != nil {
		return err
	}
	return t.actThen(at, out, cluster.Action{Kind: cluster.ActStart, Broker: id}, func(w *cluster.World) {
		if why := w.StartFailure(id); why != "" {
			fmt.Fprintf(out, "broker %d did not start: %s\nIt stays down (failed), its files as they are: wipe %d PATH removes the damaged file or partition directory, then start %d.\n", id, firstLine(why), id, id)
		}
	})
}

// firstLine is s up to its first " (": what failed, without the detail the
// event printed above gives.
func firstLine(s string) string {
	if i := strings.Index(s, " ("); i > 0 {
		return s[:i]
	}
	return s
}

// wipe removes a path under a down broker's /kafka-logs.
func (t *Terminal) wipe(args []string, at *int64, out io.Writer) error {
	if len(args) != 2 {
		return ErrUsage
	}
	id, err := kafkatools.ParseBroker(args[0])
	if err != nil {
		return err
	}
	return t.act(at, out, cluster.Action{Kind: cluster.ActWipe, Broker: id, Name: strings.TrimPrefix(args[1], cluster.LogDir+"/")})
}

// quietRun leaves out what producers and consumers do during a run, and
// high watermark moves: the terminal shows the brokers', the controller's,
// the groups' and the replicas' other events.
func quietRun(evs []cluster.Event) []cluster.Event {
	var out []cluster.Event
	for _, e := range evs {
		if e.Kind != cluster.EventProduce && e.Kind != cluster.EventConsume && !strings.HasPrefix(e.Text, "hw ") {
			out = append(out, e)
		}
	}
	return out
}

// printEvents prints events one a line, leaving out message traces, at
// most max of them.
func printEvents(out io.Writer, evs []cluster.Event, max int) {
	n := 0
	for _, e := range evs {
		if e.Kind == cluster.EventMessage {
			continue
		}
		n++
		if n <= max {
			fmt.Fprintln(out, eventLine(e))
		}
	}
	if n > max {
		fmt.Fprintf(out, "... and %d more (type events)\n", n-max)
	}
}

// eventLine prints an event as the terminal shows it: time, broker,
// partition, what happened.
func eventLine(e cluster.Event) string {
	s := fmt.Sprintf("t=%d", e.TimeMs)
	if e.Broker != 0 {
		s += fmt.Sprintf(" b%d", e.Broker)
	}
	if e.Topic != "" {
		s += fmt.Sprintf(" %s-%d:", e.Topic, e.Partition)
	}
	return s + " " + e.Text
}

func brokerVerb(kind cluster.ActionKind) func(*Terminal, []string, *int64, io.Writer) error {
	return func(t *Terminal, args []string, at *int64, out io.Writer) error {
		if len(args) != 1 {
			return ErrUsage
		}
		id, err := kafkatools.ParseBroker(args[0])
		if err != nil {
			return err
		}
		return t.act(at, out, cluster.Action{Kind: kind, Broker: id})
	}
}

func (t *Terminal) powerCut(args []string, at *int64, out io.Writer) error {
	fl, pos := kafkatools.Flags(args)
	if len(pos) != 1 {
		return ErrUsage
	}
	id, err := kafkatools.ParseBroker(pos[0])
	if err != nil {
		return err
	}
	_, torn := fl["torn"]
	return t.act(at, out, cluster.Action{Kind: cluster.ActPowerCut, Broker: id, Torn: torn})
}

func (t *Terminal) corrupt(args []string, at *int64, out io.Writer) error {
	fl, pos := kafkatools.Flags(args)
	if len(pos) != 3 {
		return ErrUsage
	}
	id, err := kafkatools.ParseBroker(pos[0])
	if err != nil {
		return err
	}
	off, err := strconv.ParseInt(pos[2], 10, 64)
	if err != nil {
		return fmt.Errorf("%w: offset %q is not a number", ErrUsage, pos[2])
	}
	a := cluster.Action{Kind: cluster.ActCorrupt, Broker: id, Name: strings.TrimPrefix(pos[1], cluster.LogDir+"/"), Offset: off}
	_, a.Flip = fl["flip"]
	if z, ok := fl["zero"]; ok {
		if a.N, err = strconv.Atoi(z); err != nil || a.N <= 0 {
			return fmt.Errorf("%w: --zero %q is not a count of bytes", ErrUsage, z)
		}
	}
	if a.Flip == (a.N > 0) {
		return ErrUsage
	}
	return t.act(at, out, a)
}

func (t *Terminal) produce(args []string, at *int64, out io.Writer) error {
	fl, pos := kafkatools.Flags(args)
	if len(pos) != 2 {
		return ErrUsage
	}
	part := int64(-1)
	if p, ok := fl["partition"]; ok {
		var err error
		if part, err = strconv.ParseInt(p, 10, 32); err != nil {
			return ErrUsage
		}
	}
	a := cluster.Action{Kind: cluster.ActProduce, Name: pos[0], Value: pos[1], Key: fl["key"], Partition: int32(part)}
	if s, ok := fl["timestamp-ms"]; ok {
		ts, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return ErrUsage
		}
		a.TimestampMs = &ts
	}
	return t.act(at, out, a)
}

func (t *Terminal) addConsumer(args []string, at *int64, out io.Writer) error {
	fl, pos := kafkatools.Flags(args)
	poll := int64(1000)
	if s, ok := fl["poll-ms"]; ok {
		var err error
		if poll, err = strconv.ParseInt(s, 10, 64); err != nil || poll <= 0 {
			return ErrUsage
		}
	}
	if g, ok := fl["group"]; ok {
		if len(pos) != 1 || g == "" || fl["topics"] == "" {
			return ErrUsage
		}
		c := cluster.ConsumerConfig{Name: pos[0], Group: g, Topics: strings.Split(fl["topics"], ","), PollIntervalMs: poll,
			GroupProtocol: fl["protocol"], RemoteAssignor: fl["remote-assignor"], IsolationLevel: fl["isolation"]}
		if s, ok := fl["max-poll-records"]; ok {
			n, err := strconv.Atoi(s)
			if err != nil || n <= 0 {
				return ErrUsage
			}
			c.MaxPollRecords = n
		}
		return t.act(at, out, cluster.Action{Kind: cluster.ActAddConsumer, Consumer: c})
	}
	if len(pos) != 3 {
		return ErrUsage
	}
	p, err := strconv.ParseInt(pos[2], 10, 32)
	if err != nil {
		return ErrUsage
	}
	c := cluster.ConsumerConfig{Name: pos[0], Topic: pos[1], Partition: int32(p), PollIntervalMs: poll, IsolationLevel: fl["isolation"]}
	return t.act(at, out, cluster.Action{Kind: cluster.ActAddConsumer, Consumer: c})
}

// addCopier adds a copier: add-copier NAME TOPIC PARTITION --to TOPIC.
func (t *Terminal) addCopier(args []string, at *int64, out io.Writer) error {
	fl, pos := kafkatools.Flags(args)
	if len(pos) != 3 {
		return ErrUsage
	}
	if fl["to"] == "" {
		return fmt.Errorf("%w: --to TOPIC says where the copies go", ErrUsage)
	}
	p, err := strconv.ParseInt(pos[2], 10, 32)
	if err != nil {
		return fmt.Errorf("%w: partition %q is no number", ErrUsage, pos[2])
	}
	c := cluster.CopySource{Topic: pos[1], Partition: int32(p), Group: pos[0]}
	if g, ok := fl["group"]; ok {
		c.Group = g
	}
	if s, ok := fl["max-poll-records"]; ok {
		if c.MaxRecords, err = strconv.Atoi(s); err != nil || c.MaxRecords <= 0 {
			return fmt.Errorf("%w: --max-poll-records %q is no positive number", ErrUsage, s)
		}
	}
	if s, ok := fl["poll-ms"]; ok {
		if c.PollIntervalMs, err = strconv.ParseInt(s, 10, 64); err != nil || c.PollIntervalMs <= 0 {
			return fmt.Errorf("%w: --poll-ms %q is no positive number", ErrUsage, s)
		}
	}
	id := pos[0]
	if s, ok := fl["transactional-id"]; ok {
		id = s
	}
	return t.act(at, out, cluster.Action{Kind: cluster.ActAddCopier, Producer: cluster.ProducerConfig{Name: pos[0], Topic: fl["to"], TransactionalID: id, Copy: c}})
}

// producerVerb is a verb on one producer: VERB PRODUCER.
func producerVerb(kind cluster.ActionKind) func(*Terminal, []string, *int64, io.Writer) error {
	return func(t *Terminal, args []string, at *int64, out io.Writer) error {
		if len(args) != 1 {
			return ErrUsage
		}
		return t.act(at, out, cluster.Action{Kind: kind, Name: args[0]})
	}
}

func consumerVerb(kind cluster.ActionKind) func(*Terminal, []string, *int64, io.Writer) error {
	return func(t *Terminal, args []string, at *int64, out io.Writer) error {
		if len(args) != 1 {
			return ErrUsage
		}
		return t.act(at, out, cluster.Action{Kind: kind, Name: args[0]})
	}
}

func (t *Terminal) poll(args []string, at *int64, out io.Writer) error {
	if len(args) != 1 {
		return ErrUsage
	}
	return t.act(at, out, cluster.Action{Kind: cluster.ActPoll, Name: args[0]})
}

func (t *Terminal) cut(args []string, at *int64, out io.Writer) error {
	if len(args) > 0 && args[0] == "client" {
		return t.cutClient(args[1:], at, out)
	}
	if len(args) != 2 {
		return ErrUsage
	}
	a, err := nodeList(args[0])
	if err != nil {
		return err
	}
	b, err := nodeList(args[1])
	if err != nil {
		return err
	}
	return t.act(at, out, cluster.Action{Kind: cluster.ActPartition, A: a, B: b})
}

func nodeList(s string) ([]int32, error) {
	var out []int32
	for _, f := range strings.Split(s, ",") {
		id, err := kafkatools.ParseBroker(f)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

func (t *Terminal) heal(args []string, at *int64, out io.Writer) error {
	return t.act(at, out, cluster.Action{Kind: cluster.ActHeal})
}

func (t *Terminal) run(args []string, at *int64, out io.Writer) error {
	if len(args) != 1 {
		return ErrUsage
	}
	ms, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil || ms <= 0 || ms > 3_600_000 {
		return fmt.Errorf("%w: MS from 1 to 3600000", ErrUsage)
	}
	return t.runSliced(at, ms, out)
}

// stateTail is how many of each replica log's newest records the state
// command lists: a log a client filled with millions prints its count of
// the others, not every one of them; a value longer than PreviewBytes
// prints its first bytes and its size.
const stateTail = 100

func (t *Terminal) state(args []string, at *int64, out io.Writer) error {
	return t.look(at, func(w *cluster.World) error {
		_, err := io.WriteString(out, w.StateWith(cluster.StateOptions{Tail: stateTail, Preview: PreviewBytes}).Text())
		return err
	})
}

func (t *Terminal) events(args []string, at *int64, out io.Writer) error {
	n := 20
	if len(args) == 1 {
		var err error
		if n, err = strconv.Atoi(args[0]); err != nil || n < 1 {
			return ErrUsage
		}
	}
	return t.look(at, func(w *cluster.World) error {
		var keep []cluster.Event
		evs := w.Events()
		for i := len(evs) - 1; i >= 0 && len(keep) < n; i-- {
			if evs[i].Kind != cluster.EventMessage {
				keep = append(keep, evs[i])
			}
		}
		for i := len(keep) - 1; i >= 0; i-- {
			fmt.Fprintln(out, eventLine(keep[i]))
		}
		return nil
	})
}

// look runs fn on the world shown at time at (nil: now), without acting.
func (t *Terminal) look(at *int64, fn func(w *cluster.World) error) error {
	return t.live.Look(at, fn)
}
