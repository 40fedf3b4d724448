package web

import (
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// MaxMarks is how many of the newest actions the timeline marks.
const MaxMarks = 100

// Mark is an action from outside (a crash, a command typed, a member
// added) at its moment, drawn as a tick on the timeline.
type Mark struct {
	TimeMs int64  `json:"t"`
	Text   string `json:"text"`
}

// marks keeps the timeline's marks of one world, scanning only the events
// added since the last call.
type marks struct {
	w       *cluster.World
	scanned int // the Seq of the next event to scan
	list    []Mark
}

// of returns w's marks: its actions other than the clock's runs, newest
// last, at most MaxMarks, none before the timeline's start.
func (m *marks) of(w *cluster.World) []Mark {
	if m.w != w {
		*m = marks{w: w}
	}
	for _, e := range eventsSince(w, m.scanned) {
		if e.Kind != cluster.EventAction || e.Step == 0 || strings.HasPrefix(e.Text, "run ") {
			continue
		}
		m.list = append(m.list, Mark{TimeMs: e.TimeMs, Text: e.Text})
	}
	m.scanned = nextSeq(w)
	start := w.StartMs()
	for len(m.list) > 0 && m.list[0].TimeMs < start {
		m.list = m.list[1:]
	}
	if len(m.list) > MaxMarks {
		m.list = append([]Mark(nil), m.list[len(m.list)-MaxMarks:]...)
	}
	return m.list
}
