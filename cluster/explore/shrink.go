package explore

import "slices"

// How a run failed, as the shrinkers compare it: a shrunk sequence must
// fail the same way as the one drawn.
const (
	// KindError: the run could not go on (an internal error of the
	// world, an action it refused, a world that could not be built).
	KindError = "error"
	// KindAckedLoss: a record acknowledged with acks=all was lost.
	KindAckedLoss = "acked-loss"
	// KindDiverged: a replica differs from its leader below the high
	// watermark.
	KindDiverged = "diverged"
	// KindChecker prefixes the invariant of the world's checker
	// ([cluster.Violation]) that broke: "checker:isr-complete".
	KindChecker = "checker:"
)

// Kind names how a fault schedule's run failed, "" if it did not:
// [KindError] if it returned an error, else [KindAckedLoss] if it lost a
// record, else [KindDiverged] if replicas diverged, else [KindChecker]
// and the first invariant the world's checker found broken.
func (o Outcome) Kind(err error) string {
	switch {
	case err != nil:
		return KindError
	case len(o.Lost) > 0:
		return KindAckedLoss
	case len(o.Diverged) > 0:
		return KindDiverged
	case len(o.Violations) > 0:
		return KindChecker + o.Violations[0].Invariant
	}
	return ""
}

// Kind names how a user-level sequence's run failed, "" if it did not:
// [KindError] if it returned an error, else the first invariant it broke
// ([UserFailure.Invariant]: acked-loss, diverged, checker:..., liveness,
// clock...).
func (o UserOutcome) Kind(err error) string {
	switch {
	case err != nil:
		return KindError
	case o.Failed():
		return o.Failures[0].Invariant
	}
	return ""
}

// Shrink removes operations from a failing fault schedule, one at a time
// from the last, while the shorter schedule, replayed, still fails the
// same way ([Outcome.Kind]), until no single removal keeps it failing so.
// It returns the shortest schedule found with what its replay did: the
// schedule and the outcome belong to the same run. A schedule that does
// not fail is returned as it is, with its outcome.
func Shrink(cfg ReplicationConfig, seed uint64, ops []Op) ([]Op, Outcome, error) {
	return shrink(ops, func(ops []Op) (Outcome, string, error) {
		o, _, err := RunSchedule(cfg, seed, ops)
		return o, o.Kind(err), err
	})
}

// ShrinkUser is [Shrink] for a user-level sequence: it removes operations
// while the sequence still breaks the same invariant first
// ([UserOutcome.Kind]).
func ShrinkUser(cfg UserConfig, seed uint64, ops []UserOp) ([]UserOp, UserOutcome, error) {
	return shrink(ops, func(ops []UserOp) (UserOutcome, string, error) {
		o, _, err := RunUserSequence(cfg, seed, ops)
		return o, o.Kind(err), err
	})
}

// shrink is both shrinkers: run plays a sequence and says how it failed.
// Each candidate is replayed, and kept only if it fails as ops does.
func shrink[Op, Out any](ops []Op, run func([]Op) (Out, string, error)) ([]Op, Out, error) {
	out, kind, err := run(ops)
	if kind == "" {
		return ops, out, err
	}
	best := slices.Clone(ops)
	for changed := true; changed; {
		changed = false
		for i := len(best) - 1; i >= 0; i-- {
			try := slices.Delete(slices.Clone(best), i, i+1)
			if o, k, e := run(try); k == kind {
				best, out, err, changed = try, o, e, true
			}
		}
	}
	return best, out, err
}
