package web

import (
	"syscall/js"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/scenarios"
)

// This file is what a Live lacks, and does differently, when it runs in a
// browser tab (GOOS=js: the Web Worker of the static site, package
// web/tab): a tab cannot listen for connections, so the brokers have no
// Kafka listeners; a learner's own code (the kit's exercises) is on the
// learner's machine, so the world runs the reference everywhere; and a
// long run gives the browser's event loop its turn between two steps. The
// files that would bring the rest in are built for a process only
// (//go:build !js): the HTTP server and its update stream (net/http), the
// listeners (package kafkawire, net) and the kit's live mode (its suites
// and their test machinery). What is left is the page's API ([API]), which
// the Worker answers.

// LocalBuild is the command that runs the world with what a tab lacks:
// Kafka listeners for real clients, and the kit's exercises.
const LocalBuild = "go run ./cmd/kafkalive"

// noListeners is the Kafka clients panel of a world in a tab: it says why
// there are no listeners and how to get them.
func noListeners() *KafkaView {
	return &KafkaView{Unavailable: "In your browser the brokers cannot listen for Kafka clients. To connect kcat, franz-go or any other client, run the local build in a clone of the repository: " +
		LocalBuild + " (brokers at 127.0.0.1:9092-9094)."}
}

// learnerState stands for the learner's code, which a tab never has.
type learnerState struct{}

// LearnerView is the view's part about the learner's code: never set in a
// tab.
type LearnerView struct{}

// newWorld builds the world a Reset goes back to.
func (l *Live) newWorld() (*cluster.World, error) { return l.defaultWorld() }

// learnerScenarios lists the guided scenarios on the learner's code: none.
func (l *Live) learnerScenarios() ([]ScenarioInfo, error) { return nil, nil }

// getScenario finds an embedded scenario by name.
func (l *Live) getScenario(name string) (*scenarios.Scenario, *learnerState, error) {
	sc, err := scenarios.Get(name)
	return sc, nil, err
}

// learnerView describes the learner's code in the world shown: none.
func (l *Live) learnerView() *LearnerView { return nil }

// learnerGeneration counts the changes of the learner's part of the page:
// none.
func (l *Live) learnerGeneration() uint64 { return 0 }

// yielder hands the browser's event loop its turn: Go's js/wasm runtime
// returns to the event loop only when every goroutine is blocked, so a
// long run that never blocks would keep the Worker from reading the page's
// messages (a view, the pause) and the page from getting its updates.
var yielder struct {
	port js.Value
	done chan struct{}
}

// yieldSlice blocks until the event loop has dispatched what was queued
// before it: a message posted to itself through a MessageChannel, which
// comes back at once, unlike a timer (setTimeout waits at least 4 ms
// once nested).
func yieldSlice() {
	if yielder.done == nil {
		mc := js.Global().Get("MessageChannel")
		if mc.IsUndefined() {
			return
		}
		ch := mc.New()
		yielder.done = make(chan struct{}, 16)
		ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
			yielder.done <- struct{}{}
			return nil
		}))
		yielder.port = ch.Get("port2")
	}
	yielder.port.Call("postMessage", nil)
	<-yielder.done
}
