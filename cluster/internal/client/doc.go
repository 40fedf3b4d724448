// Package client is the simulated cluster's producers and consumers as
// machines: each [Producer] and [Consumer] holds its own state, takes the
// answers the network brings it ([Producer.Step], [Consumer.Step]) and
// the passing of time ([Producer.Tick], [Consumer.Tick]), and reaches the
// world only through the [Env] each call is given: the clock, the
// network, the recorder of events, and a few narrow questions about the
// cluster (a partition's leader, a group's coordinator, a topic's
// configuration).
//
// A producer partitions its records (murmur2 of the key, or the sticky
// partitioners of KIP-480 and KIP-794), batches them with linger.ms, and
// sends them as Kafka's RecordAccumulator and Sender do (inflight.go):
// each partition's records wait in a deque, in order; a drain sends each
// partition's first batch, in one request per leader with fewer than
// [MaxInFlightRequestsPerConnection] requests in flight; a batch refused
// with a retriable error keeps its records and goes back to the head of
// its deque, backing off retry.backoff.ms, exponentially up to
// retry.backoff.max.ms from Kafka 3.7 (KIP-580), while the records behind
// it gather in batches up to batch.size; a broker that refuses the
// connection is tried again after the reconnect backoff (connection.go);
// a record still unsettled at delivery.timeout.ms fails. So an outage
// costs requests by partition and broker, not by record waiting. It
// numbers its records when it is idempotent (KIP-98: the producer id,
// epoch and per-partition sequences, the epoch bumped after a gap and
// each partition's sequences started again at 0 in it; at most five
// batches in flight per partition, a retry sent only when none of its
// partition is), and runs a transactional producer's transactions through the
// transaction coordinator of its transactional.id ([Env.TxnCoordinator]:
// InitProducerId, AddPartitionsToTxn, EndTxn), which writes the markers
// ([Producer.EndTransaction]). A producer with a [CopySource] is a
// consume-transform-produce loop, as Kafka's TransactionalMessageCopier: it
// reads its input partition at read_committed, copies each record in a
// transaction that also commits its group's offsets (AddOffsetsToTxn,
// TxnOffsetCommit), and after an abort reads its group's committed offset
// again ([Env.CommittedOffset], with KIP-447's require_stable).
//
// A consumer is simple (one partition, no group) or a member of a consumer
// group: its [group.Member] joins, syncs, heartbeats, commits and revokes
// through the group's coordinator, whose address the world's
// FindCoordinator gives ([Env.Coordinator]); the member's requests wait in
// order while no coordinator is known, and those lost on a cut link fail
// when it heals, as Kafka 3.7's client reacts to a broken connection.
//
// A consumer reads its leader's log directly ([Env.LeaderLog]), a
// documented simplification of the simulation: no Fetch request travels,
// the read sees what the leader exposes below its high watermark (or, with
// isolation.level read_committed, its last stable offset, the aborted
// transactions' batches skipped) at that moment, transaction markers are
// passed and not handed out, and damaged bytes make poll throw as Kafka's
// consumer does with check.crcs. A group's records processed are counted
// across its members ([Progress]) to tell at-least-once duplicates.
//
// The world hosts the machines: it keeps them, routes the envelopes
// addressed to them, and implements their [Env]; the rules live here.
package client
