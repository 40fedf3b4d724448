package metadata

// QuorumDescription is the metadata quorum as its leader describes it to
// DescribeQuorum (Kafka 3.9's KafkaRaftClient.handleDescribeQuorumRequest
// and RaftUtil.singletonDescribeQuorumResponse): the leader, its epoch,
// the metadata log's high watermark, and each voter's and observer's
// replica of that log.
type QuorumDescription struct {
	LeaderID, LeaderEpoch int32
	// HighWatermark is the metadata log's high watermark, -1 when it is
	// not modelled (a separate controller).
	HighWatermark     int64
	Voters, Observers []QuorumReplica
}

// QuorumReplica is one replica of the metadata log as the quorum's leader
// knows it (LeaderState.ReplicaState): its log end offset (-1 unknown),
// when it last fetched and when it last caught up with the leader's log
// end (-1 unknown). The leader's own are now (RaftUtil.toReplicaState).
type QuorumReplica struct {
	ID                          int32
	LogEndOffset                int64
	LastFetchMs, LastCaughtUpMs int64
}
