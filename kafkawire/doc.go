// Package kafkawire is the Kafka protocol front end of the simulated cluster:
// it listens on one TCP port per broker, reads Kafka's request frames, answers
// ApiVersions itself and hands every other request to a Backend, the simulated
// world, writing the responses back in request order. Real clients (kcat and
// librdkafka, franz-go, sarama, the Java client) connect to it as to brokers.
//
// The request and response structs and their codecs are franz-go's kmsg
// (github.com/twmb/franz-go/pkg/kmsg): the wire structs are a solved problem.
// This package's work is what a broker does around them, as Kafka 3.7's
// SocketServer and KafkaApis do it; the bytes a Produce request carries are
// left untouched for the Backend, which validates and appends them with
// kafkalog.
//
// # Versions and features
//
// The served table is DefaultAPIVersions (Kafka 3.7's ranges) or
// Kafka4APIVersions (the same, with the floors Kafka 4.0 raised, KIP-896,
// as 4.1 keeps them): a request below a floor closes the connection, as
// above. ApiVersions v3+ also carries the cluster's features (KIP-584:
// supported ranges and finalized levels; Kafka37Features and
// Kafka41Features are a new cluster's). Server.SetVersions switches both
// while the server runs, for a world whose rules change.
//
// # Framing
//
// A request is an int32 size, then the header (RequestHeader.json): int16 api
// key, int16 api version, int32 correlation id, a nullable int16-length client
// id and, for flexible versions (KIP-482: header v2), tagged fields; then the
// body at that version. A response is an int32 size, the correlation id, the
// tagged fields for flexible versions (response header v1) except ApiVersions,
// whose response header is always v0 (KIP-511), then the body.
//
// # What is closed, what is answered
//
// As Kafka 3.7's SocketServer.Processor does:
//   - a size below 0 or above socket.request.max.bytes (100 MiB) closes the
//     connection (NetworkReceive.readFrom); a frame's buffer grows with the
//     bytes that arrive, so a size alone never sizes an allocation;
//   - an api key or version outside the served table closes it
//     (parseRequestHeader: "which is not enabled"), except ApiVersions at a
//     version the broker does not know, which is answered UNSUPPORTED_VERSION
//     in the v0 layout with ApiVersions' own range, for the client to retry
//     lower (RequestContext.parseRequest, ApiVersionsRequest.getErrorResponse);
//   - a header or body that does not parse closes it;
//   - ApiVersions v3 with a client software name or version outside
//     [a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])? is answered INVALID_REQUEST;
//     a valid one is recorded in the connection's ConnInfo;
//   - Produce with acks=0 is not answered; a partition error closes the
//     connection (KafkaApis.handleProduceRequest);
//   - a Fetch of an incremental session (KIP-227, session epoch neither 0 nor
//     -1) is answered FETCH_SESSION_ID_NOT_FOUND, as by a broker whose
//     max.incremental.fetch.session.cache.slots is 0 (FetchManager.newContext);
//     full fetches go to the Backend, which answers them with session id 0
//     (a null record set in its answer is sent empty, as Kafka never sends
//     null and librdkafka rejects it);
//   - a connection with no bytes moving for connections.max.idle.ms (10
//     minutes) and no request in progress is closed; a client that sends half
//     a request and stalls holds only its own connection;
//   - a connection whose client has closed its side while a request waits
//     (for a silent broker, or for the world) is closed within a second
//     (Linux: the socket's TCP state), so that a client retrying against a
//     powered-off broker does not pile up connections. A client that only
//     half-closes is taken as gone too; no Kafka client does that.
//
// The bytes of the requests read and not yet answered, across every
// connection of every broker, are bounded by queued.max.request.bytes
// (Config.QueuedMaxRequestBytes, 256 MiB here where Kafka's default is -1,
// unbounded): a frame takes its bytes once its size is read, as long as any
// of the bound is left (so one frame may go past it, as with the
// non-strict SimpleMemoryPool Kafka 3.7's SocketServer builds from that
// setting); when none is, connections read nothing more, without closing or
// refusing anything, until answers free bytes, as Kafka's Selector mutes its
// channels under memory pressure. The server logs "waiting" once for each
// such wait; Server.QueuedRequestBytes reports the bytes held.
//
// Requests of one connection are handled one at a time, as Kafka mutes a
// connection while a request of it is in progress: a client may pipeline, the
// responses go out in request order. At most three frames per connection are
// in memory (one being read, one queued, one being handled).
//
// # The world behind it
//
// The Backend is a deterministic simulation advanced in virtual time by its
// owner, so it is not a blocking RPC: Backend.Submit queues the request as an
// action and returns a Pending, which the world resolves at a later step
// (acks=all when the ISR has the records, Fetch after MaxWaitMillis or at
// MinBytes, JoinGroup when the rebalance completes) or never (a powered-off
// broker). Backend.State says what a connection meets: Serving; Refusing for
// a stopped or killed broker (connections are closed: the client sees a
// reset); Silent for a powered-off broker or a cut link (nothing is read or
// answered, the connection stays open, the client times out). The world's
// owner tells the server when that changes: Server.Wake after a step that
// changed a broker's state or a link, Server.Disconnect(broker) when a broker
// stops, is killed or powers on again (its earlier connections are gone), and
// Server.DisconnectAll when the world jumps back in time. Server.Connections
// and Server.Counts list the open connections per broker and client, and
// Config.Log receives a line for every accept, refusal and close.
//
// Goroutines, sockets and the wall clock live here; the world stays pure. The
// package kafkawiretest is a small in-memory Backend (one leader, a single
// partition per topic) for tests with real clients.
package kafkawire
