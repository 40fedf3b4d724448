package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// UserExploreConfig configures the user-level explorer.
//
// The user-level explorer drives a whole world (the one kafkalive serves)
// the way its users do, with random sequences of every action the page
// and the terminal offer, and checks invariants after each one:
//
//   - the world never records an internal error
//     ([World.InternalErrors]), and its clock always reaches the time
//     asked for;
//   - an action with bad input (an unknown name, a negative number, a
//     broker in the wrong state) returns an error and changes neither the
//     clock nor the world's health;
//   - a power cut loses only bytes that were never synced: every record
//     that was on disk before the cut is still in the log read back from
//     the disk, and every partition directory is still there;
//   - a clone goes on exactly as its original, and a moment of the
//     timeline ([World.AtTime], [World.At]) is at the time asked for;
//   - once every broker runs and every link is healed for
//     UserSettleMs (replica.socket.timeout.ms more after the heal of a
//     cut link, and UserGroupSettleMs since the last consumer fault, up
//     to UserGroupSettleMs more while a group has not settled), every partition (__consumer_offsets too) has a leader
//     and its full ISR, every group with running members is Stable with
//     each of them a member and every partition of their topics assigned,
//     and such a group with a lag commits more within UserCommitCheckMs;
//   - within the fault model below, no record acknowledged with acks=all
//     is lost, no replica differs from its leader below the high
//     watermark, and the world's own checker ([World.Violations]) finds
//     nothing.
//
// The fault model is the one under which acks=all with
// min.insync.replicas 2 and clean leader elections promises no loss
// without KIP-966's eligible leader replicas (Kafka 3.7's rule, which
// [replica.Modern] implements): a power cut is "within the model" when
// [ExploreConfig.RestrictPowerCuts]'s precondition holds (every partition
// of the broker has min.insync.replicas running, registered ISR members
// that reach the controller) and the explorer then lets nothing else
// happen until the controller has fenced the broker. Process crashes,
// clean stops, OS writebacks and network cuts are always within it. A
// power cut drawn outside the model (or one whose fencing wait is cut
// short by a jump back in time) takes the world out of the model: from
// then on, loss, divergence and the checker are not judged (the other
// invariants still are) until a reset or a jump to before that cut.
//
// Disk damage ([UserCorrupt]: a byte flipped or bytes zeroed in a
// segment's .log, .index or .timeindex of a broker that is down) is
// within the model, for everything but what the damage itself takes:
// bytes that do not read. Kafka 3.7 checks no segment below the recovery
// point on a clean start and sends damaged bytes as they are: a follower
// of a damaged leader refuses them and stays behind, out of the ISR, and
// a consumer's poll throws at them, every time. So on a partition damaged
// on some broker (until a reset or a jump to before the damage) the settle
// asks for a leader but not for its full ISR, nor that its groups commit
// more, and neither the world's checker nor divergence is judged there;
// loss still is, on a partition damaged on one broker only: every record
// acknowledged with acks=all is held by an in-sync replica (the leader,
// or another when the leader's copy is the damaged one), unless the
// damaged replica was the only member of the ISR since the damage (then
// it leads with what its log kept: a recovery cuts the log at damage above
// the recovery point, and the records after it are gone, as in Kafka). A
// partition damaged on two brokers or more is not judged for loss, nor
// are a damaged replica's records by a power cut of its broker. Every other
// invariant holds under damage as without: no internal error (a damaged
// file is a Kafka error or a clear line, never a halted broker), the
// clock, refused bad input (a corrupt of a running broker), power cuts,
// clones and the timeline. The checkpoint files are drawn too (at the root
// of the log dir, and each partition's leader-epoch-checkpoint).
//
// A broker whose start meets a file Kafka 3.7 cannot load does not start
// ([BrokerFailed]: a checkpoint that does not parse, a log kafkalog
// refuses to open): that is no internal error, and the broker counts as
// down until the operator wipes what the failure names ([UserWipe],
// [ActWipe]) and starts it. The settle plays that operator: a broker its
// start leaves failed is wiped and started again, and must then run. A
// wiped partition counts as damaged on that broker (its replica comes back
// empty and fetches from its leader; if it was alone in the ISR, what it
// held is gone, as in Kafka).
type UserExploreConfig struct {
	// NewWorld builds the world a sequence starts from (and a reset goes
	// back to) for a seed (nil: [NewUserWorld], the world kafkalive
	// serves).
	NewWorld func(seed uint64) (*World, error)
	// Ops is the number of operations per sequence (default 20).
	Ops int
	// LongRunMs is the length of the rare long runs (default 10 minutes).
	LongRunMs int64
	// MaxValueBytes caps the values produced (0: up to 1.2 MB, past
	// max.request.size and segment.bytes).
	MaxValueBytes int
}

func (c UserExploreConfig) withDefaults() UserExploreConfig {
	if c.Ops == 0 {
		c.Ops = 20
	}
	if c.LongRunMs == 0 {
		c.LongRunMs = 10 * 60_000
	}
	if c.NewWorld == nil {
		c.NewWorld = NewUserWorld
	}
	return c
}

// Timings of the user-level explorer's settle step.
const (
	// UserSettleMs is how long a settle runs at least with every broker
	// up and every link healed before it checks liveness: a broker's
	// fencing (broker.session.timeout.ms 9 s), a controller failover and
	// the followers' catching up.
	UserSettleMs = 20_000
	// UserGroupSettleMs is how long after the last consumer fault (a
	// crash-consumer, restart-consumer or network cut) the settle runs
	// at least: a group consumer's session.timeout.ms (45 s) before the
	// coordinator drops a dead member, then a rebalance.
	UserGroupSettleMs = 60_000
	// UserCommitCheckMs is how long after that the committed offsets of
	// partitions with a lag must have moved (auto.commit.interval.ms is 5 s).
	UserCommitCheckMs = 8_000
)

// UserOpKind names an operation of the user-level explorer that is not a
// plain world [Action].
type UserOpKind string

