// Package txn is the simulated cluster's transaction coordinator (KIP-98),
// a machine of its own as Kafka's TransactionCoordinator is: each broker
// process runs one, which coordinates the transactional ids of the
// __transaction_state partitions its broker leads.
//
// It keeps each transactional id's state (Metadata: producer id and epoch,
// transaction.timeout.ms, the partitions in the transaction, the state
// Empty, Ongoing, PrepareCommit or PrepareAbort, CompleteCommit or
// CompleteAbort), answers InitProducerId (bumping the epoch and so fencing
// the previous incarnation of the producer, whose open transaction it
// aborts first), AddPartitionsToTxn (and AddOffsetsToTxn, which adds the
// group's __consumer_offsets partition), EndTxn, and the partition
// leaders' verification of a transactional batch (KIP-890), writing every
// change to its __transaction_state partition (acks=all) before it answers;
// once a PrepareCommit or PrepareAbort is written it has the leader of each
// partition of the transaction append a COMMIT or ABORT marker
// (WriteTxnMarkers, retried until each is written) and then writes
// CompleteCommit or CompleteAbort. Every
// transaction.abort.timed.out.transaction.cleanup.interval.ms it aborts the
// transactions open for longer than their transaction.timeout.ms, bumping
// the epoch. When its broker comes to lead a __transaction_state
// partition it loads the partition's records and completes the
// transactions that were prepared (a coordinator's failover); when it
// stops leading one it forgets them.
//
// The rules are Kafka 3.7's (TransactionCoordinator, TransactionMetadata,
// TransactionStateManager, TransactionMarkerChannelManager at tag 3.7.0)
// with transaction.version 0 (a world of 3.7's rules), and with
// transaction.version 2 (a world of Kafka 4's: a new 4.1 cluster finalizes
// it) KIP-890's second part as Kafka 4.0 runs it (trunk of late 2024, and
// KIP-890 for 4.1): an EndTxn v5 bumps the producer epoch of every
// transaction (the markers carry the new epoch, a zombie's late batch at
// the old one is refused) and answers with the producer id and epoch the
// transaction completes with, a new producer id once the epochs run out
// (an end at epoch 32766), an abort of a transaction nothing was added to
// bumps the epoch too, the partitions of a Produce v12 and the offsets
// partition of a TxnOffsetCommit v5 are added by their leader's (or group
// coordinator's) AddPartitionsToTxn, the aborts the coordinator starts (a
// fence, a timeout) bump as the cluster's version says, and the log's
// values are at version 1 with their tagged fields. A client of
// transaction.version 0 (EndTxn v4 or older) is served as before.
//
// The machine sees the world through its [Env]: the clock, the network
// (answers to clients, markers to brokers), its broker's replica of
// __transaction_state (appends and the records to load), the partitions'
// leaders and the cluster's producer ids. Its log appends' answers and the
// markers' answers come back through [Coordinator.Step].
//
// Not modelled: transactional.id.expiration.ms (an id's state is kept for
// ever), the partitions' order inside Kafka's hash sets (kept sorted here),
// and COORDINATOR_LOAD_IN_PROGRESS (a new coordinator loads its partition
// at once).
package txn
