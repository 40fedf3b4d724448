package explore

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// The replay line: one command, kafkalive explore, replays a seed of
// either explorer with the flags of its configuration, those left at the
// command's defaults left out.

// Mode is "replication".
func (c ReplicationConfig) Mode() string { return "replication" }

// Run plays seed's fault schedule.
func (c ReplicationConfig) Run(seed uint64) Result {
	o, _, err := RunSchedule(c, seed, Schedule(c, seed))
	return Result{Seed: seed, Acked: o.Acked, Lost: len(o.Lost), Diverged: len(o.Diverged) > 0, Offline: o.Offline,
		Violating: len(o.Violations) > 0 || err != nil, Errored: err != nil, Skipped: o.Skipped, Kind: o.Kind(err)}
}

// Replay plays seed's fault schedule and shrinks it if it fails.
func (c ReplicationConfig) Replay(seed uint64) (Failure, *cluster.World) {
	drawn := Schedule(c, seed)
	ops, _, _ := Shrink(c, seed, drawn)
	o, w, err := RunSchedule(c, seed, ops) // what is printed is a replay of what is printed
	outcome := o.String()
	if err != nil {
		outcome += "; internal error: " + err.Error()
	}
	return newFailure(seed, len(drawn), ops, o.Kind(err), outcome, c.ReplayCommand(seed)), w
}

// ReplayCommand is kafkalive explore --mode replication with the
// configuration's flags: the command's own are min.insync.replicas 2, no
// unclean elections, the restricted power cuts and a tick of 100 ms.
func (c ReplicationConfig) ReplayCommand(seed uint64) string {
	c = c.withDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "kafkalive explore --mode %s --rules %s --ops %d", c.Mode(), c.Rules, c.Ops)
	if c.MinInsyncReplicas != 2 {
		fmt.Fprintf(&b, " --min-isr %d", c.MinInsyncReplicas)
	}
	if c.UncleanLeaderElectionEnable {
		b.WriteString(" --unclean")
	}
	if !c.RestrictPowerCuts {
		b.WriteString(" --restrict-power-cuts=false")
	}
	if c.TickMs != 100 {
		fmt.Fprintf(&b, " --tick %d", c.TickMs)
	}
	fmt.Fprintf(&b, " --seed %d --schedules 1", seed)
	return b.String()
}

// Mode is "users".
func (c UserConfig) Mode() string { return "users" }

// Run plays seed's user-level sequence.
func (c UserConfig) Run(seed uint64) Result {
	o, _, err := RunUserSequence(c, seed, UserSequence(c, seed))
	r := Result{Seed: seed, Acked: o.Acked, Lost: len(o.Lost), Diverged: len(o.Diverged) > 0, Errored: err != nil,
		Skipped: o.Skipped, Kind: o.Kind(err)}
	for _, f := range o.Failures {
		if f.Invariant != KindAckedLoss && f.Invariant != KindDiverged {
			r.Violating = true
		}
	}
	return r
}

// Replay plays seed's user-level sequence and shrinks it if it fails.
func (c UserConfig) Replay(seed uint64) (Failure, *cluster.World) {
	drawn := UserSequence(c, seed)
	ops, _, _ := ShrinkUser(c, seed, drawn)
	o, w, err := RunUserSequence(c, seed, ops) // what is printed is a replay of what is printed
	outcome := o.String()
	if err != nil {
		outcome += "; " + err.Error()
	}
	return newFailure(seed, len(drawn), ops, o.Kind(err), outcome, c.ReplayCommand(seed)), w
}

// newFailure is the failure of seed whose sequence of drawn operations
// shrank to ops, whose replay failed with kind and printed outcome.
func newFailure[Op fmt.Stringer](seed uint64, drawn int, ops []Op, kind, outcome, replay string) Failure {
	f := Failure{Seed: seed, Kind: kind, Ops: drawn, Outcome: outcome, Replay: replay}
	for _, op := range ops {
		f.Shrunk = append(f.Shrunk, op.String())
	}
	return f
}

// ReplayCommand is kafkalive explore --mode users with the
// configuration's flags.
func (c UserConfig) ReplayCommand(seed uint64) string {
	c = c.withDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "kafkalive explore --mode %s --rules %s --ops %d", c.Mode(), c.rules(), c.Ops)
	if c.MaxValueBytes > 0 {
		fmt.Fprintf(&b, " --max-value-bytes %d", c.MaxValueBytes)
	}
	if c.Transactions {
		b.WriteString(" --transactions")
	}
	if c.CopierMistake != "" {
		b.WriteString(" --copier-mistake " + c.CopierMistake)
	}
	fmt.Fprintf(&b, " --seed %d --schedules 1", seed)
	return b.String()
}