// The user-level operations besides plain actions.
const (
	// UserAction applies UserOp.Action to the world.
	UserAction UserOpKind = "action"
	// UserWrongState applies UserOp.Action.Kind (stop, kill, start) to a
	// broker whose state refuses it (start a running broker, stop one
	// that is down), chosen when applied; skipped if there is none.
	UserWrongState UserOpKind = "wrong-state"
	// UserJump acts from the past: the world is rebuilt BackMs earlier
	// ([World.AtTime]), or BackSteps actions earlier ([World.At]), and
	// goes on from there.
	UserJump UserOpKind = "jump"
	// UserClone clones the world ([World.Clone]), runs both for Ms,
	// checks that they are the same, and goes on with the clone.
	UserClone UserOpKind = "clone"
	// UserReset goes back to a fresh world, as the page's reset does.
	UserReset UserOpKind = "reset"
	// UserSettle heals every link, starts every broker, runs at least
	// UserSettleMs and checks liveness, loss and divergence.
	UserSettle UserOpKind = "settle"
	// UserCorrupt damages the durable bytes of one file of a broker that
	// is down ([ActCorrupt]): Action.Broker if it is down, else the first
	// broker down (skipped if every broker runs); one byte flipped
	// (Action.Flip) or Action.N bytes zeroed, of a file and at an offset
	// chosen from Size when applied, among the broker's partition files
	// (segments' .log, .index and .timeindex; a .log two times in three).
	// With Bad it aims at a running broker instead, and must be refused.
	UserCorrupt UserOpKind = "corrupt"
	// UserWipe is the operator's answer to a broker whose start failed on
	// a damaged file ([BrokerFailed]): Action.Broker if it failed, else the
	// first that did (skipped if none), has the path its failure names
	// wiped ([ActWipe]: the partition directory, or the checkpoint file)
	// and is started again, until it runs.
	UserWipe UserOpKind = "wipe"
	// UserDeleteGroup is what a user does to delete a consumer group
	// (Action.Name) from the page: close every member of it, run a second,
	// delete it ([ActDeleteGroup]: refused if it is not Empty yet, or its
	// coordinator is down), and start the members again, which join the
	// group anew.
	UserDeleteGroup UserOpKind = "delete-group"
	// UserAlterConfigs alters the configs of topic Action.Name by Configs,
	// as kafka-configs --alter does from the page's terminal
	// ([World.AlterTopicConfigs], then the [ActAlterConfigs] it returns):
	// retention, min.insync.replicas, max.message.bytes, flushing, rolling
	// and indexing settings set or deleted. A valid one must be accepted;
	// with Bad (a value out of range, an unknown name, a list operation on
	// a number), refused. The invariants that follow hold as before:
	// retention deletes only below the log start offset, which the loss
	// check leaves out.
	UserAlterConfigs UserOpKind = "alter-configs"
)

// UserOp is one operation of a user-level sequence.
type UserOp struct {
	Kind   UserOpKind
	Action Action
	// ID numbers the operation in the sequence as drawn (it stays when
	// shrinking removes others): a produced value starts with "u<ID>-".
	ID int
	// Size is a produce's value size in bytes.
	Size int
	// Safe marks a power cut meant to be within the fault model (skipped
	// when its precondition does not hold).
	Safe bool
	// Bad marks an operation with bad input: it must be refused.
	Bad bool
	// BackMs and BackSteps say how far a jump goes back; Ms is how long a
	// clone runs.
	BackMs    int64
	BackSteps int
	Ms        int64
	// Configs are an alter-configs' changes.
	Configs []ConfigOp
}

// String prints the operation, e.g. "produce checkout size=20000
// key=alice", "power-cut 2 torn (within the fault model)".
func (o UserOp) String() string {
	var s string
	switch o.Kind {
	case UserAction:
		a := o.Action
		if a.Kind == ActProduce {
			s = fmt.Sprintf("produce %s size=%d", a.Name, o.Size)
			if a.Key != "" {
				s += " key=" + a.Key
			}
			if a.Partition >= 0 {
				s += fmt.Sprintf(" partition=%d", a.Partition)
			}
		} else {
			s = a.String()
		}
		if o.Safe {
			s += " (within the fault model)"
		}
	case UserWrongState:
		s = fmt.Sprintf("%s a broker in the wrong state", o.Action.Kind)
	case UserJump:
		if o.BackSteps > 0 {
			s = fmt.Sprintf("jump back %d actions and act from there", o.BackSteps)
		} else {
			s = fmt.Sprintf("jump back %d ms and act from there", o.BackMs)
		}
	case UserClone:
		s = fmt.Sprintf("clone, run both %d ms, go on with the clone", o.Ms)
	case UserReset:
		s = "reset"
	case UserSettle:
		s = "settle (heal, start every broker, run, check)"
	case UserCorrupt:
		how := "flip a byte"
		if !o.Action.Flip {
			how = fmt.Sprintf("zero %d bytes", o.Action.N)
		}
		s = fmt.Sprintf("corrupt: %s of a partition file of broker %d, or of a broker that is down (pick %d)", how, o.Action.Broker, o.Size)
	case UserWipe:
		s = fmt.Sprintf("wipe what the failed start of broker %d (or of another that failed) names, and start it", o.Action.Broker)
	case UserDeleteGroup:
		s = fmt.Sprintf("close the members of group %s, run 1 s, delete the group, start the members again", o.Action.Name)
	case UserAlterConfigs:
		s = fmt.Sprintf("kafka-configs --alter %s: %s", o.Action.Name, ConfigOpsString(o.Configs))
	default:
		s = string(o.Kind)
	}
	if o.Bad {
		s += " (bad input)"
	}
	return s
}

// userValue is the value a produce operation sends.
func userValue(o UserOp) string {
	v := fmt.Sprintf("u%d-", o.ID)
	if o.Size > len(v) {
		v += strings.Repeat("x", o.Size-len(v))
	}
	return v
}

// The default world's names the draws pick from.
var (
	userProducers = []string{"checkout", "clicks", "profile-svc"}
	userConsumers = []string{"billing-1", "billing-2", "indexer"}
	userGroups    = []string{"billing", "search-index"}
	userTopics    = []string{"orders", "profiles"}
)

