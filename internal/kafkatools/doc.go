// Package kafkatools is Kafka's command-line tools as the simulated
// cluster's terminal runs them: kafka-topics (TopicCommand),
// kafka-consumer-groups (ConsumerGroupCommand), kafka-configs
// (ConfigCommand), kafka-metadata-quorum (MetadataQuorumCommand) and
// kafka-dump-log (DumpLogSegments, over subpackage dumplog). Each reads its
// arguments as the Kafka 3.7 tool does (joptsimple's rules where they
// matter: kafka-configs' options, --add-config's brackets) and prints
// what that tool prints, byte for byte where Kafka's layout is known
// (columns, widths, the "Error while executing ..." lines, the Java
// exception a refusal raises in Kafka's admin client).
//
// The simulation core (package cluster) never produces a tool's text:
// the tools read the World's public API ([cluster.World.State], Groups,
// TopicPartitions, TopicConfigs...) and ask it for actions checked the way
// Kafka's brokers and controller check them ([cluster.World.NewTopicSpec],
// AlterTopicConfigs, CheckDeleteGroup...). Where and when a tool runs is
// the caller's: a [Session] shows the world at one moment and takes the
// actions a tool asks for (the page's terminal, in package web, shows a
// moment of the timeline and forks a new future from it).
//
// A terminal line is split into words as a POSIX shell splits them
// ([SplitLine]), and its flags read by one convention ([Flags]); [Tools]
// lists the tools with their usage lines.
package kafkatools
