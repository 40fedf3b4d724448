package kafkatools

import (
	"fmt"
	"io"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// MetadataQuorum is kafka-metadata-quorum describe --status | --replication
// [--human-readable], with Kafka's syntax (MetadataQuorumCommand:
// describe is a sub-command, after the options; --bootstrap-server or
// --bootstrap-controller is taken and not needed) and its refusals, each a
// TerseException's message: both --status and --replication, neither, or
// --human-readable without --replication.
//
// --status prints every line of handleDescribeStatus (ClusterId,
// LeaderId, LeaderEpoch, HighWatermark, MaxFollowerLag,
// MaxFollowerLagTimeMs, CurrentVoters, CurrentObservers) from
// [cluster.World.QuorumStatus]: the voters as Kafka 3.7 prints them
// ([1,2,3]) under its rules, else as Kafka 3.9+ does (KIP-853), one
// {"id": N, "directoryId": null} each (Node.toString: the simulated quorum
// is a static one, controller.quorum.voters, whose voters' directory ids
// are the zero Uuid; and they have no controller listener of their own,
// so no endpoints). The metadata log counts only elections and
// NoOpRecords (see cluster.QuorumStatus). With a separate controller node
// the quorum is that one node, which never lags.
//
// --replication prints handleDescribeReplication's table from the
// leader's DescribeQuorum answer ([cluster.World.DescribeQuorum]; see
// [QuorumReplication]).
func MetadataQuorum(s Session, args []string, out io.Writer) error {
	fl, pos := Flags(args)
	_, status := fl["status"]
	_, replication := fl["replication"]
	_, human := fl["human-readable"]
	switch {
	case len(pos) != 1 || pos[0] != "describe":
		return fmt.Errorf("%w: kafka-metadata-quorum takes the sub-command describe (after --bootstrap-server, if given)", ErrUsage)
	case status && replication:
		return terse(out, "Only one of --status or --replication should be specified with describe sub-command")
	case status && human:
		return terse(out, "The option --human-readable is only supported along with --replication")
	case !status && !replication:
		return terse(out, "One of --status or --replication must be specified with describe sub-command")
	}
	return s.Look(func(w *cluster.World) error {
		kafka37 := !w.Config().Rules.EligibleLeaderReplicas()
		if replication {
			d, ok := w.DescribeQuorum()
			if !ok {
				// The admin call times out (the tool prints the
				// exception's message, then its stack trace).
				return terse(out, "java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.TimeoutException: Call(callName=describeMetadataQuorum) timed out: no controller is active")
			}
			text, err := QuorumReplication(d, kafka37, human, w.ClockMs())
			if err != nil {
				return terse(out, err.Error())
			}
			_, err = io.WriteString(out, text)
			return err
		}
		st, ok := w.QuorumStatus()
		if !ok {
			st = cluster.QuorumStatus{LeaderID: cluster.ControllerID, LeaderEpoch: 1, Voters: []int32{cluster.ControllerID}, Observers: []int32{}}
		}
		_, err := io.WriteString(out, QuorumStatusText(w.ClusterID(), st, kafka37))
		return err
	})
}

// terse prints msg as the tool prints a TerseException (its message
// alone, MetadataQuorumCommand.mainNoExit) and returns it as printed.
func terse(out io.Writer, msg string) error {
	fmt.Fprintln(out, msg)
	return Printed{kafkaMessage(msg)}
}

// QuorumStatusText lays st out as handleDescribeStatus prints it: Kafka
// 3.7's voter lists, or 3.9+'s.
func QuorumStatusText(clusterID string, st cluster.QuorumStatus, kafka37 bool) string {
	voters, observers := voterList(st.Voters), voterList(st.Observers)
	if kafka37 {
		voters, observers = idList(st.Voters), idList(st.Observers)
	}
	return fmt.Sprintf("ClusterId:              %s\n"+
		"LeaderId:               %d\n"+
		"LeaderEpoch:            %d\n"+
		"HighWatermark:          %d\n"+
		"MaxFollowerLag:         %d\n"+
		"MaxFollowerLagTimeMs:   %d\n"+
		"CurrentVoters:          %s\n"+
		"CurrentObservers:       %s\n",
		clusterID, st.LeaderID, st.LeaderEpoch, st.HighWatermark, st.MaxFollowerLag, st.MaxFollowerLagTimeMs, voters, observers)
}

// idList is Utils.mkString(ids, "[", "]", ","), Kafka 3.7's layout.
func idList(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return "[" + strings.Join(s, ",") + "]"
}

// voterList is Kafka 3.9+'s printReplicaState: each replica as its
// Node.toString, {"id": N, "directoryId": null} for the zero directory
// id (no endpoints known), joined by ", ".
func voterList(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprintf(`{"id": %d, "directoryId": null}`, id)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// zeroUUID is Uuid.ZERO_UUID as Uuid.toString prints it: the directory id
// of a voter of a static quorum.
const zeroUUID = "AAAAAAAAAAAAAAAAAAAAAA"

// QuorumReplication lays the quorum d out as kafka-metadata-quorum
// describe --replication prints it (MetadataQuorumCommand.
// handleDescribeReplication and ToolsUtils.prettyPrintTable): the leader,
// then the other voters, then the observers, one row each with its
// NodeId, DirectoryId (Kafka 3.9+; the zero Uuid: see [MetadataQuorum]),
// LogEndOffset, Lag behind the leader's log end, LastFetchTimestamp and
// LastCaughtUpTimestamp (-1 unknown) and Status; every cell padded to its
// column's widest and followed by a tab, the last too. Kafka 3.7 has no
// DirectoryId column. With humanReadable a timestamp is "N ms ago" from
// nowMs, and one that is not after the epoch and at or before now fails
// as Kafka's relativeTimeMs does.
func QuorumReplication(d cluster.QuorumDescription, kafka37, humanReadable bool, nowMs int64) (string, error) {
	var leader cluster.QuorumReplica
	for _, v := range d.Voters {
		if v.ID == d.LeaderID {
			leader = v
		}
	}
	header := []string{"NodeId", "DirectoryId", "LogEndOffset", "Lag", "LastFetchTimestamp", "LastCaughtUpTimestamp", "Status"}
	if kafka37 {
		header = append(header[:1:1], header[2:]...)
	}
	var rows [][]string
	var err error
	add := func(r cluster.QuorumReplica, status string) {
		fetch, e1 := quorumTime(r.LastFetchMs, "last fetch", humanReadable, nowMs)
		caughtUp, e2 := quorumTime(r.LastCaughtUpMs, "last caught up", humanReadable, nowMs)
		if err == nil {
			err = firstErr(e1, e2)
		}
		row := []string{fmt.Sprint(r.ID), zeroUUID, fmt.Sprint(r.LogEndOffset), fmt.Sprint(leader.LogEndOffset - r.LogEndOffset), fetch, caughtUp, status}
		if kafka37 {
			row = append(row[:1:1], row[2:]...)
		}
		rows = append(rows, row)
	}
	add(leader, "Leader")
	for _, v := range d.Voters {
		if v.ID != d.LeaderID {
			add(v, "Follower")
		}
	}
	for _, o := range d.Observers {
		add(o, "Observer")
	}
	if err != nil {
		return "", err
	}
	return prettyTable(header, rows), nil // ToolsUtils.prettyPrintTable
}

// quorumTime prints a timestamp of a replica: -1 for unknown, the epoch
// milliseconds, or with humanReadable "N ms ago".
func quorumTime(ts int64, what string, humanReadable bool, nowMs int64) (string, error) {
	switch {
	case ts < 0:
		return "-1", nil
	case !humanReadable:
		return fmt.Sprint(ts), nil
	case ts <= 0 || ts > nowMs:
		return "", kafkaMessagef("Error while computing relative time, possible drift in system clock.\nCurrent timestamp is %d, %s timestamp is %d", nowMs, what, ts)
	}
	return fmt.Sprintf("%d ms ago", nowMs-ts), nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
