package web

import (
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// termExample is a line help offers, and the lines it needs typed before
// it on the default world.
type termExample struct {
	line  string
	after []string
}

// String is the example as help prints it.
func (e termExample) String() string {
	if len(e.after) == 0 {
		return e.line
	}
	return e.line + "   (after " + strings.Join(e.after, "; ") + ")"
}

// ex is an example without lines before it.
func ex(lines ...string) []termExample {
	out := make([]termExample, len(lines))
	for i, l := range lines {
		out[i] = termExample{line: l}
	}
	return out
}

// termExamples are the lines help offers for each command, each one
// that works on the default world (a test types every one).
var termExamples = map[string][]termExample{
	"help":                  ex("help"),
	"kafka-topics":          ex("kafka-topics --describe --topic orders", "kafka-topics --list", "kafka-topics --create --topic events --partitions 3 --replication-factor 3 --config retention.ms=60000", "kafka-topics --alter --topic orders --partitions 6"),
	"kafka-configs":         configsExamples(),
	"kafka-consumer-groups": append(ex("kafka-consumer-groups --describe --group billing", "kafka-consumer-groups --list", "kafka-consumer-groups --list --type --state"), termExample{line: "kafka-consumer-groups --delete --group search-index", after: []string{"remove-consumer indexer", "run 1000"}}),
	"kafka-metadata-quorum": ex("kafka-metadata-quorum --bootstrap-server localhost:9092 describe --status", "kafka-metadata-quorum describe --replication"),
	"kafka-transactions":    ex("kafka-transactions list", "kafka-transactions describe-producers --topic orders --partition 0", "kafka-transactions find-hanging --topic orders"),
	"kafka-dump-log":        dumpLogExamples(),
	"stop":                  ex("stop 3"),
	"kill":                  ex("kill 2"),
	"power-cut":             ex("power-cut 2 --torn"),
	"start":                 {{line: "start 2", after: []string{"stop 2"}}},
	"writeback":             ex("writeback 1"),
	"corrupt":               {{line: "corrupt 2 /kafka-logs/orders-0/00000000000000000000.log 17 --flip", after: []string{"stop 2"}}},
	"wipe":                  {{line: "wipe 2 /kafka-logs/orders-0", after: []string{"stop 2"}}},
	"produce":               ex(`produce checkout "hello world" --key alice`, `produce clicks 'it'\''s a click' --partition 1`),
	"set-producer":          ex("set-producer clicks --rate 5 --acks all --keys none"),
	"add-consumer":          ex("add-consumer billing-3 --group billing --topics orders", "add-consumer fast-1 --group fast --topics orders --protocol consumer", "add-consumer reader orders 0", "add-consumer audit orders 0 --isolation read_committed"),
	"add-copier":            {{line: "add-copier mirror profiles 0 --to orders"}, {line: "add-copier audit-copy orders 1 --to audit --group audit --max-poll-records 5", after: []string{"kafka-topics --create --topic audit --partitions 3 --replication-factor 3"}}},
	"commit-transaction":    {{line: "commit-transaction mirror", after: []string{"add-copier mirror profiles 0 --to orders", "run 2000"}}},
	"abort-transaction":     {{line: "abort-transaction mirror", after: []string{"add-copier mirror profiles 0 --to orders", "run 2000"}}},
	"remove-consumer":       ex("remove-consumer billing-2"),
	"crash-consumer":        ex("crash-consumer billing-1"),
	"poll":                  {{line: "poll reader", after: []string{"add-consumer reader orders 0"}}},
	"seek":                  {{line: "seek search-index profiles earliest", after: []string{"remove-consumer indexer", "run 1000"}}},
	"cut":                   ex("cut 1 2,3"),
	"heal":                  ex("heal"),
	"run":                   ex("run 1000"),
	"state":                 ex("state"),
	"events":                ex("events 5"),
}

// configsExamples are kafka-configs' examples: a topic's configs, setting
// two (a list in square brackets), deleting one the topic sets.
func configsExamples() []termExample {
	return append(ex("kafka-configs --describe --entity-type topics --entity-name orders --all",
		"kafka-configs --alter --entity-type topics --entity-name orders --add-config retention.ms=60000,cleanup.policy=[compact,delete]"),
		termExample{line: "kafka-configs --alter --topic orders --delete-config retention.ms", after: []string{"kafka-configs --alter --topic orders --add-config retention.ms=60000"}})
}

// dumpLogFiles are the files of a broker's log directory kafka-dump-log
// reads, as help offers them: a partition's segment files and leader
// epoch checkpoint, and the checkpoints at the directory's root.
var dumpLogFiles = []string{
	cluster.LogDir + "/orders-0/00000000000000000000.log",
	cluster.LogDir + "/orders-0/00000000000000000000.index",
	cluster.LogDir + "/orders-0/00000000000000000000.timeindex",
	cluster.LogDir + "/orders-0/leader-epoch-checkpoint",
	cluster.LogDir + "/" + kafkalog.ReplicationOffsetCheckpointFile,
	cluster.LogDir + "/" + kafkalog.RecoveryPointCheckpointFile,
}

func dumpLogExamples() []termExample {
	out := ex("kafka-dump-log --files " + dumpLogFiles[0] + " --print-data-log")
	for _, f := range dumpLogFiles[1 : len(dumpLogFiles)-1] {
		out = append(out, ex("kafka-dump-log --files "+f)...)
	}
	return append(out, termExample{line: "kafka-dump-log --files " + dumpLogFiles[len(dumpLogFiles)-1] + " --broker 3", after: []string{"stop 3"}})
}