// UserSequence draws a random sequence of user operations from seed.
func UserSequence(cfg UserExploreConfig, seed uint64) []UserOp {
	cfg = cfg.withDefaults()
	r := rand.New(rand.NewPCG(seed, 0x05e75eed))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	consumers := slices.Clone(userConsumers)
	groups := slices.Clone(userGroups)
	broker := func() int32 { return int32(r.IntN(3) + 1) }
	// Disk damage is drawn from a stream of its own, so that the other
	// draws of a seed are those of a sequence without it.
	rd := rand.New(rand.NewPCG(seed, 0xda3a9e))
	var ops []UserOp
	for len(ops) < cfg.Ops {
		if rd.IntN(30) == 0 {
			if rd.IntN(4) == 0 {
				ops = append(ops, UserOp{Kind: UserWipe, ID: len(ops) + 1, Action: Action{Kind: ActWipe, Broker: int32(rd.IntN(3) + 1)}})
				continue
			}
			ops = append(ops, UserOp{Kind: UserCorrupt, ID: len(ops) + 1, Size: rd.IntN(1 << 30), Bad: rd.IntN(10) == 0,
				Action: Action{Kind: ActCorrupt, Broker: int32(rd.IntN(3) + 1), Flip: rd.IntN(2) == 0, N: 1 + rd.IntN(8)}})
			continue
		}
		o := UserOp{Kind: UserAction, ID: len(ops) + 1}
		bad := r.IntN(10) == 0
		switch n := r.IntN(100); {
		case n < 17:
			o.Action = Action{Kind: ActProduce, Name: pick(userProducers), Partition: -1}
			switch k := r.IntN(10); {
			case k < 3:
				o.Action.Key = pick([]string{"alice", "bob", "u1"})
			case k < 4:
				o.Action.Key = fmt.Sprintf("k%d", r.IntN(1000))
			}
			switch k := r.IntN(20); {
			case k < 12:
				o.Size = r.IntN(40)
			case k < 16:
				o.Size = 100 + r.IntN(4000)
			case k < 19:
				o.Size = 15_000 + r.IntN(10_000) // about segment.bytes (16 KiB) and more
			default:
				o.Size = 900_000 + r.IntN(300_000) // about max.request.size (1 MiB)
			}
			if cfg.MaxValueBytes > 0 {
				o.Size = min(o.Size, cfg.MaxValueBytes)
			}
			if r.IntN(8) == 0 {
				o.Action.Partition = int32(r.IntN(4)) // 3 is past orders' partitions
			}
			if bad {
				o.Action.Name, o.Bad = "nobody", true
			}
		case n < 22:
			p := ProducerConfig{Rate: pick2(r, []float64{0, 0.5, 1.5, 3, 20}), Acks: pick([]string{"all", "all", "1", "0"})}
			if r.IntN(2) == 0 {
				p.Keys = []string{"alice", "bob"}
			}
			o.Action = Action{Kind: ActSetProducer, Name: pick(userProducers), Producer: p}
			if bad {
				switch r.IntN(3) {
				case 0:
					o.Action.Producer.Rate = -1
				case 1:
					o.Action.Producer.Acks = "2"
				default:
					o.Action.Name = "nobody"
				}
				o.Bad = true
			}
		case n < 38:
			ms := int64(r.IntN(50)+1) * 100
			switch k := r.IntN(50); {
			case k == 0:
				ms = cfg.LongRunMs/2 + r.Int64N(cfg.LongRunMs/2+1)
			case k < 6:
				ms = int64(r.IntN(55)+5) * 1000
			}
			o.Action = Action{Kind: ActRun, Ms: ms}
			if bad {
				o.Action.Ms, o.Bad = -ms, true
			}
		case n < 43:
			name := fmt.Sprintf("c%d", o.ID)
			g := pick(groups)
			if r.IntN(4) == 0 {
				g = fmt.Sprintf("g%d", o.ID)
				groups = append(groups, g)
			}
			c := ConsumerConfig{Name: name, Group: g, Topics: []string{pick(userTopics)}, PollIntervalMs: 1000}
			if r.IntN(3) == 0 {
				c.MaxPollRecords = 1 + r.IntN(10)
			}
			if r.IntN(10) == 0 {
				c = ConsumerConfig{Name: name, Topic: pick(userTopics), PollIntervalMs: 1000}
			}
			if bad {
				if r.IntN(2) == 0 {
					c.Topics, c.Topic = []string{"nope"}, "nope"
					c.Partition = 9
				} else {
					c.Name = ""
				}
				o.Bad = true
			} else {
				consumers = append(consumers, name)
			}
			o.Action = Action{Kind: ActAddConsumer, Consumer: c}
		case n < 53:
			kind := []ActionKind{ActCloseConsumer, ActCrashConsumer, ActCrashConsumer, ActRestartConsumer}[r.IntN(4)]
			o.Action = Action{Kind: kind, Name: pick(consumers)}
			if bad {
				o.Action.Name, o.Bad = "nobody", true
			}
		case n < 57:
			o.Action = Action{Kind: ActStop, Broker: broker()}
		case n < 62:
			o.Action = Action{Kind: ActKill, Broker: broker()}
		case n < 68:
			o.Action = Action{Kind: ActPowerCut, Broker: broker(), Torn: r.IntN(2) == 0}
			o.Safe = r.IntN(4) != 0
		case n < 75:
			o.Action = Action{Kind: ActStart, Broker: broker()}
		case n < 77:
			o.Action = Action{Kind: ActWriteback, Broker: broker()}
		case n < 81:
			b := broker()
			if r.IntN(2) == 0 {
				o.Action = Action{Kind: ActPartition, A: []int32{b}, B: everyoneBut(b)}
			} else {
				o.Action = Action{Kind: ActPartition, A: []int32{b}, B: []int32{b%3 + 1}}
			}
		case n < 85:
			o.Action = Action{Kind: ActHeal}
		case n < 88 && r.IntN(3) == 0:
			o = UserOp{Kind: UserDeleteGroup, ID: o.ID, Action: Action{Kind: ActDeleteGroup, Name: pick(groups)}}
			if bad {
				o = UserOp{Kind: UserAction, ID: o.ID, Action: Action{Kind: ActDeleteGroup, Name: "nope"}, Bad: true}
			}
		case n < 88:
			rs := OffsetReset{Group: pick(groups), Topic: pick(userTopics), To: pick([]string{ResetEarliest, ResetLatest, ResetToOffset})}
			if rs.To == ResetToOffset {
				rs.Offset = int64(r.IntN(50))
			}
			if bad {
				if r.IntN(2) == 0 {
					rs.Topic = "nope"
				} else {
					rs.To = "sideways"
				}
				o.Bad = true
			}
			o.Action = Action{Kind: ActResetOffsets, Reset: rs}
		case n < 90 && r.IntN(2) == 0:
			o = UserOp{Kind: UserAlterConfigs, ID: o.ID, Action: Action{Name: pick(userTopics)}, Configs: userConfigOps(r, bad), Bad: bad}
		case n < 90:
			o = UserOp{Kind: UserWrongState, ID: o.ID, Action: Action{Kind: []ActionKind{ActStop, ActKill, ActStart}[r.IntN(3)]}, Bad: true}
		case n < 91:
			kinds := []ActionKind{ActStop, ActKill, ActPowerCut, ActStart, ActWriteback}
			o.Action = Action{Kind: kinds[r.IntN(len(kinds))], Broker: []int32{0, 4, -1, 1 << 30}[r.IntN(4)]}
			o.Bad = true
		case n < 95:
			o = UserOp{Kind: UserJump, ID: o.ID}
			if r.IntN(3) == 0 {
				o.BackSteps = 1 + r.IntN(5)
			} else {
				o.BackMs = int64(r.IntN(120)+1) * 500
			}
		case n < 97:
			o = UserOp{Kind: UserClone, ID: o.ID, Ms: int64(r.IntN(30)+1) * 100}
		case n < 98:
			o = UserOp{Kind: UserReset, ID: o.ID}
		default:
			o = UserOp{Kind: UserSettle, ID: o.ID}
		}
		ops = append(ops, o)
	}
	return ops
}

