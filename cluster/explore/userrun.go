package explore

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// UserFailure is one invariant a user-level sequence broke.
type UserFailure struct {
	// Op is the number (1-based) of the operation after which it was
	// found in the sequence run; 0 for the final settle.
	Op int `json:"op"`
	// Invariant names it: internal-error, clock, bad-input-accepted,
	// good-input-refused, power-cut-durability, timeline, clone-diverged,
	// liveness, acked-loss, diverged, or "checker:" and the checker's
	// invariant.
	Invariant string `json:"invariant"`
	Text      string `json:"text"`
}

// String prints the failure on one line.
func (f UserFailure) String() string {
	if f.Op == 0 {
		return fmt.Sprintf("final settle: %s: %s", f.Invariant, f.Text)
	}
	return fmt.Sprintf("after op %d: %s: %s", f.Op, f.Invariant, f.Text)
}

// UserOutcome is what one user-level sequence did.
type UserOutcome struct {
	// Failures lists the broken invariants; the run stops at the first
	// operation that breaks any.
	Failures []UserFailure
	// Acked counts the acks=all records checked at the settles (within
	// the fault model); Lost lists those missing, Diverged the replicas
	// unlike their leader below the high watermark.
	Acked    int
	Lost     []string
	Diverged []string
	// OutsideModel is set if the world left the fault model at the end.
	OutsideModel bool
	// Skipped counts operations that did not apply (a power cut within
	// the model whose precondition failed, a wrong-state op with no
	// broker to aim at).
	Skipped int
	// Refused counts operations the world refused (bad input, or not
	// applicable now).
	Refused int
	// SimulatedMs is the simulated time the sequence ran, over every
	// world it played: a clone's run counts twice (the original and the
	// clone both run it), and the time a reset or a jump back leaves
	// behind still counts, as it was simulated; rebuilding a past moment
	// (a jump's replay from a snapshot) does not. It is what the
	// explorer's cost per simulated second is measured against.
	SimulatedMs int64
}

// Failed reports whether an invariant broke.
func (o UserOutcome) Failed() bool { return len(o.Failures) > 0 }

// String summarises the outcome.
func (o UserOutcome) String() string {
	if !o.Failed() {
		return fmt.Sprintf("ok (%d acked checked, %d refused, %d skipped)", o.Acked, o.Refused, o.Skipped)
	}
	var parts []string
	for _, f := range o.Failures {
		parts = append(parts, f.String())
	}
	return strings.Join(parts, "; ")
}

// userRun is one sequence being played.
type userRun struct {
	cfg  UserConfig
	seed uint64
	w    *cluster.World
	out  *UserOutcome
	op   int // the current operation's number
	// cuts are the power cuts of the current world: when, until when the
	// explorer waited for the fencing, and whether it was within the
	// model.
	cuts []cutMark
	// seenViolations is how many of the world's checker violations were
	// looked at.
	seenViolations int
	// damage lists the disk damage done to the current world.
	damage []damageMark
	// countedMs is the current world's clock when its simulated time was
	// last added to out.SimulatedMs.
	countedMs int64
}

// damageMark is one corrupt action applied: the world's action index it
// has, and the replica whose file it damaged.
type damageMark struct {
	action int
	broker int32
	tp     cluster.PartitionRef
}

type cutMark struct {
	atMs, untilMs int64
	safe          bool
}

// RunUserSequence plays ops on the world kafkalive serves, seeded with
// seed and under cfg.Rules, checking the invariants after each, then
// settles and checks again. It returns an error only if the world could
// not be built.
func RunUserSequence(cfg UserConfig, seed uint64, ops []UserOp) (UserOutcome, *cluster.World, error) {
	cfg = cfg.withDefaults()
	w, err := cfg.newWorld(seed)
	if err != nil {
		return UserOutcome{}, nil, err
	}
	var out UserOutcome
	u := &userRun{cfg: cfg, seed: seed, w: w, out: &out, countedMs: w.NowMs()}
	err = u.play(ops)
	u.countSimulated(u.w)
	return out, u.w, err
}

// play applies ops, then settles unless one of them failed.
func (u *userRun) play(ops []UserOp) error {
	for i, o := range ops {
		u.op = i + 1
		if err := u.apply(o); err != nil {
			return err
		}
		if u.out.Failed() {
			return nil
		}
	}
	u.op = 0
	u.settle()
	u.out.OutsideModel = !u.withinModel()
	return nil
}

// countSimulated adds the simulated time the current world ran since it
// was last counted, and goes on counting from next's clock: the world
// the sequence goes on with (the same one at the end of the sequence).
func (u *userRun) countSimulated(next *cluster.World) {
	u.out.SimulatedMs += max(u.w.NowMs()-u.countedMs, 0)
	u.countedMs = next.NowMs()
}

// fail records a broken invariant.
func (u *userRun) fail(inv, format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	if len(text) > 600 {
		text = text[:400] + fmt.Sprintf("...(%d bytes)...", len(text)-500) + text[len(text)-100:]
	}
	u.out.Failures = append(u.out.Failures, UserFailure{Op: u.op, Invariant: inv, Text: text})
}

