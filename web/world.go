package web

import (
	"sort"

	"github.com/kafkalive/kafkalive/cluster"
)

// This file is the one adapter between the page and the cluster package:
// the few cluster calls the page makes. The world it serves is
// cluster/defaultworld's.

// producerConfigs returns the configs of w's producers, by name.
func producerConfigs(w *cluster.World) map[string]cluster.ProducerConfig {
	out := map[string]cluster.ProducerConfig{}
	for _, p := range w.Producers() {
		out[p.Name()] = p.Config()
	}
	return out
}

// eventsSince returns w's events numbered seq or later.
func eventsSince(w *cluster.World, seq int) []cluster.Event {
	evs := w.Events()
	i := sort.Search(len(evs), func(i int) bool { return evs[i].Seq >= seq })
	return evs[i:]
}

// nextSeq returns the number the next event of w will have.
func nextSeq(w *cluster.World) int {
	evs := w.Events()
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq + 1
}