// userConfigOps draws the changes of an alter-configs: one to three of
// the settings a user tries from the terminal, set or deleted; with bad,
// one of them is invalid. Neither segment.bytes (lowered below a batch a
// follower has yet to fetch, it stops the follower, as in Kafka) nor
// cleanup.policy (compaction removes acknowledged records by design) nor
// unclean.leader.election.enable (which gives up acknowledged records)
// is drawn: the loss and liveness checks that follow assume the topics'
// durability.
func userConfigOps(r *rand.Rand, bad bool) []ConfigOp {
	str := func(s string) *string { return &s }
	choices := []ConfigOp{
		{Name: "retention.ms", Value: str(pick2(r, []string{"-1", "60000", "10000", "604800000"}))},
		{Name: "retention.bytes", Value: str(pick2(r, []string{"-1", "20000", "100000"}))},
		{Name: "min.insync.replicas", Value: str(pick2(r, []string{"1", "2", "3"}))},
		{Name: "max.message.bytes", Value: str(pick2(r, []string{"2000000", "5000"}))},
		{Name: "flush.messages", Value: str(pick2(r, []string{"1", "10"}))},
		{Name: "segment.ms", Value: str(pick2(r, []string{"5000", "600000"}))},
		{Name: "index.interval.bytes", Value: str(pick2(r, []string{"0", "4096"}))},
		{Name: "file.delete.delay.ms", Value: str(pick2(r, []string{"0", "60000"}))},
		{Name: "message.timestamp.type", Value: str(pick2(r, []string{"CreateTime", "LogAppendTime"}))},
	}
	var ops []ConfigOp
	for _, i := range r.Perm(len(choices))[:1+r.IntN(3)] {
		o := choices[i]
		if r.IntN(4) == 0 {
			o = ConfigOp{Name: o.Name, Op: ConfigDelete}
		}
		ops = append(ops, o)
	}
	if bad {
		i := r.IntN(len(ops))
		ops[i] = pick2(r, []ConfigOp{
			{Name: "retention.ms", Value: str("-5")},
			{Name: "min.insync.replicas", Value: str("0")},
			{Name: "retention.mss", Value: str("1000")},
			{Name: "segment.bytes", Value: str("lots")},
			{Name: "retention.ms", Op: ConfigAppend, Value: str("1000")},
		})
		if slices.ContainsFunc(ops[:i], func(o ConfigOp) bool { return o.Name == ops[i].Name }) || slices.ContainsFunc(ops[i+1:], func(o ConfigOp) bool { return o.Name == ops[i].Name }) {
			ops = []ConfigOp{ops[i]} // a name twice is refused too, but for another reason
		}
	}
	return ops
}

func pick2[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// everyoneBut is every node but broker id: the other brokers, the
// controller, the consumers and the default world's producers.
func everyoneBut(id int32) []int32 {
	out := []int32{ControllerID, netsim.ConsumerNode, netsim.ProducerBase, netsim.ProducerBase + 1, netsim.ProducerBase + 2}
	for b := int32(1); b <= 3; b++ {
		if b != id {
			out = append(out, b)
		}
	}
	return out
}

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
	cfg  UserExploreConfig
	seed uint64
	w    *World
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
}

// damageMark is one corrupt action applied: the world's action index it
// has, and the replica whose file it damaged.
type damageMark struct {
	action int
	broker int32
	tp     PartitionRef
}

type cutMark struct {
	atMs, untilMs int64
	safe          bool
}

// RunUserSequence plays ops on a world built by cfg.NewWorld(seed),
// checking the invariants after each, then settles and checks again. It
// returns an error only if the world could not be built.
func RunUserSequence(cfg UserExploreConfig, seed uint64, ops []UserOp) (UserOutcome, *World, error) {
	cfg = cfg.withDefaults()
	w, err := cfg.NewWorld(seed)
	if err != nil {
		return UserOutcome{}, nil, err
	}
	var out UserOutcome
	u := &userRun{cfg: cfg, seed: seed, w: w, out: &out}
	for i, o := range ops {
		u.op = i + 1
		if err := u.apply(o); err != nil {
			return out, u.w, err
		}
		if out.Failed() {
			return out, u.w, nil
		}
	}
	u.op = 0
	u.settle()
	out.OutsideModel = !u.withinModel()
	return out, u.w, nil
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
func (u *userRun) do(a Action, bad bool) (applied bool) {
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
	if a.Kind == ActRun {
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
		if a.Kind == ActProduce {
			a.Value = userValue(o)
		}
		if a.Kind == ActPowerCut && !o.Bad {
			u.powerCut(a, o.Safe)
			break
		}
		u.do(a, o.Bad)
	case UserWrongState:
		var id int32
		for _, b := range w.brokers {
			running := b.State() == BrokerRunning
			if (o.Action.Kind == ActStart) == running {
				id = b.ID()
				break
			}
		}
		if id == 0 {
			u.out.Skipped++
			break
		}
		u.do(Action{Kind: o.Action.Kind, Broker: id}, true)
	case UserJump:
		u.jump(o)
	case UserClone:
		u.clone(o)
	case UserReset:
		nw, err := u.cfg.NewWorld(u.seed)
		if err != nil {
			return err
		}
		u.w, u.cuts, u.seenViolations, u.damage = nw, nil, 0, nil
	case UserCorrupt:
		u.corrupt(o)
	case UserWipe:
		var b *broker.Broker
		for _, x := range w.brokers {
			if x.State() == BrokerFailed && (b == nil || x.ID() == o.Action.Broker) {
				b = x
			}
		}
		if b == nil {
			u.out.Skipped++
			break
		}
		u.wipeAndStart(b)
	case UserSettle:
		u.settle()
	case UserAlterConfigs:
		a, err := w.AlterTopicConfigs(o.Action.Name, o.Configs, false)
		switch {
		case o.Bad && err == nil:
			u.fail("bad-input-accepted", "%s was accepted", o)
		case o.Bad:
			u.out.Refused++
		case err != nil:
			u.fail("good-input-refused", "%s was refused: %v", o, err)
		default:
			u.do(a, false)
		}
	case UserDeleteGroup:
		var members []string
		for _, c := range w.consumers {
			if c.grp != nil && c.cfg.Group == o.Action.Name {
				members = append(members, c.cfg.Name)
			}
		}
		for _, m := range members {
			u.do(Action{Kind: ActCloseConsumer, Name: m}, false)
		}
		u.do(Action{Kind: ActRun, Ms: 1000}, false)
		u.do(Action{Kind: ActDeleteGroup, Name: o.Action.Name}, false)
		for _, m := range members {
			u.do(Action{Kind: ActRestartConsumer, Name: m}, false)
		}
	}
	u.checkViolations()
	return nil
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
			if len(u.damagedOn(PartitionRef{Topic: v.Topic, Partition: v.Partition})) > 0 {
				continue
			}
			u.fail("checker:"+v.Invariant, "%s", v)
		}
	}
	u.seenViolations = len(vs)
}

