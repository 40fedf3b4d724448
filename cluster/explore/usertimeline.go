package explore

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/cluster"
)

// jump rebuilds the world earlier on its timeline and goes on from there.
func (u *userRun) jump(o UserOp) {
	w := u.w
	var (
		f    *cluster.World
		err  error
		want int64 = -1
	)
	if o.BackSteps > 0 && len(w.Actions()) == 0 {
		// A run longer than the timeline keeps (TimelineConfig.KeepMs)
		// took every action with the history before it: the page shows
		// no action to go back to.
		u.out.Skipped++
		return
	}
	if o.BackSteps > 0 {
		last := w.ActionCount() - 1
		f, err = w.At(max(last-o.BackSteps, w.ActionCount()-len(w.Actions())))
	} else {
		want = max(w.NowMs()-o.BackMs, w.StartMs())
		f, err = w.AtTime(want)
	}
	if err != nil {
		u.fail("timeline", "%s: %v", o, err)
		return
	}
	if f.InternalErrorCount() > w.InternalErrorCount() {
		u.fail("internal-error", "%s: rebuilding the world: %v", o, f.Err())
		return
	}
	if want >= 0 && f.NowMs() != want {
		u.fail("timeline", "%s: the world rebuilt at %d ms is at %d ms", o, want, f.NowMs())
		return
	}
	if f.NowMs() > w.NowMs() {
		u.fail("timeline", "%s: the past (%d ms) is after the present (%d ms)", o, f.NowMs(), w.NowMs())
		return
	}
	// Power cuts after the moment are not in the fork; one whose fencing
	// wait the moment falls in is now outside the model.
	t := f.NowMs()
	var cuts []cutMark
	for _, c := range u.cuts {
		if c.atMs > t || c.atMs == t && o.BackSteps == 0 && c.untilMs > t {
			continue
		}
		if c.untilMs > t {
			c.safe = false
		}
		cuts = append(cuts, c)
	}
	// So is disk damage after it.
	var damage []damageMark
	for _, d := range u.damage {
		if d.action < f.ActionCount() {
			damage = append(damage, d)
		}
	}
	u.countSimulated(f)
	u.w, u.cuts, u.seenViolations, u.damage = f, cuts, len(f.Violations()), damage
}

// clone runs the world and a clone of it side by side and checks that
// they stay the same.
func (u *userRun) clone(o UserOp) {
	c := u.w.Clone()
	orig := u.w
	u.do(cluster.Action{Kind: cluster.ActRun, Ms: o.Ms}, false)
	u.countSimulated(c)
	u.w = c
	u.do(cluster.Action{Kind: cluster.ActRun, Ms: o.Ms}, false)
	if u.out.Failed() {
		return
	}
	a, errA := json.Marshal(orig.State())
	b, errB := json.Marshal(c.State())
	if err := errors.Join(errA, errB); err != nil {
		u.fail("clone-diverged", "state: %v", err)
		return
	}
	if string(a) != string(b) {
		u.fail("clone-diverged", "after %d ms the clone's state differs from the original's: %s", o.Ms, firstDiff(string(a), string(b)))
	}
}

// firstDiff shows where two strings first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-60, 0)
	return fmt.Sprintf("original ...%s... clone ...%s...", a[lo:min(i+60, len(a))], b[lo:min(i+60, len(b))])
}
