// Package dumplog is Kafka's kafka-dump-log.sh (kafka.tools.DumpLogSegments)
// over any [vfs.FS]: it prints the contents of segment files, offset and
// time indexes, producer snapshots and, beyond Kafka's tool, checkpoint
// files, in Kafka's words so that the two outputs can be diffed. The
// command "kafkalive dump-log" runs it on the OS's files, and the live
// cluster's terminal on a simulated broker's files.
package dumplog