// durableRecord is a record on a broker's disk before a power cut.
type durableRecord struct {
	tp     PartitionRef
	offset int64
	key    string
	value  string
}

// powerCut cuts a broker's power and checks that only unsynced bytes
// were lost. Within the fault model it waits until the controller has
// fenced the broker.
func (u *userRun) powerCut(a Action, safe bool) {
	w := u.w
	if safe && !w.powerCutAllowed(a.Broker) {
		u.out.Skipped++
		return
	}
	durable, dirs := u.onDisk(a.Broker)
	at := w.NowMs()
	if !u.do(a, false) {
		return
	}
	mark := cutMark{atMs: at, untilMs: at}
	u.checkCut(a, durable, dirs)
	if safe && !u.out.Failed() {
		// The fencing takes broker.session.timeout.ms, after a controller
		// failover if the broker ran the active controller.
		wait := w.cfg.BrokerSessionTimeoutMs + w.cfg.ControllerFailoverMs + w.cfg.TickMs
		u.do(Action{Kind: ActRun, Ms: wait}, false)
		for extra := 0; extra < 10 && !u.fenced(a.Broker) && !u.out.Failed(); extra++ {
			u.do(Action{Kind: ActRun, Ms: 1000}, false)
		}
		mark.untilMs = w.NowMs()
		mark.safe = u.fenced(a.Broker)
	}
	u.cuts = append(u.cuts, mark)
}

// fenced reports whether the controller has fenced (or never
// registered) broker id.
func (u *userRun) fenced(id int32) bool {
	for _, b := range u.w.State().Brokers {
		if b.ID == id {
			return b.Controller != "unfenced"
		}
	}
	return false
}

// onDisk returns the records on broker id's disk and the partition
// directories of its log dir.
func (u *userRun) onDisk(id int32) ([]durableRecord, []string) {
	var recs []durableRecord
	for _, p := range u.w.State().Partitions {
		for _, l := range p.Logs {
			if l.Broker != id {
				continue
			}
			for _, r := range l.Records {
				if r.Durable {
					recs = append(recs, durableRecord{tp: PartitionRef{Topic: p.Topic, Partition: p.Partition}, offset: r.Offset, key: r.Key, value: r.Value})
				}
			}
		}
	}
	var dirs []string
	if fsys, err := u.w.BrokerFS(id); err == nil {
		names, _ := fsys.List(LogDir)
		for _, n := range names {
			if st, err := fsys.Stat(fsys.PathJoin(LogDir, n)); err == nil && st.IsDir() {
				dirs = append(dirs, n)
			}
		}
	}
	return recs, dirs
}

// checkCut checks that what was on disk before the power cut still is.
func (u *userRun) checkCut(a Action, durable []durableRecord, dirs []string) {
	after, afterDirs := u.onDiskAll(a.Broker)
	for _, d := range dirs {
		if !slices.Contains(afterDirs, d) {
			u.fail("power-cut-durability", "%s: directory %s/%s existed before the cut and is gone", a, LogDir, d)
			return
		}
	}
	for _, r := range durable {
		if slices.Contains(u.damagedOn(r.tp), a.Broker) {
			continue // the recovery after the cut may cut the log at the damage
		}
		got, ok := after[recordAt{r.tp, r.offset}]
		if !ok {
			u.fail("power-cut-durability", "%s: %s-%d offset %d (%q) was on disk before the cut and is gone", a, r.tp.Topic, r.tp.Partition, r.offset, short(r.value))
			return
		}
		if got != [2]string{r.key, r.value} {
			u.fail("power-cut-durability", "%s: %s-%d offset %d was %q on disk before the cut, %q after", a, r.tp.Topic, r.tp.Partition, r.offset, short(r.value), short(got[1]))
			return
		}
	}
}

type recordAt struct {
	tp     PartitionRef
	offset int64
}

// onDiskAll returns every record broker id's logs hold (read from disk
// when it is down) and its partition directories.
func (u *userRun) onDiskAll(id int32) (map[recordAt][2]string, []string) {
	out := map[recordAt][2]string{}
	for _, p := range u.w.State().Partitions {
		for _, l := range p.Logs {
			if l.Broker != id {
				continue
			}
			for _, r := range l.Records {
				out[recordAt{PartitionRef{Topic: p.Topic, Partition: p.Partition}, r.Offset}] = [2]string{r.Key, r.Value}
			}
		}
	}
	_, dirs := u.onDisk(id)
	return out, dirs
}

// short abbreviates a long value for a message.
func short(v string) string {
	if len(v) > 24 {
		return fmt.Sprintf("%s...(%d bytes)", v[:16], len(v))
	}
	return v
}

// jump rebuilds the world earlier on its timeline and goes on from there.
func (u *userRun) jump(o UserOp) {
	w := u.w
	var (
		f    *World
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
		last := w.actionBase + len(w.Actions()) - 1
		f, err = w.At(max(last-o.BackSteps, w.actionBase))
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
		if d.action < f.actionBase+len(f.actions) {
			damage = append(damage, d)
		}
	}
	u.w, u.cuts, u.seenViolations, u.damage = f, cuts, len(f.Violations()), damage
}

