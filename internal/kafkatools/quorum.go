package kafkatools

import (
	"fmt"
	"io"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// MetadataQuorum is kafka-metadata-quorum describe --status, with Kafka's
// syntax (MetadataQuorumCommand: describe is a sub-command, after the
// options; --bootstrap-server or --bootstrap-controller is taken and not
// needed), printing every line of handleDescribeStatus (ClusterId,
// LeaderId, LeaderEpoch, HighWatermark, MaxFollowerLag,
// MaxFollowerLagTimeMs, CurrentVoters, CurrentObservers) from
// [cluster.World.QuorumStatus]: the voters as Kafka 3.7 prints them
// ([1,2,3]) under its rules, else as Kafka 3.9+ does, one
// {"id": N} each (KIP-853; the simulated voters have no directory id and
// no controller listener of their own, which that layout leaves out). The
// metadata log counts only elections and NoOpRecords (see
// cluster.QuorumStatus). With a separate controller node the quorum is
// that one node, which never lags. Only one of --status and --replication
// may be given, and one must; --replication is not simulated.
func MetadataQuorum(s Session, args []string, out io.Writer) error {
	fl, pos := Flags(args)
	_, status := fl["status"]
	_, replication := fl["replication"]
	switch {
	case len(pos) != 1 || pos[0] != "describe":
		return fmt.Errorf("%w: kafka-metadata-quorum takes the sub-command describe (after --bootstrap-server, if given)", ErrUsage)
	case status && replication:
		return fmt.Errorf("%w: Only one of --status or --replication should be specified with describe sub-command", ErrUsage)
	case replication:
		return fmt.Errorf("%w: describe --replication is not simulated: the voters' metadata logs are modelled by their outcome only", ErrUsage)
	case !status:
		return fmt.Errorf("%w: One of --status or --replication must be specified with describe sub-command", ErrUsage)
	}
	return s.Look(func(w *cluster.World) error {
		st, ok := w.QuorumStatus()
		if !ok {
			st = cluster.QuorumStatus{LeaderID: cluster.ControllerID, LeaderEpoch: 1, Voters: []int32{cluster.ControllerID}, Observers: []int32{}}
		}
		_, err := io.WriteString(out, quorumStatusText(w.ClusterID(), st, !w.Config().Rules.EligibleLeaderReplicas()))
		return err
	})
}

// quorumStatusText lays st out as handleDescribeStatus prints it: Kafka
// 3.7's voter lists, or 3.9+'s.
func quorumStatusText(clusterID string, st cluster.QuorumStatus, kafka37 bool) string {
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

// voterList is Kafka 3.9+'s printReplicaState: each replica as
// {"id": N}, joined by ", " (no directory id, no endpoints known).
func voterList(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprintf(`{"id": %d}`, id)
	}
	return "[" + strings.Join(s, ", ") + "]"
}
