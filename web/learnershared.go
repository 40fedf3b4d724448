//go:build !js

package web

import (
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/kafkalive/kafkalive/group/groupkit"
	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/replica/replicakit"
)

// learnerShared is what the page knows of the learner's code beside the
// world: each part's tests (run once, when the page starts), the first
// divergence a guided scenario found in each part, the scenarios that
// play each part, and which parts' files changed since.
type learnerShared struct {
	mu        sync.Mutex
	tests     map[string]string
	diverge   map[string]*LearnerDivergence
	scenarios map[string][]string
	// changed reports the parts whose files changed on disk (nil: not
	// watched); asked at most once a second.
	changed   func() []string
	checkedAt time.Time
	changes   map[string]bool
	// gen counts the changes of all the above, so that the page's
	// updates, shared while the world does not change, are made again.
	gen uint64
}

// TestTimeout bounds how long the page waits for a part's tests: an
// endless loop in the learner's code leaves the part "did not finish".
const TestTimeout = 20 * time.Second

// partChecks are the chapters' suites, each a check of the learner's code
// for a part (the same suite go test ./exercises/... runs).
var partChecks = map[string]func(kitlive.Code) error{
	kitlive.PartVarint:      func(c kitlive.Code) error { return kafkalogkit.CheckVarint(c.Varint) },
	kitlive.PartBatch:       func(c kitlive.Code) error { return kafkalogkit.CheckBatch(c.Batch) },
	kitlive.PartIndex:       func(c kitlive.Code) error { return kafkalogkit.CheckIndex(c.Index) },
	kitlive.PartRetention:   func(c kitlive.Code) error { return kafkalogkit.CheckRetention(c.Retention) },
	kitlive.PartRecovery:    func(c kitlive.Code) error { return kafkalogkit.CheckRecovery(c.Recovery) },
	kitlive.PartTruncation:  func(c kitlive.Code) error { return replicakit.CheckTruncation(c.Truncation) },
	kitlive.PartCooperative: func(c kitlive.Code) error { return groupkit.CheckCooperativeSticky(c.Cooperative) },
	kitlive.PartReadCommitted: func(c kitlive.Code) error {
		return kafkalogkit.CheckReadCommitted(c.ReadCommitted)
	},
}

// newLearnerShared starts the tests of every part that runs the learner's
// code, each in its own goroutine.
func newLearnerShared(code kitlive.Code) *learnerShared {
	s := &learnerShared{tests: map[string]string{}, diverge: map[string]*LearnerDivergence{}, scenarios: map[string][]string{}}
	if all, err := kitlive.Scenarios(); err == nil {
		for _, g := range all {
			s.scenarios[g.Part] = append(s.scenarios[g.Part], g.Name)
		}
	}
	for _, st := range kitlive.New(code).Statuses() {
		check := partChecks[st.Part]
		if st.Runs != kitlive.YourCode || check == nil {
			continue
		}
		s.tests[st.Part] = "running"
		go s.runTests(st.Part, code, check)
	}
	return s
}

// runTests runs a part's suite on the learner's code, with a recover
// and TestTimeout.
func (s *learnerShared) runTests(part string, code kitlive.Code, check func(kitlive.Code) error) {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v", r)
			}
		}()
		done <- check(code)
	}()
	var res string
	select {
	case err := <-done:
		res = "pass"
		if err != nil {
			res = "fail: " + headLine(err.Error())
		}
	case <-time.After(TestTimeout):
		res = fmt.Sprintf("fail: did not finish within %s", TestTimeout)
	}
	s.mu.Lock()
	s.tests[part] = res
	s.gen++
	s.mu.Unlock()
}

// headLine is s up to its first line break.
func headLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// diverged keeps the first difference a scenario found in its part.
func (s *learnerShared) diverged(c *kitlive.Comparison) {
	if c == nil || c.Matches || c.Difference == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.diverge[c.Part] == nil {
		s.diverge[c.Part] = &LearnerDivergence{Scenario: c.Scenario, Difference: *c.Difference}
		s.gen++
	}
}

// part describes st for the page.
func (s *learnerShared) part(st kitlive.Status) LearnerPart {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := LearnerPart{Status: st, Command: testCommand(st.Part), Scenarios: s.scenarios[st.Part], Divergence: s.diverge[st.Part]}
	if st.Runs == kitlive.YourCode {
		p.Tests = s.tests[st.Part]
	}
	p.Changed = s.changes[st.Part]
	return p
}

// generation asks which files changed (at most once a second) and returns
// the number of changes of what the page shows of the learner's code.
func (s *learnerShared) generation() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed != nil && time.Since(s.checkedAt) > time.Second {
		changes := map[string]bool{}
		for _, c := range s.changed() {
			changes[c] = true
		}
		if !maps.Equal(changes, s.changes) {
			s.gen++
		}
		s.checkedAt, s.changes = time.Now(), changes
	}
	return s.gen
}

// WatchLearnerCode tells the page which parts' files changed on disk since
// it started (go run ./exercises/live watches the exercises' files): the
// page says to restart it to run the new code. changed is asked at most
// once a second.
func (l *Live) WatchLearnerCode(changed func() []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.learner == nil {
		return
	}
	l.learner.shared.mu.Lock()
	l.learner.shared.changed = changed
	l.learner.shared.mu.Unlock()
}
