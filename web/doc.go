// Package web serves kafkalive's live cluster as a web page: the brokers,
// the producers, a partition in detail with every replica's log, the
// timeline, the guided scenarios, the notes and a terminal that speaks
// Kafka's tools (kafka-topics, kafka-configs, kafka-consumer-groups,
// kafka-dump-log) and the cluster's own verbs.
//
// The page renders, the cluster decides: every figure on the page comes
// from [cluster.World.State] (through the one adapter in world.go and the
// compact [View] built from it); the page computes no Kafka rule.
//
// A [Live] owns one [cluster.World] behind a mutex. The world has no clock
// and no goroutines; [Live.Advance] moves its virtual time and the server's
// one ticker ([Server.Run]) calls it at wall-clock pace. Every tick yields
// one update, a compact View (the last records of the partition shown, one
// page of the partition table, not the whole history), of which the page
// gets what changed since its last (see "The update stream") as
// Server-Sent Events at /api/stream.
//
// The timeline is the cluster's: a moment in the past is rebuilt with
// [cluster.World.AtTime] from the nearest snapshot; acting while the page
// shows the past forks a new future from there ([Live.Exec] with a time),
// only if the action succeeds there: a line that fails (stop 99) leaves
// the future as it was, and one that forks says how much it discarded
// ([Fork]; the page says it before, "acting here discards the 42 s after
// it").
// The default world ([defaultworld.Config]) snapshots every 10 simulated
// seconds, thins snapshots older than a minute to one per two minutes and
// keeps ten minutes: the slider starts at the oldest moment kept
// ([View.StartMs]), and older moments, events and producer results fall
// off (the producers' counts keep them).
//
// The terminal ([Terminal]) is plain Go over a Live, so "kafkalive shell"
// offers the same commands on stdin and stdout, each line split as a
// POSIX shell splits words ('single' and "double" quotes, backslash
// escapes, nothing expanded; an unclosed quote is
// [github.com/kafkalive/kafkalive/internal/kafkatools.ErrUnclosedQuote]);
// help gives an example of every command, and a test types each one:
// Kafka's tools, whose arguments and output are package
// internal/kafkatools's (kafka-topics with topic ids and
// __consumer_offsets, kafka-configs with a topic's configs and their
// synonyms, kafka-consumer-groups, kafka-metadata-quorum, kafka-dump-log
// on a broker's files), and the cluster's verbs (set-producer, seek,
// stop, kill, power-cut...). The terminal only dispatches a line: it runs
// a Kafka tool in a session of its own, the moment the page shows, where
// an action the tool takes (kafka-configs --alter is an alter-configs
// action of the world) forks a new future.
//
// A long "run MS" moves the world [SliceMs] (a simulated second) at a
// time and releases the lock between steps ([Live.RunFor]): views, the
// stream, pause and Reset go on while an hour is simulated, and the clock's
// ticks wait for the run. A record's key or value, a producer result's
// value, an event's or a mark's text longer than [PreviewBytes] (or
// [TextPreviewBytes]) goes to the page as its first bytes and its size
// (RecordView.Size), so that a 9 MB value does not make every update 9 MB;
// the world lists the records the page shows already cut
// ([cluster.StateOptions] Preview), decompressing a batch no further than
// its previews need and keeping nothing, so that a client's gzip batches
// of one 60 MiB value each (60 KB on the wire) are shown from a few
// kilobytes of each, never decoded whole under the world's lock.
//
// # The update stream
//
// The page follows the present through a stream of frames ([Frame], JSON),
// Server-Sent Events at /api/stream (event "frame") or a Web Worker's
// "update" messages, the same bytes under both, at most one per update
// interval (ten a second) however often the world changes ([Watch]):
//
//   - the first frame of a stream is the whole update,
//     {"seq":1,"full":UPDATE}, UPDATE being what /api/view answers (an
//     [Update]) for the same query;
//   - every frame after patches the one before:
//     {"seq":N,"base":N-1,"set":{FIELD:VALUE,...},"del":[FIELD,...],
//     "lists":{LIST:{"put":{ID:ENTITY,...},"ids":[ID,...]},...}}. set holds
//     the update's fields that changed, whole ("t", "detail", "events",
//     "session"...), del those that are gone, and lists patches the four
//     lists of entities ([Lists]): "brokers" by id ("1"), "parts" (the
//     partition table's rows of the page shown) by topic and partition
//     ("orders-0"), "producers" and "groups" by name. put holds the
//     entities new or changed, keyed by id; ids, when the list's members
//     or their order changed, is its ids in order (an entity not named is
//     gone). A frame of nothing changed is not sent.
//   - every entity carries its version ("v"), a number that changes
//     exactly when the entity does ([Versions]): a stream sends an entity
//     again only when its version differs from the one it sent.
//
// The page holds the update of the last frame it applied ([Store];
// static/js/viewstore.js, the same rules): a frame whose base is not the
// page's last (one was missed), or that names an entity it neither holds
// nor is sent, is refused ([ErrResync]), and the page opens the stream
// again, which starts with the whole update; so does a page whose
// connection broke. An update whole is at most a few tens of kilobytes
// whatever the cluster holds (see "Many partitions"), and a patch is what
// changed: the clock, the records of the partition shown, the rows that
// moved.
//
// Anything that can make [Update]s can feed the page: it implements
// [Source] (a change notice, a version, the present's update for a focus,
// encoded by a [Versions] of its own) and [Watch] streams it. The page of
// a real cluster observed from outside (kafkalive observe --addr, package
// web/observed) is one: its updates are the same View, Mode
// [ModeObserved], every figure the cluster did not tell [NotObserved],
// and [ObservedView] saying which sample it is and why nothing acts; the
// page then draws its panels read-only.
//
// # Many partitions
//
// The partition table shows [PageRows] rows at a time: the page asks for
// the partitions of the topics whose name contains a text, in a state
// kafka-topics --describe filters by (under-replicated, unavailable,
// under min ISR, at min ISR), led by a broker, sorted by topic, leader,
// missing replicas or lag, and a page of them ([TableQuery]: the query
// parameters parts_topic, parts_status, parts_leader, parts_sort and
// parts_page of /api/view and /api/stream); the update says how many
// match and sums up each topic in a line ([TableView], at most
// [MaxTopicsShown] topics). A group lists at most [MaxOffsetsShown] of its
// committed offsets (those that lag the most) and a member at most
// [MaxMemberPartitionsShown] of its partitions; kafka-topics and
// kafka-consumer-groups in the terminal list everything. The page's DOM is
// then the same size with ten partitions or ten thousand.
//
// # One API, two transports
//
// The page's calls (/api/view, /api/exec, the scenarios, the notes...) are
// one route table, [API]: [Server] serves it over HTTP, and in a browser
// tab the Web Worker of the static site (kafkalive static, package
// web/tab) answers the same calls from the page's messages, with the same
// statuses and bodies. The update stream is [Live.Watch] under both:
// Server-Sent Events here, messages there; the clock is [Live.RunClock].
// Built for the browser (GOOS=js), the package leaves out what a tab
// cannot run: the HTTP server, the Kafka listeners and the kit's live mode
// (tab_js.go says what stands in for them).
//
// # One session, every tab
//
// The server holds the page's [Session]: the guided scenario being played
// (none: the live world), how many of its steps were played and the choice
// made at each. Every update, from /api/view and from the stream, carries
// it ([Update]), and the stream sends one at every change (a scenario
// started, a step played, Reset, leaving), so every tab shows the same
// step, and a reload finds it again. The page keeps it in its URL too
// (?scenario=kip101-part3&step=2&answers=0,2): a server started afresh
// plays the scenario again to that step with those answers
// ([Live.StartScenario]; the steps are deterministic); while the server
// plays a scenario, the server wins. A step asked for with a session the
// server no longer has (another tab reset or left, or played that step
// first) is refused with 409, why, and the server's session, which the
// page then shows. Before a step with a question is played, the page gets
// its title, narration, question and choices only ([PendingStep]); its
// actions, the answer and why come once it is played ([PlayedStep]).
//
// # Internal errors
//
// An internal error (a bug of the simulation, never the user's doing)
// stops nothing silently. The cluster records it and goes on
// ([cluster.World.InternalErrors]); a world whose run itself fails stops.
// Either way the view carries the newest one ([View.Internal]): the page
// shows it in a banner with the shell command that replays the world from
// its start (the terminal lines typed on the page and the clock's runs,
// kept by [Live.Exec] and [Live.Advance], cut where acting from the past
// forked), and [Server.Run] writes it to [Server.Log]. The server's clock
// never stops on one, so Reset always gives a running world.
//
// # Who may drive the cluster
//
// The server answers its own page only; anyone who can reach its address
// can drive the cluster, so kafkalive serve listens on 127.0.0.1 and
// warns when --addr is not a loopback address. Before any route runs
// ([Server.ServeHTTP]):
//
//   - a request whose Host is not the address the connection came in on,
//     localhost, 127.0.0.1 or [::1] with its port, or one of
//     [Server.Hosts], gets 421 ([ErrForeignHost]) on every route, static
//     files and the stream included: a foreign name rebound to this address
//     (DNS rebinding) reads nothing;
//   - a request whose Origin is not the page's own, or whose Sec-Fetch-Site
//     is same-site or cross-site (another port of the same host is another
//     origin but the same site), gets 403 ([ErrCrossSite]);
//   - a request that changes the world is a POST with a JSON body: another
//     Content-Type gets 415 ([ErrNotJSON]) and a query string 400
//     ([ErrQueryString]), so no form and no "simple" fetch of another page
//     can send one; application/json from another origin needs a CORS
//     preflight, which the server never grants;
//   - responses say X-Frame-Options DENY (no clickjacking in a frame) and
//     Cross-Origin-Resource-Policy same-origin (no reading through a
//     no-cors fetch).
//
// A request without Origin and Sec-Fetch-Site (curl, a script on the same
// machine) passes the second check: the machine's own user may drive the
// cluster.
//
// # What the server bounds
//
// [Server.HTTPServer] makes the http.Server that keeps [Server.Limits]
// ([DefaultLimits], each beside Kafka's nearest setting): time to send a
// request's headers and the whole request, to take an answer (a frame of
// the update stream, while the stream lasts as long as its page), a
// kept-alive connection without a request, a line of the terminal
// (ExecTimeout: a long run stops between two steps and says why), and the
// update streams open at once (MaxStreams: one more gets 503, why and
// Retry-After; the page says so and asks again). The page's files go out
// gzipped, once when the server starts, to a browser that takes gzip,
// each with an ETag of its bytes, so a page opened again gets 304s.
//
// # Real Kafka clients
//
// [StartKafka] opens a Kafka listener per simulated broker (kafkalive serve:
// 127.0.0.1:9092-9094 by default, --kafka-addr, --no-kafka) and [Kafka] is
// the kafkawire.Backend on the Live: each request of a real client (kcat,
// franz-go, the Java client) is an action of the world with its bytes
// (cluster.World.External), so the timeline replays it; its answer goes back
// when the world gives it. While a client is connected the world runs at
// wall-clock speed; going back in time, Reset or a scenario closes every
// connection with the reason. A stopped or killed broker closes its
// connections, a powered-off one goes silent, and "cut client N" makes a
// client's connections hang as on a real network cut. The page lists the
// clients under the producers, and their group members in their groups.
//
// # The page's modules
//
// The page is ES modules under static/js, served as they are (no build
// step): main.js boots page.js over a transport (transport.js: every call
// to /api goes through it), morph.js patches the panels in place, each
// panel has a pure renderer under render/ (a view in, HTML out), and
// session.js keeps the scenario session in the URL. The modules are
// type-checked (// @ts-check, tsc -p web/jsconfig.json) against
// static/js/types.js, JSDoc types generated from the Go structs the server
// encodes (TestJSTypes, -update to regenerate), and unit-tested under
// node's test runner (node --test web/jstest/); TestPageRendersRealUpdates
// renders the server's real updates with them.
//
// # Measured
//
// The stream sends a frame at most every update interval (10 a second),
// counted from the start of one to the start of the next: a client's
// flood changes the world thousands of times a second, and a page cannot
// show more.
//
// On the development machine (2 shared cores; TestMeasureHour with
// KAFKALIVE_MEASURE=1, BenchmarkUpdate, and the browser test
// TestPageKeepsUpWithUpdates): the page renders about 9-10 of the
// server's 10 updates a second, 3-6 ms in the browser to parse and render
// one; a frame of the stream is about 1.5 KB in the first minutes (a
// whole update was 5 KB then, and 12 KB after a simulated hour), and the
// largest with 990 partitions, a broker killed under them, 12.8 KB
// (TestManyPartitionsKeepUpdatesSmall); an update costs 3-6 ms to build
// and encode after an hour. The heap
// stays at about 35 MiB from the twentieth simulated minute on (12
// snapshots of about 2 MB, ten minutes of events; before snapshots it was
// 49 MiB after an hour and grew 0.8 MiB a minute), 44 MiB with a past
// moment cached. A moment of the timeline takes 10-60 ms to rebuild in the
// last minute and at most about 0.3 s further back (a replay of up to two
// simulated minutes from a sparse snapshot; it took 5-9 s at an hour when
// AtTime replayed from the start). A clone of the world costs about 7 ms.
package web