// clone runs the world and a clone of it side by side and checks that
// they stay the same.
func (u *userRun) clone(o UserOp) {
	c := u.w.Clone()
	orig := u.w
	u.do(Action{Kind: ActRun, Ms: o.Ms}, false)
	u.w = c
	u.do(Action{Kind: ActRun, Ms: o.Ms}, false)
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

// settle heals the network, starts every broker, runs UserSettleMs (or
// until UserGroupSettleMs after the last consumer fault) and checks
// liveness, loss and divergence (replica.socket.timeout.ms more after a
// heal of a cut link), then runs UserCommitCheckMs and checks
// that committed offsets moved.
func (u *userRun) settle() {
	// A fetch or request lost on a link that is still cut is given up only
	// after replica.socket.timeout.ms (a request timeout), as Kafka's
	// fetcher gives it up: only then does the follower fetch again and
	// rejoin the ISR. So a settle waits that long more after the heal of
	// a cut link, the settle's own or an earlier one.
	cutEndMs, wasCut := u.lastCutEndMs()
	if !u.do(Action{Kind: ActHeal}, false) {
		return
	}
	for _, b := range u.w.brokers {
		if b.State() != BrokerRunning {
			if !u.do(Action{Kind: ActStart, Broker: b.ID()}, false) || u.out.Failed() {
				if !u.out.Failed() {
					u.fail("liveness", "broker %d could not be started", b.ID())
				}
				return
			}
		}
		// A start that failed on a damaged file: the operator wipes it.
		if b.State() == BrokerFailed && !u.wipeAndStart(b) {
			if !u.out.Failed() {
				u.fail("liveness", "broker %d does not start even after what its failures named was wiped: %s", b.ID(), u.w.StartFailure(b.ID()))
			}
			return
		}
	}
	settleMs := max(UserSettleMs, u.lastConsumerFaultMs()+UserGroupSettleMs-u.w.NowMs())
	if wasCut {
		settleMs = max(settleMs, cutEndMs+replica.DefaultReplicaSocketTimeoutMs+UserSettleMs-u.w.NowMs())
	}
	if !u.do(Action{Kind: ActRun, Ms: settleMs}, false) || u.out.Failed() {
		return
	}
	st := u.w.State()
	// A consumer that crashed while its JoinGroup waited at the
	// coordinator is still made a member of the generation that join
	// completes (GroupCoordinator.onCompleteJoin answers every member whose
	// JoinGroup is parked), and its session (session.timeout.ms) starts only
	// then: after a chain of such crashes the group settles a session and a
	// rebalance later than UserGroupSettleMs after the last fault. So while
	// a group is not settled the settle runs on, UserGroupSettleMs more at
	// most.
	for extra := int64(0); extra < UserGroupSettleMs && u.groupProblem(st) != ""; extra += 5000 {
		if !u.do(Action{Kind: ActRun, Ms: 5000}, false) || u.out.Failed() {
			return
		}
		st = u.w.State()
	}
	u.checkLeaders(st)
	u.checkGroups(st)
	u.checkMirrors()
	if u.withinModel() {
		u.checkAcked(st)
	}
	if u.out.Failed() {
		return
	}
	if !u.do(Action{Kind: ActRun, Ms: UserCommitCheckMs}, false) || u.out.Failed() {
		return
	}
	u.checkCommits(st, u.w.State())
}

// checkMirrors asks that every running replica's mirror hold what its
// segment files hold from its log start on (mirror.go: the chunks, lazy
// or not, decode to the records the files hold). A replica with damaged
// bytes is left out: its mirror holds what decodes.
func (u *userRun) checkMirrors() {
	for _, b := range u.w.brokers {
		if b.State() != BrokerRunning {
			continue
		}
		for _, tp := range b.Partitions() {
			s := b.Partition(tp)
			if s == nil || s.Log.Damaged() {
				continue
			}
			if problem := s.Log.MirrorProblem(); problem != "" {
				u.fail("mirror", "broker %d's %s: %s", b.ID(), tp, problem)
				return
			}
		}
	}
}

// lastCutEndMs returns when the world's last cut link was healed (now if
// a link is still cut), and whether any link was cut. On a bounded
// timeline whose oldest events fell off, a heal may end a cut made before
// them: it counts.
func (u *userRun) lastCutEndMs() (int64, bool) {
	if len(u.w.State().Network) > 0 {
		return u.w.NowMs(), true
	}
	evs := u.w.Events()
	var end int64
	cut := len(evs) > 0 && evs[0].Seq > 0
	any := false
	for _, e := range evs {
		if e.Kind != EventAction {
			continue
		}
		switch {
		case strings.HasPrefix(e.Text, string(ActPartition)+" "):
			cut, any = true, true
		case e.Text == string(ActHeal) && cut:
			cut, end, any = false, e.TimeMs, true
		}
	}
	return end, any
}

// lastConsumerFaultMs returns when the world's last crash-consumer,
// restart-consumer or network cut was applied (or -UserGroupSettleMs).
func (u *userRun) lastConsumerFaultMs() int64 {
	evs := u.w.Events()
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if e.Kind != EventAction {
			continue
		}
		for _, k := range []ActionKind{ActCrashConsumer, ActRestartConsumer, ActPartition} {
			if strings.HasPrefix(e.Text, string(k)+" ") {
				return e.TimeMs
			}
		}
	}
	return -UserGroupSettleMs
}

// checkLeaders: every partition has a leader and its whole ISR.
func (u *userRun) checkLeaders(st State) {
	parts := slices.Clone(st.Partitions)
	parts = append(parts, u.w.TopicPartitions(OffsetsTopic)...)
	for _, p := range parts {
		isr := slices.Clone(p.ISR)
		slices.Sort(isr)
		reps := slices.Clone(p.Replicas)
		slices.Sort(reps)
		damaged := len(u.damagedOn(PartitionRef{Topic: p.Topic, Partition: p.Partition})) > 0
		if p.Leader == replica.NoLeader || p.Leader <= 0 || !damaged && !slices.Equal(isr, reps) {
			u.fail("liveness", "after the settle, with every broker running and every link healed, %s-%d has leader %d and ISR %v (replicas %v)",
				p.Topic, p.Partition, p.Leader, p.ISR, p.Replicas)
			return
		}
	}
}

// checkGroups: every group with running members is Stable, each running
// member is in it, and every partition of their topics is assigned.
func (u *userRun) checkGroups(st State) {
	if p := u.groupProblem(st); p != "" {
		u.fail("liveness", "%s", p)
	}
}

