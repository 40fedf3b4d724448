package kafkatools

import (
	"errors"
	"io"

	"github.com/kafkalive/kafkalive/cluster"
)

// Session is where a tool runs: the world at the moment the user looks
// from, and the actions a tool takes on it.
type Session interface {
	// Look runs fn on the world shown (now, or a moment of the past),
	// changing nothing.
	Look(fn func(w *cluster.World) error) error
	// Do runs fn on the world to act on: the present, or a new future
	// forked from the moment shown; fn's error drops that fork.
	Do(fn func(w *cluster.World) error) error
	// Act applies the action check returns, then prints done and the
	// events it caused to out. A refusal from check is returned as
	// refused, and the world stays as it was (no fork); err is a failure
	// to act.
	Act(out io.Writer, check func(w *cluster.World) (cluster.Action, error), done string) (refused, err error)
}

// ErrUsage means a command was mistyped; the message says how to type it
// (after "usage: "), and the caller prints the tool's usage line.
var ErrUsage = errors.New("usage")

// Printed is an error a tool has already printed the way Kafka's prints
// it: the caller does not print it again.
type Printed struct{ Err error }

func (e Printed) Error() string { return e.Err.Error() }
func (e Printed) Unwrap() error { return e.Err }

// Tool is one of Kafka's tools: how it is typed, what it does, and how it
// runs.
type Tool struct {
	// Name is the command's name, e.g. "kafka-topics" (a line may add
	// ".sh").
	Name string
	// Usage is its usage line; Help says what it does.
	Usage, Help string
	// Run runs the tool with the words after its name, printing to out.
	// An error is [ErrUsage] (wrapped with what was wrong), a [Printed]
	// one, or another the caller prints.
	Run func(s Session, args []string, out io.Writer) error
}

// Tools lists Kafka's tools the terminal offers, by name.
func Tools() []Tool {
	return []Tool{
		{"kafka-configs", "kafka-configs --describe --entity-type topics [--entity-name T] [--all] | --alter --entity-type topics --entity-name T [--add-config K=V,K2=[V1,V2]] [--delete-config K,K2]   (--topic T for --entity-type topics --entity-name T)", "describe a topic's configs with their sources and synonyms (--all: every config, not only the topic's own), or alter them while the cluster runs, as Kafka's kafka-configs.sh does: --add-config sets a config, --delete-config gives it back to the brokers' value, and the brokers apply it at once (an alter-configs action on the timeline); the brokers' own configs are static", Configs},
		{"kafka-consumer-groups", "kafka-consumer-groups --describe --group G [--members | --state] [--verbose] | --list [--type [classic|consumer]] [--state [S,...]] | --reset-offsets --group G --topic T --to-earliest|--to-latest|--to-offset N [--execute] | --delete --group G [--group G2]...", "describe consumer groups, move a group's committed offsets or delete the group with them, while it is Empty (kafka-consumer-groups.sh)", ConsumerGroups},
		{"kafka-dump-log", "kafka-dump-log --files /kafka-logs/T-P/00000000000000000000.log [--broker N] [--print-data-log] [--offsets-decoder] [--transaction-log-decoder]", "print a broker's segment, index or checkpoint files (kafka-dump-log.sh; the partition's leader unless --broker, the first running broker for the checkpoints at the root of /kafka-logs)", DumpLog},
		{"kafka-metadata-quorum", "kafka-metadata-quorum [--bootstrap-server B] describe --status | --replication [--human-readable]", "the metadata quorum: which broker runs the active controller (LeaderId) and the voters (--status), and how far each voter's metadata log is behind the leader's (--replication)", MetadataQuorum},
		{"kafka-transactions", "kafka-transactions list | describe --transactional-id ID | describe-producers --topic T --partition P [--broker-id N] | find-hanging --topic T [--partition P] | --broker-id N [--max-transaction-timeout MIN] | abort --topic T --partition P --start-offset N | --producer-id ID --producer-epoch E --coordinator-epoch C", "the transactions the coordinators keep (list, describe), what a partition's log knows of its producers and their open transactions (describe-producers), the transactions left open on a partition that no coordinator will end (find-hanging), and an ABORT marker for one of them written by the partition's leader (abort, an action on the timeline), as Kafka's kafka-transactions.sh does", Transactions},
		{"kafka-topics", "kafka-topics --describe [--topic T] [--exclude-internal] [--under-replicated-partitions] [--unavailable-partitions] [--under-min-isr-partitions] [--at-min-isr-partitions] | --list [--exclude-internal] | --create --topic T [--partitions N] [--replication-factor R] [--config K=V]... [--if-not-exists] | --alter --topic T --partitions N [--if-exists] | --delete --topic T", "describe, list, create, grow or delete topics as Kafka's kafka-topics.sh does (without --partitions or --replication-factor, the brokers' num.partitions and default.replication.factor: 1; without --config segment.bytes=N, 2 MiB segments; after --alter, a key's new records may go to another partition; a topic a producer or a simple consumer of the world uses cannot be deleted)", Topics},
	}
}
