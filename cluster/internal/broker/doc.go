// Package broker is one simulated Kafka broker as a machine: its disk (a
// vfs.MemFS with a page cache), its process (started with log recovery,
// stopped cleanly, killed, powered off, halted when its log dir fails),
// the partition replicas it hosts (a replicalog.Log and a replica.Node
// each), its log manager (retention, the cleaner, deleted directories),
// its checkpoint files on Kafka's schedules, its host's kernel flusher,
// the group coordinator it runs, whose commits it appends to its own
// replicas of __consumer_offsets, and the transaction coordinator it runs
// (txn.Coordinator, txnhost.go), which coordinates the transactional ids
// of the __transaction_state partitions it leads and whose markers its
// leaders write (markers.go).
//
// A broker talks to the rest of the world through envelopes: it takes
// partition states, replication messages, produces and group requests
// ([Broker.Step]) and the answers to its coordinator's appends
// ([Broker.StepCoordinator]), runs what is due ([Broker.Tick]), and sends
// through its [Env]: heartbeats and registrations to the controller,
// fetches and their answers to the other replicas, produce answers, group
// answers. What it reads of the cluster (the topics, their configs, a
// partition's leader) comes from the controller's metadata through the
// Env, as a KRaft broker reads its metadata image.
//
// A broker also serves the Kafka APIs real clients call (kcat, franz-go,
// the Java client), one file per API as franz-go's kfake lays them out
// (api_metadata.go, api_produce.go, api_fetch.go, api_listoffsets.go,
// api_offsetforleaderepoch.go, api_initproducerid.go, the admin APIs
// api_createtopics.go, api_createpartitions.go, api_deletetopics.go,
// api_describeconfigs.go, api_alterconfigs.go, and the group APIs
// api_findcoordinator.go to api_deletegroups.go, and the transaction APIs
// api_addpartitionstotxn.go to api_describetransactions.go, with Fetch and
// ListOffsets at read_committed reading below the last stable offset).
// [Requests] numbers the
// clients' requests, hands each to the broker it came to
// ([Requests.Serve]), keeps those that wait for the world (acks=all
// produces for the ISR, fetches for bytes or their deadline, group
// requests at a coordinator: Kafka's purgatories) and the answers until
// they are taken. The admin requests a broker forwards to the controller
// meet the controller's checks, and the world's changes they make, through
// the [APIEnv].
//
// Rules followed (Kafka 3.7): a log dir that does not load stops the
// start (LogManager.loadLogs, handleLogDirFailure); a disk that is full
// halts the broker (ReplicaManager.handleLogDirFailure); retention and the
// cleaner run on log.retention.check.interval.ms and log.cleaner.backoff.ms
// with each replica's own HW, and a cleaning round that meets a batch it
// cannot parse marks the partition uncleanable and goes on with the other
// logs (LogCleaner's CleanerThread.tryCleanFilthiestLog); a deleted topic's directories are renamed
// -delete and removed file.delete.delay.ms later (LogManager.asyncDelete);
// the coordinator's commits are appended acks=all and answered once the
// ISR has them (GroupMetadataManager.storeOffsets).
package broker
