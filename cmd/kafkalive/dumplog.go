package main

import (
	"io"

	"github.com/kafkalive/kafkalive/internal/kafkatools/dumplog"
	"github.com/kafkalive/kafkalive/vfs"
)

// dump-log is Kafka's kafka-dump-log.sh over the OS's files; the formatter
// is internal/kafkatools/dumplog, which the live cluster's terminal shares.

func init() {
	register(command{
		name:    "dump-log",
		summary: "print Kafka log segments, indexes, snapshots and checkpoints (kafka-dump-log.sh)",
		run:     runDumpLog,
	})
}

func runDumpLog(args []string, stdout, stderr io.Writer) int {
	return dumplog.Run(vfs.Default, args, stdout, stderr)
}
