//go:build !js

package web

import "runtime"

// This file is what a Live does differently in a process of its own
// (kafkalive serve, shell, exercises/live) than in a browser tab
// (tab_js.go).

// yieldSlice lets the other goroutines in between two steps of a long
// run (Live.RunFor): the views, the stream, Reset and the pause.
func yieldSlice() { runtime.Gosched() }

// noListeners is the Kafka clients panel of a world without listeners
// (serve --no-kafka, the shell): none.
func noListeners() *KafkaView { return nil }
