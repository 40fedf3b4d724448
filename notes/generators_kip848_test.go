package notes

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kafkalive/kafkalive/scenarios"
)

// The generator of chapter 6's section on the consumer group protocol.
func init() {
	generators["s10-kip848"] = s10KIP848
}

// kip848Line is an event of group next-g's members (N1, N2, N3) in the
// scenario eager-vs-cooperative: an assignment from the coordinator, a
// revocation, a partition's first fetch position.
var kip848Line = regexp.MustCompile(`^(?:(N\d) at epoch \d+ may own .*|(N\d) revokes .*|(N\d) starts at .*)$`)

// s10KIP848 plays the scenario eager-vs-cooperative and prints what
// next-g's members did from N3's arrival on: the simulation's own events,
// with their times.
func s10KIP848() string {
	sc, err := scenarios.Get("eager-vs-cooperative")
	if err != nil {
		return err.Error()
	}
	r, err := scenarios.NewRun(sc, 0)
	if err != nil {
		return err.Error()
	}
	var sb strings.Builder
	for {
		o, err := r.Next()
		if err != nil {
			break
		}
		for _, e := range o.Events {
			text := strings.TrimPrefix(e.Text, e.Topic+"-"+fmt.Sprint(e.Partition)+": ")
			if e.TimeMs < 8000 || !kip848Line.MatchString(text) {
				continue
			}
			if e.Topic != "" && !strings.Contains(text, e.Topic) {
				text = fmt.Sprintf("%s-%d: %s", e.Topic, e.Partition, text)
			}
			fmt.Fprintf(&sb, "t=%6.2f s  %s\n", float64(e.TimeMs)/1000, text)
		}
	}
	return strings.TrimRight(sb.String(), "\n")
}
