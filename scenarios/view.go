package scenarios

import (
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// The views of the state a scenario can ask for.
const (
	// ViewLogs shows every replica's log and every producer result.
	ViewLogs = "logs"
	// ViewGroups shows the partition table without the replicas' logs, the
	// producers' counts without their results, and the groups: for
	// scenarios whose producers send hundreds of records.
	ViewGroups = "groups"
)

// StateText prints the state the way the scenario shows it (see
// [Scenario.View]). The internal topics (__consumer_offsets) are left out:
// the groups' lines say what they hold.
func (sc *Scenario) StateText(st cluster.State) string {
	parts := st.Partitions[:0:0]
	for _, p := range st.Partitions {
		if strings.HasPrefix(p.Topic, "__") {
			continue
		}
		if sc.View == ViewGroups {
			p.Logs = nil
		}
		parts = append(parts, p)
	}
	st.Partitions = parts
	if sc.View == ViewGroups {
		prods := make([]cluster.ProducerInfo, len(st.Producers))
		for i, p := range st.Producers {
			p.Results = nil
			prods[i] = p
		}
		st.Producers = prods
	}
	return st.Text()
}
