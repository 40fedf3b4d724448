package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/vfs"
)

// ErrInternal marks an internal error of the simulation: a log that failed
// under it, a message storm. It is never the user's doing (what a user or
// client can cause is an [ErrInvalidConfig] error or a Kafka error code);
// the world records it and goes on (see [World.InternalErrors]).
var ErrInternal = errors.New("cluster: internal error")

// InternalError is one internal error the world recorded and went on
// from.
type InternalError struct {
	// TimeMs is the virtual time; Step the index of the action during
	// which it happened (as [Event.Step]).
	TimeMs int64 `json:"time_ms"`
	Step   int   `json:"step"`
	// Broker is the broker halted for it, 0 if none was.
	Broker int32 `json:"broker,omitempty"`
	// Error says what failed.
	Error string `json:"error"`
	// Replay says how to rebuild the world just before it: World.At of
	// the previous step, then the step's action again.
	Replay string `json:"replay"`
}

// maxInternalErrors bounds the internal errors kept; the count goes on.
const maxInternalErrors = 50

// InternalErrors returns the internal errors recorded so far, oldest
// first (at most 50; [World.InternalErrorCount] counts them all). The
// caller must not modify it.
func (w *World) InternalErrors() []InternalError { return w.internal }

// InternalErrorCount counts every internal error since the world began.
func (w *World) InternalErrorCount() int { return w.internalCount }

// Err returns the first internal error, wrapping [ErrInternal], or nil.
// The world went on after it.
func (w *World) Err() error { return w.err }

// internalError records err as an internal error and goes on. With b set
// and running, the broker halts: Kafka's ReplicaManager halts a broker
// whose every log directory failed (handleLogDirFailure, Exit.halt), and
// here each broker has one; its page cache survives, as after a process
// crash, and it can be started again.
func (w *World) internalError(b *broker.Broker, err error) {
	if errors.Is(err, vfs.ErrNoSpace) {
		if b == nil {
			w.record(EventStorage, 0, nil, "a write failed: %v", err)
			return
		}
		b.DiskFull(w.env(), err) // not an internal error: what a full disk does
		return
	}
	step := w.actionBase + len(w.actions) - 1
	ie := InternalError{TimeMs: w.now, Step: step, Error: err.Error()}
	act := "the world's creation"
	if n := len(w.actions); n > 0 {
		act = fmt.Sprintf("%q", w.actions[n-1].String())
	}
	ie.Replay = fmt.Sprintf("World.At(%d), then action %d again (%s)", max(step-1, 0), step, act)
	if b != nil && b.Halt(w.env()) {
		ie.Broker = b.ID()
	}
	if w.err == nil {
		w.err = fmt.Errorf("%w: %v", ErrInternal, err)
	}
	w.internalCount++
	if len(w.internal) < maxInternalErrors {
		w.internal = append(w.internal, ie)
	}
	halted := ""
	if ie.Broker != 0 {
		halted = fmt.Sprintf("; broker %d halted (as a broker whose log directory failed); start it again", ie.Broker)
	}
	w.record(EventError, ie.Broker, nil, "internal error: %v%s; the world goes on; replay: %s", err, halted, ie.Replay)
}

// stormOf describes the messages in flight when the network did not become
// quiet: the most frequent kinds, for the internal error's text.
func stormOf(inFlight []netsim.Envelope) string {
	count := map[string]int{}
	for _, e := range inFlight {
		count[e.String()]++
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range keys[:min(3, len(keys))] {
		parts = append(parts, fmt.Sprintf("%d x %s", count[k], k))
	}
	return strings.Join(parts, ", ")
}
