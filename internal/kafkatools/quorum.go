package kafkatools

import (
	"fmt"
	"io"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// MetadataQuorum is kafka-metadata-quorum --describe --status with every line of
// Kafka 3.7's MetadataQuorumCommand.handleDescribeStatus (ClusterId,
// LeaderId, LeaderEpoch, HighWatermark, MaxFollowerLag,
// MaxFollowerLagTimeMs, CurrentVoters, CurrentObservers), from
// [cluster.World.QuorumStatus]. The metadata log counts only elections and
// NoOpRecords (see cluster.QuorumStatus). With a separate controller node
// the quorum is that one node, which never lags.
func MetadataQuorum(s Session, args []string, out io.Writer) error {
	fl, _ := Flags(args)
	_, describe := fl["describe"]
	_, status := fl["status"]
	if !describe || !status {
		return ErrUsage
	}
	return s.Look(func(w *cluster.World) error {
		st, ok := w.QuorumStatus()
		if !ok {
			st = cluster.QuorumStatus{LeaderID: cluster.ControllerID, LeaderEpoch: 1, Voters: []int32{cluster.ControllerID}, Observers: []int32{}}
		}
		_, err := io.WriteString(out, quorumStatusText(st))
		return err
	})
}

// quorumStatusText lays st out as handleDescribeStatus prints it.
func quorumStatusText(st cluster.QuorumStatus) string {
	return fmt.Sprintf("ClusterId:              kafkalive\n"+
		"LeaderId:               %d\n"+
		"LeaderEpoch:            %d\n"+
		"HighWatermark:          %d\n"+
		"MaxFollowerLag:         %d\n"+
		"MaxFollowerLagTimeMs:   %d\n"+
		"CurrentVoters:          %s\n"+
		"CurrentObservers:       %s\n",
		st.LeaderID, st.LeaderEpoch, st.HighWatermark, st.MaxFollowerLag, st.MaxFollowerLagTimeMs, idList(st.Voters), idList(st.Observers))
}

// idList is Utils.mkString(ids, "[", "]", ",").
func idList(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return "[" + strings.Join(s, ",") + "]"
}