// groupProblem says what is not settled in the groups (see checkGroups),
// "" if nothing.
func (u *userRun) groupProblem(st State) string {
	live := map[string][]*Consumer{}
	for _, c := range u.w.consumers {
		if c.grp != nil && !c.grp.down {
			live[c.cfg.Group] = append(live[c.cfg.Group], c)
		}
	}
	for _, g := range st.Groups {
		cs := live[g.Name]
		if len(cs) == 0 {
			continue
		}
		if g.State != "Stable" {
			return fmt.Sprintf("after the settle, with every broker running and every link healed, group %s with %d running members is %s (generation %d)",
				g.Name, len(cs), g.State, g.Generation)
		}
		clients := map[string]bool{}
		assigned := map[PartitionRef]bool{}
		for _, m := range g.Members {
			// A member whose process is gone (it crashed while its
			// JoinGroup waited, and that join made it a member) keeps its
			// partitions until its session expires: no commit moves them
			// until the rebalance that follows.
			if len(m.Assignment) > 0 && strings.HasPrefix(m.Idle, "its process is gone") {
				return fmt.Sprintf("group %s is Stable but its member %s holds %v for a process that is gone (%s)", g.Name, m.ID, m.Assignment, m.Idle)
			}
			clients[m.ClientID] = true
			for _, p := range m.Assignment {
				assigned[p] = true
			}
		}
		topics := map[string]bool{}
		for _, c := range cs {
			if !clients[c.cfg.Name] {
				return fmt.Sprintf("group %s is Stable without its running member %s (members %v)", g.Name, c.cfg.Name, slices.Sorted(mapKeys(clients)))
			}
			for _, t := range c.cfg.Topics {
				topics[t] = true
			}
		}
		for _, t := range u.w.ctl.Topics() {
			if !topics[t.Name] {
				continue
			}
			for p := range int32(len(t.Assignment)) {
				if !assigned[PartitionRef{Topic: t.Name, Partition: p}] {
					return fmt.Sprintf("group %s is Stable but %s-%d is assigned to none of its members", g.Name, t.Name, p)
				}
			}
		}
	}
	return ""
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkCommits: every Stable group with running members that had a lag
// on a partition with an offset committed has committed more
// UserCommitCheckMs later. (One partition may wait longer: a consumer
// drains the records it fetched from one partition before it reads the
// next, max.poll.records at a time.)
func (u *userRun) checkCommits(before, after State) {
	live := map[string]bool{}
	for _, c := range u.w.consumers {
		if c.grp != nil && !c.grp.down {
			live[c.cfg.Group] = true
		}
	}
	now := map[string]map[PartitionRef]int64{}
	for _, g := range after.Groups {
		now[g.Name] = map[PartitionRef]int64{}
		for _, o := range g.Offsets {
			now[g.Name][PartitionRef{Topic: o.Topic, Partition: o.Partition}] = o.Committed
		}
	}
	for _, g := range before.Groups {
		if !live[g.Name] || g.State != "Stable" {
			continue
		}
		lagging, moved := []string{}, false
		for _, o := range g.Offsets {
			if o.Committed < 0 || o.Lag <= 0 || o.Member == "" {
				continue
			}
			tp := PartitionRef{Topic: o.Topic, Partition: o.Partition}
			if now[g.Name][tp] > o.Committed {
				moved = true
			}
			if len(u.damagedOn(tp)) == 0 {
				// A damaged partition's consumer may be stuck at the damage.
				lagging = append(lagging, fmt.Sprintf("%s-%d at %d, lag %d", o.Topic, o.Partition, o.Committed, o.Lag))
			}
		}
		if len(lagging) > 0 && !moved {
			u.fail("liveness", "group %s committed nothing more in %d ms with a lag on %s", g.Name, UserCommitCheckMs, strings.Join(lagging, ", "))
			return
		}
	}
}

// checkAcked: every record acknowledged with acks=all is at its offset
// on the leader (unless retention deleted it), and no follower differs
// from the leader below the high watermark. On a partition whose files
// were damaged on one broker, a record missing from the leader is not
// lost while an in-sync replica has it, and the damaged replica (every
// replica, when it leads) is not compared; one damaged on more brokers
// is not judged. A follower that holds at an offset exactly what a
// damaged replica holds there, unlike the leader, got it from that
// replica while it led: a flipped byte of a batch's partition leader
// epoch lies outside the CRC, and passes a follower's checks as it
// passes Kafka's (UnifiedLog.analyzeAndValidateRecords), so it is not
// counted as a divergence.
func (u *userRun) checkAcked(st State) {
	type part struct {
		info    *PartitionInfo
		records map[int64]RecordInfo
		damaged []int32
	}
	parts := map[PartitionRef]*part{}
	for i := range st.Partitions {
		p := &st.Partitions[i]
		ref := PartitionRef{Topic: p.Topic, Partition: p.Partition}
		pp := &part{info: p, records: map[int64]RecordInfo{}, damaged: u.damagedOn(ref)}
		var fromDamaged []map[int64]RecordInfo // the damaged replicas' records
		for _, l := range p.Logs {
			if slices.Contains(pp.damaged, l.Broker) {
				recs := map[int64]RecordInfo{}
				for _, r := range l.Records {
					recs[r.Offset] = r
				}
				fromDamaged = append(fromDamaged, recs)
			}
		}
		propagated := func(r RecordInfo) bool {
			for _, recs := range fromDamaged {
				if d, ok := recs[r.Offset]; ok && d.Key == r.Key && d.Value == r.Value && d.LeaderEpoch == r.LeaderEpoch && d.Tombstone == r.Tombstone {
					return true
				}
			}
			return false
		}
		for _, l := range p.Logs {
			if l.Broker == p.Leader {
				for _, r := range l.Records {
					pp.records[r.Offset] = r
				}
				continue
			}
			if slices.Contains(pp.damaged, l.Broker) || slices.Contains(pp.damaged, p.Leader) {
				continue
			}
			for _, r := range l.Records {
				if r.DiffersFromLeader && r.Offset < p.HighWatermark && !propagated(r) {
					d := fmt.Sprintf("%s-%d: b%d differs from leader b%d at offset %d", p.Topic, p.Partition, l.Broker, p.Leader, r.Offset)
					u.out.Diverged = append(u.out.Diverged, d)
					u.fail("diverged", "%s", d)
					break
				}
			}
		}
		parts[ref] = pp
	}
	for _, p := range u.w.producers {
		for _, r := range p.results {
			if !r.Acked || r.Offset < 0 || r.Acks != -1 {
				continue
			}
			pp := parts[PartitionRef{Topic: p.cfg.Topic, Partition: r.Partition}]
			if pp == nil || r.Offset < pp.info.LogStartOffset || len(pp.damaged) > 1 {
				continue
			}
			u.out.Acked++
			got, ok := pp.records[r.Offset]
			if ok && got.Value == r.Value && got.Key == r.Key {
				continue
			}
			if len(pp.damaged) == 1 && (inISRReplica(pp.info, r.Offset, r.Key, r.Value) || u.aloneInISR(pp.info, pp.damaged[0])) {
				continue
			}
			l := fmt.Sprintf("%s %s-%d@%d %q", p.cfg.Name, p.cfg.Topic, r.Partition, r.Offset, short(r.Value))
			u.out.Lost = append(u.out.Lost, l)
			if len(u.out.Lost) == 1 {
				if len(pp.damaged) == 1 {
					u.fail("acked-loss", "acknowledged with acks=all, damaged on b%d only and held by no in-sync replica (leader b%d, isr %v): %s", pp.damaged[0], pp.info.Leader, pp.info.ISR, l)
					continue
				}
				u.fail("acked-loss", "acknowledged with acks=all and gone from leader b%d: %s (there: %q)", pp.info.Leader, l, short(got.Value))
			}
		}
	}
}

// inISRReplica reports whether an in-sync replica of p holds the record
// (key, value) at offset.
func inISRReplica(p *PartitionInfo, offset int64, key, value string) bool {
	for _, l := range p.Logs {
		if !slices.Contains(p.ISR, l.Broker) {
			continue
		}
		for _, r := range l.Records {
			if r.Offset == offset && r.Key == key && r.Value == value {
				return true
			}
		}
	}
	return false
}

// aloneInISR reports whether the damaged broker id was, since the damage
// to partition p, the only member of its ISR (or whether that cannot be
// told: the events since fell off the timeline): it then led, or would
// have, with what its damaged log kept (a recovery may have cut it at the
// damage), and Kafka promises nothing of the records it lost.
func (u *userRun) aloneInISR(p *PartitionInfo, id int32) bool {
	since := -1
	for _, d := range u.damage {
		if d.broker == id && d.tp == (PartitionRef{Topic: p.Topic, Partition: p.Partition}) && (since < 0 || d.action < since) {
			since = d.action
		}
	}
	evs := u.w.Events()
	if len(evs) == 0 || evs[0].Step > since {
		return true
	}
	alone := fmt.Sprintf("isr [%d]", id)
	again := fmt.Sprintf("isr is now [%d]", id)
	for _, e := range evs {
		if e.Step >= since && e.Topic == p.Topic && e.Partition == p.Partition && (strings.HasSuffix(e.Text, alone) || strings.HasSuffix(e.Text, again)) {
			return true
		}
	}
	return false
}

// damagedOn lists the brokers on which a corrupt action damaged a file of
// partition tp.
func (u *userRun) damagedOn(tp PartitionRef) []int32 {
	var out []int32
	for _, d := range u.damage {
		if d.tp == tp && !slices.Contains(out, d.broker) {
			out = append(out, d.broker)
		}
	}
	return out
}

// wipeAndStart wipes what broker b's failed start names and starts it
// again, until it runs (as many times as it has partitions and checkpoint
// files, at most), and reports whether it runs. A wiped partition counts as
// damaged on b.
func (u *userRun) wipeAndStart(b *broker.Broker) bool {
	names, _ := b.FS().List(LogDir)
	for range len(names) + 1 {
		if b.State() != BrokerFailed {
			break
		}
		_, p := b.Failure()
		if !u.do(Action{Kind: ActWipe, Broker: b.ID(), Name: p}, false) {
			return false
		}
		if tp, ok := kafkalog.ParseTopicPartitionDir(p); ok {
			u.damage = append(u.damage, damageMark{action: u.w.actionBase + len(u.w.actions) - 1, broker: b.ID(), tp: PartitionRef{Topic: tp.Topic, Partition: tp.Partition}})
		}
		if !u.do(Action{Kind: ActStart, Broker: b.ID()}, false) {
			return false
		}
	}
	return b.State() == BrokerRunning
}

// corrupt plays a UserCorrupt operation.
func (u *userRun) corrupt(o UserOp) {
	w := u.w
	a := o.Action
	var b *broker.Broker
	for _, x := range w.brokers {
		if (x.State() == BrokerRunning) != o.Bad {
			continue
		}
		if b == nil || x.ID() == a.Broker {
			b = x
		}
	}
	if b == nil {
		u.out.Skipped++
		return
	}
	type file struct {
		name    string
		tp      PartitionRef
		durable int64
	}
	var files, checkpoints []file
	durable := func(name string) int64 {
		n, _, err := b.FS().SizeOnDisk(LogDir + "/" + name)
		if err != nil {
			return 0
		}
		return n
	}
	for _, n := range []string{kafkalog.RecoveryPointCheckpointFile, kafkalog.ReplicationOffsetCheckpointFile, kafkalog.LogStartOffsetCheckpointFile} {
		if d := durable(n); d > 0 {
			checkpoints = append(checkpoints, file{name: n, durable: d})
		}
	}
	dirs, _ := b.FS().List(LogDir)
	for _, d := range dirs {
		k := strings.LastIndexByte(d, '-')
		part, err := strconv.Atoi(d[k+1:])
		if k <= 0 || err != nil {
			continue
		}
		tp := PartitionRef{Topic: d[:k], Partition: int32(part)}
		names, _ := b.FS().List(LogDir + "/" + d)
		for _, n := range names {
			size := durable(d + "/" + n)
			switch {
			case size == 0:
			case n == kafkalog.LeaderEpochCheckpointFile:
				checkpoints = append(checkpoints, file{name: d + "/" + n, tp: tp, durable: size})
			case strings.HasSuffix(n, ".log") || strings.HasSuffix(n, ".index") || strings.HasSuffix(n, ".timeindex"):
				files = append(files, file{name: d + "/" + n, tp: tp, durable: size})
			}
		}
	}
	// One pick in seven is among the checkpoint files, two in three of
	// the others among the .log files (the records).
	if len(checkpoints) > 0 && (o.Size%7 == 0 || len(files) == 0) {
		files = checkpoints
	} else if logs := slices.DeleteFunc(slices.Clone(files), func(f file) bool { return !strings.HasSuffix(f.name, ".log") }); len(logs) > 0 && o.Size%3 != 0 {
		files = logs
	}
	if len(files) == 0 {
		u.out.Skipped++
		return
	}
	f := files[o.Size%len(files)]
	a.Broker, a.Name = b.ID(), f.name
	span := int64(1)
	if !a.Flip {
		a.N = int(min(int64(a.N), f.durable))
		span = int64(a.N)
	}
	a.Offset = int64(o.Size/len(files)) % (f.durable - span + 1)
	if u.do(a, o.Bad) && !o.Bad && f.tp.Topic != "" {
		// A checkpoint at the root of the log dir damages no partition's
		// records: it fails the start (then the settle wipes it) or is
		// reset.
		u.damage = append(u.damage, damageMark{action: w.actionBase + len(w.actions) - 1, broker: b.ID(), tp: f.tp})
	}
}

// ShrinkUser removes operations from a failing sequence, one at a time,
// while it still breaks the same invariant, and returns the shortest it
// found.
func ShrinkUser(cfg UserExploreConfig, seed uint64, ops []UserOp) []UserOp {
	o, _, err := RunUserSequence(cfg, seed, ops)
	if err != nil || !o.Failed() {
		return ops
	}
	inv := o.Failures[0].Invariant
	best := slices.Clone(ops)
	for changed := true; changed; {
		changed = false
		for i := len(best) - 1; i >= 0; i-- {
			try := slices.Delete(slices.Clone(best), i, i+1)
			if o, _, err := RunUserSequence(cfg, seed, try); err == nil && o.Failed() && o.Failures[0].Invariant == inv {
				best, changed = try, true
			}
		}
	}
	return best
}

// FormatUserSequence prints a sequence one operation per line.
func FormatUserSequence(ops []UserOp) string {
	var b strings.Builder
	for i, o := range ops {
		fmt.Fprintf(&b, "%2d. %s\n", i+1, o)
	}
	return b.String()
}
