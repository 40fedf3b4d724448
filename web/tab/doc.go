// Package tab runs kafkalive's live cluster in a browser tab, with no
// server behind the page: the static site's Web Worker (worker.js, which
// loads the WebAssembly build of cmd/kafkalive-wasm) holds the world, and
// the page talks to it by messages instead of HTTP. One page, two
// transports: the page's calls are the server's routes ([web.API]) with
// the same answers, and its update stream is the server's loop
// ([web.Live.Watch]) posting messages instead of Server-Sent Events.
//
// # Messages
//
// The page posts an [In] as a plain object ({op, id, method, path,
// body}): "call" asks a route (the reply is an [Out] "reply" with the
// HTTP status, content type and body the server would answer), "watch"
// starts the updates of the partition a page shows ("update" messages
// until "unwatch"), and "stats" asks for the memory's figures ([Stats]).
// The Worker posts "ready" once the world runs and "log" for what the
// server would write to its standard error.
//
// # The main thread never waits
//
// Go's js/wasm runtime hands the browser its event loop back only when
// every goroutine is blocked, so a long terminal run (run 600000) would
// keep a page that ran the world on its own thread from drawing. The
// world runs in the Worker instead, and the run moves it one simulated
// second at a time ([web.SliceMs]) and yields to the Worker's event loop
// between two steps: the page's messages are read and answered, and its
// updates go on, while the run goes on. The page draws each update on its
// main thread, so a watch sends one per tick of the clock (ten a second)
// and four a second during a long run ([WatchGap], [RunningGap]).
//
// # Bounded memory
//
// WebAssembly's memory grows and never shrinks, so the tab's world keeps
// less than the server's ([Config]): five simulated minutes of timeline,
// 16 MiB of history to replay and 256 MiB brokers' disks; and the Go
// runtime is asked to collect before its memory passes [MemoryLimit]
// (cmd/kafkalive-wasm sets it).
//
// # What a tab cannot do
//
// A tab cannot listen for connections, so the brokers have no Kafka
// listeners: the Kafka clients panel says so and how to run the local
// build, where kcat and franz-go connect. kafka-dump-log in the terminal
// reads the simulated brokers' files, not a real Kafka data directory
// (kafkalive dump-log does, locally). The kit's live mode, where the world
// runs the learner's own code, is the local build's too (go run
// ./exercises/live). Shareable links keep working: the scenario, its step
// and the answers chosen are in the page's URL, and the tab plays the
// scenario again to that step.
package tab
