// Package web serves kafkalive's live cluster as a web page: the brokers,
// the producers, a partition in detail with every replica's log, the
// timeline, the guided scenarios, the notes and a terminal that speaks
// Kafka's tools (kafka-topics, kafka-consumer-groups, kafka-dump-log) and
// the cluster's own verbs.
//
// The page renders, the cluster decides: every figure on the page comes
// from [cluster.World.State] (through the one adapter in world.go and the
// compact [View] built from it); the page computes no Kafka rule.
//
// A [Live] owns one [cluster.World] behind a mutex. The world has no clock
// and no goroutines; [Live.Advance] moves its virtual time and the server's
// one ticker ([Server.Run]) calls it at wall-clock pace. Every tick yields
// one update, a compact View of a few kilobytes (the last records of the
// partition shown, not the whole history), streamed to the page as
// Server-Sent Events at /api/stream.
//
// The timeline is the cluster's: a moment in the past is rebuilt with
// [cluster.World.AtTime] from the nearest snapshot; acting while the page
// shows the past forks a new future from there ([Live.Exec] with a time).
// The default world ([DefaultTimeline]) snapshots every 10 simulated
// seconds, thins snapshots older than a minute to one per two minutes and
// keeps ten minutes: the slider starts at the oldest moment kept
// ([View.StartMs]), and older moments, events and producer results fall
// off (the producers' counts keep them).
//
// The terminal ([Terminal]) is plain Go over a Live, so "kafkalive shell"
// offers the same commands on stdin and stdout: Kafka's kafka-topics
// (with topic ids, and __consumer_offsets when named),
// kafka-consumer-groups (--describe, --list, --reset-offsets),
// kafka-dump-log on a broker's files (internal/dumplog over
// [cluster.World.BrokerFS]), and the cluster's verbs (set-producer, seek,
// stop, kill, power-cut...).
//
// # Measured
//
// On the development machine (2 shared cores; TestMeasureHour with
// KAFKALIVE_MEASURE=1, BenchmarkUpdate, and the browser test
// TestPageKeepsUpWithUpdates): the page renders about 9-10 of the
// server's 10 updates a second, about 5 KB each in the first minutes and
// 12 KB after a simulated hour, 3-5 ms in the browser to parse and render
// one; an update costs 3-6 ms to build and encode after an hour. The heap
// stays at about 35 MiB from the twentieth simulated minute on (12
// snapshots of about 2 MB, ten minutes of events; before snapshots it was
// 49 MiB after an hour and grew 0.8 MiB a minute), 44 MiB with a past
// moment cached. A moment of the timeline takes 10-60 ms to rebuild in the
// last minute and at most about 0.3 s further back (a replay of up to two
// simulated minutes from a sparse snapshot; it took 5-9 s at an hour when
// AtTime replayed from the start). A clone of the world costs about 7 ms.
package web
