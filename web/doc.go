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
// [cluster.World.AtTime]; acting while the page shows the past forks a new
// future from there ([Live.Exec] with a time).
//
// The terminal ([Terminal]) is plain Go over a Live, so "kafkalive shell"
// offers the same commands on stdin and stdout.
//
// # Measured
//
// On one core of the development machine (TestMeasureHour, BenchmarkUpdate,
// and the browser test TestPageKeepsUpWithUpdates): the page renders the
// server's 10 updates a second, about 4.5 KB each in the first minutes and
// 11-12 KB after a simulated hour (the tail of each log, the groups' lags,
// the last events), 3-9 ms in the browser to parse and render one. After a
// simulated hour an update costs about 10 ms to build and encode (most of
// it World.State), the heap is about 50 MiB and grows about 0.8 MiB per
// simulated minute (the cluster keeps every event, action and producer
// result: 172 340 events and 36 009 actions after an hour), and a moment
// of the timeline takes seconds to rebuild (World.AtTime replays from the
// start: 0.3 s at one minute, about 5-9 s at an hour). Snapshots in the
// cluster would bound both.
package web
