package kafkawire

// Kafka4APIVersions returns the keys and ranges a Kafka 4.1 broker would
// advertise for what this server serves: [DefaultAPIVersions] with the
// version floors Kafka 4.0 raised (KIP-896: protocol API versions older
// than Kafka 2.1's are gone; a request at one of them is answered
// UNSUPPORTED_VERSION) and 4.1 kept:
//
//	key  API                  floor  (3.7: 0)
//	  8  OffsetCommit          2
//	  9  OffsetFetch           1
//	 19  CreateTopics          2
//	 20  DeleteTopics          1
//	 23  OffsetForLeaderEpoch  2
//	 27  WriteTxnMarkers       1
//	 32  DescribeConfigs       1
//
// The floors this server already has under 3.7's rules stay (Produce 3,
// Fetch 4, ListOffsets 1, DescribeLogDirs 1: KIP-896 removed the same).
// JoinGroup keeps v0 and v1: 4.0 removed them, 4.1 served them again
// (KAFKA-19444), for old clients still in use.
//
// The maxima of the transactional writes go up to the versions of
// transaction.version 2 (KIP-890 part 2), which a 4.1 cluster finalizes:
//
//	key  API              max  (3.7)
//	  0  Produce           12  (10)  11: TRANSACTION_ABORTABLE; 12: the leader adds the partition
//	 26  EndTxn             5   (3)  4: TRANSACTION_ABORTABLE; 5: the epoch bumped, the next one answered
//	 28  TxnOffsetCommit    5   (3)  4: TRANSACTION_ABORTABLE; 5: the offsets partition added
//
// A client that sees transaction.version 2 finalized stops sending
// AddPartitionsToTxn and AddOffsetsToTxn only where these versions are
// served (franz-go's supportsKIP890p2, Kafka 4.0's TransactionManager). The
// other maxima stay this server's, which a 4.1 broker's exceed (it answers
// newer versions of Fetch, Metadata...): clients negotiate down to them.
func Kafka4APIVersions() []APIVersion {
	floors := map[int16]int16{8: 2, 9: 1, 19: 2, 20: 1, 23: 2, 27: 1, 32: 1}
	maxima := map[int16]int16{0: 12, 26: 5, 28: 5}
	list := DefaultAPIVersions()
	for i, a := range list {
		if f, ok := floors[a.Key]; ok {
			list[i].MinVersion = max(a.MinVersion, f)
		}
		if m, ok := maxima[a.Key]; ok {
			list[i].MaxVersion = m
		}
	}
	return list
}

// Feature is one feature of KIP-584's feature versioning as ApiVersions v3+
// carries it: a name and a range of levels (a finalized feature's range is
// its one level).
type Feature struct {
	Name               string
	MinLevel, MaxLevel int16
}

// Features is what a broker's ApiVersions v3+ answer says of the cluster's
// features: those the broker supports (the levels it can run) and those
// the cluster finalized (the levels it runs), at FinalizedEpoch (the
// metadata log's offset of the last feature change). Before v3 nothing is
// said.
type Features struct {
	Supported      []Feature
	Finalized      []Feature
	FinalizedEpoch int64
}

// Kafka37Features is what a new Kafka 3.7 KRaft cluster answers:
// metadata.version supported at levels 1-19 (3.0-IV1 to 3.7-IV4,
// MetadataVersion.java at 3.7.0) and finalized at 19, the release's latest
// production level, which kafka-storage format writes by default.
func Kafka37Features() Features {
	return Features{
		Supported: []Feature{{"metadata.version", 1, 19}},
		Finalized: []Feature{{"metadata.version", 19, 19}},
	}
}

// Kafka41Features is what a Kafka 4.1 cluster answers (each feature's
// enum under server-common's org.apache.kafka.server.common, KIP-584), at
// the levels a new cluster is formatted with but one:
//   - metadata.version 7-27 (3.3-IV3, the oldest 4.0 runs, to 4.1-IV1),
//     finalized at 27;
//   - kraft.version 0-1, finalized at 1 (KIP-853's dynamic quorum, which a
//     new 4.x quorum is formatted with);
//   - transaction.version 0-2, finalized at 2 (KIP-890 part 2: an epoch
//     bump per transaction, partitions added by the produce itself and
//     the offsets partition by TxnOffsetCommit; TransactionVersion.TV_2,
//     which 4.0's and 4.1's kafka-storage format finalizes by default);
//   - group.version 0-1, finalized at 1 (KIP-848's consumer protocol);
//   - eligible.leader.replicas.version 0-1, finalized at 1 (KIP-966: on by
//     default for new clusters from 4.1);
//   - share.version 0-1, supported but not finalized (KIP-932's share
//     groups are off by default in 4.1; a level 0 is not listed).
func Kafka41Features() Features {
	return Features{
		Supported: []Feature{
			{"eligible.leader.replicas.version", 0, 1},
			{"group.version", 0, 1},
			{"kraft.version", 0, 1},
			{"metadata.version", 7, 27},
			{"share.version", 0, 1},
			{"transaction.version", 0, 2},
		},
		Finalized: []Feature{
			{"eligible.leader.replicas.version", 1, 1},
			{"group.version", 1, 1},
			{"kraft.version", 1, 1},
			{"metadata.version", 27, 27},
			{"transaction.version", 2, 2},
		},
	}
}