// withinModel reports whether every power cut of the world was within
// the fault model.
func (u *userRun) withinModel() bool {
	for _, c := range u.cuts {
		if !c.safe {
			return false
		}
	}
	return true
}

// do applies an action and checks what every action must keep: no
// internal error, the clock where it should be, bad input refused.
func (u *userRun) do(a cluster.Action, bad bool) (applied bool) {
	w := u.w
	before, internal := w.NowMs(), w.InternalErrorCount()
	err := w.Do(a)
	if w.InternalErrorCount() > internal {
		ie := w.InternalErrors()
		text := "(not kept)"
		if len(ie) > 0 {
			text = ie[len(ie)-1].Error
		}
		u.fail("internal-error", "%s: %s", a, text)
		return false
	}
	if err != nil {
		u.out.Refused++
		if w.NowMs() != before {
			u.fail("clock", "%s was refused (%v) but moved the clock from %d to %d ms", a, err, before, w.NowMs())
		}
		return false
	}
	if bad {
		u.fail("bad-input-accepted", "%s was accepted", a)
		return true
	}
	want := before
	if a.Kind == cluster.ActRun {
		want += a.Ms
	}
	if w.NowMs() != want {
		u.fail("clock", "%s: the clock is at %d ms, not %d", a, w.NowMs(), want)
	}
	return true
}

// apply plays one operation and checks the invariants after it.
func (u *userRun) apply(o UserOp) error {
	w := u.w
	switch o.Kind {
	case UserAction:
		a := o.Action
		if a.Kind == cluster.ActProduce {
			a.Value = userValue(o)
		}
		if a.Kind == cluster.ActPowerCut && !o.Bad {
			u.powerCut(a, o.Safe)
			break
		}
		u.do(a, o.Bad)
	case UserWrongState:
		var id int32
		for _, b := range brokerIDs(w) {
			if (o.Action.Kind == cluster.ActStart) == (u.state(b) == cluster.BrokerRunning) {
				id = b
				break
			}
		}
		if id == 0 {
			u.out.Skipped++
			break
		}
		u.do(cluster.Action{Kind: o.Action.Kind, Broker: id}, true)
	case UserJump:
		u.jump(o)
	case UserClone:
		u.clone(o)
	case UserReset:
		nw, err := u.cfg.newWorld(u.seed)
		if err != nil {
			return err
		}
		u.countSimulated(nw)
		u.w, u.cuts, u.seenViolations, u.damage = nw, nil, 0, nil
	case UserCorrupt:
		u.corrupt(o)
	case UserWipe:
		var id int32
		for _, x := range brokerIDs(w) {
			if u.state(x) == cluster.BrokerFailed && (id == 0 || x == o.Action.Broker) {
				id = x
			}
		}
		if id == 0 {
			u.out.Skipped++
			break
		}
		u.wipeAndStart(id)
	case UserSettle:
		u.settle()
	case UserAlterConfigs:
		a, err := w.AlterTopicConfigs(o.Action.Name, o.Configs, false)
		switch {
		case o.Bad && err == nil:
			u.fail("bad-input-accepted", "%s was accepted", o)
		case !hasTopic(w, o.Action.Name) && err == nil:
			u.fail("bad-input-accepted", "%s was accepted, and the topic does not exist", o)
		case o.Bad, !hasTopic(w, o.Action.Name):
			// Bad input, or a topic a jump back to before its creation
			// took away: kafka-configs must refuse it.
			u.out.Refused++
		case err != nil:
			u.fail("good-input-refused", "%s was refused: %v", o, err)
		default:
			u.do(a, false)
		}
	case UserDeleteGroup:
		var members []string
		for _, c := range w.Consumers() {
			if c.Config().Group == o.Action.Name {
				members = append(members, c.Name())
			}
		}
		for _, m := range members {
			u.do(cluster.Action{Kind: cluster.ActCloseConsumer, Name: m}, false)
		}
		u.do(cluster.Action{Kind: cluster.ActRun, Ms: 1000}, false)
		u.do(cluster.Action{Kind: cluster.ActDeleteGroup, Name: o.Action.Name}, false)
		for _, m := range members {
			u.do(cluster.Action{Kind: cluster.ActRestartConsumer, Name: m}, false)
		}
	}
	u.checkViolations()
	u.checkTransactions(false)
	return nil
}

// hasTopic reports whether the world has topic name now.
func hasTopic(w *cluster.World, name string) bool {
	for _, t := range w.Topics() {
		if t.Name == name {
			return true
		}
	}
	return false
}

// checkViolations reports the world checker's new findings while the
// world is within the fault model.
func (u *userRun) checkViolations() {
	vs := u.w.Violations()
	if u.seenViolations > len(vs) {
		u.seenViolations = 0
	}
	if u.withinModel() {
		for _, v := range vs[u.seenViolations:] {
			if len(u.damagedOn(cluster.PartitionRef{Topic: v.Topic, Partition: v.Partition})) > 0 {
				continue
			}
			u.fail("checker:"+v.Invariant, "%s", v)
		}
	}
	u.seenViolations = len(vs)
}
