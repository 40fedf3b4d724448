package web

import (
	"fmt"
	"io"

	"github.com/kafkalive/kafkalive/cluster"
)

// quorum is kafka-metadata-quorum --describe --status, reduced to what the
// simulation knows: the quorum's leader (the active controller) and its
// voters.
func (t *Terminal) quorum(args []string, at *int64, out io.Writer) error {
	fl, _ := flags(args)
	_, describe := fl["describe"]
	_, status := fl["status"]
	if !describe || !status {
		return ErrUsage
	}
	return t.look(at, func(w *cluster.World) error {
		if !w.Config().CombinedControllers {
			fmt.Fprintf(out, "ClusterId:              kafkalive\nLeaderId:               %d\nCurrentVoters:          [%d]\n", cluster.ControllerID, cluster.ControllerID)
			return nil
		}
		leader := w.ActiveController()
		if leader == 0 {
			leader = -1
		}
		voters := "["
		for i := range w.Config().Brokers {
			if i > 0 {
				voters += ","
			}
			voters += fmt.Sprint(i + 1)
		}
		fmt.Fprintf(out, "ClusterId:              kafkalive\nLeaderId:               %d\nCurrentVoters:          %s]\n", leader, voters)
		return nil
	})
}
