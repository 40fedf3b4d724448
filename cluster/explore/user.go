package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/replica"
)

// UserConfig configures the user-level explorer.
//
// The user-level explorer drives a whole world (the one kafkalive serves)
// the way its users do, with random sequences of every action the page
// and the terminal offer, and checks invariants after each one:
//
//   - the world never records an internal error
//     ([cluster.World.InternalErrors]), and its clock always reaches the time
//     asked for;
//   - an action with bad input (an unknown name, a negative number, a
//     broker in the wrong state) returns an error and changes neither the
//     clock nor the world's health;
//   - a power cut loses only bytes that were never synced: every record
//     that was on disk before the cut is still in the log read back from
//     the disk, and every partition directory is still there;
//   - a clone goes on exactly as its original, and a moment of the
//     timeline ([cluster.World.AtTime], [cluster.World.At]) is at the time asked for;
//   - once every broker runs and every link is healed for
//     UserSettleMs (replica.socket.timeout.ms more after the heal of a
//     cut link, and UserGroupSettleMs since the last consumer fault, up
//     to UserGroupSettleMs more while a group has not settled), every partition (__consumer_offsets too) has a leader
//     and its full ISR, every group with running members is Stable with
//     each of them a member and every partition of their topics assigned,
//     and such a group with a lag commits more within UserCommitCheckMs;
//   - within the fault model below, no record acknowledged with acks=all
//     is lost, no replica differs from its leader below the high
//     watermark, and the world's own checker ([cluster.World.Violations]) finds
//     nothing.
//
// The fault model is the one under which acks=all with
// min.insync.replicas 2 and clean leader elections promises no loss
// without KIP-966's eligible leader replicas (Kafka 3.7's rule, which
// [replica.Modern] implements): a power cut is "within the model" when
// [ReplicationConfig.RestrictPowerCuts]'s precondition holds (every partition
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
// ([cluster.BrokerFailed]: a checkpoint that does not parse, a log kafkalog
// refuses to open): that is no internal error, and the broker counts as
// down until the operator wipes what the failure names ([UserWipe],
// [cluster.ActWipe]) and starts it. The settle plays that operator: a broker its
// start leaves failed is wiped and started again, and must then run. A
// wiped partition counts as damaged on that broker (its replica comes back
// empty and fetches from its leader; if it was alone in the ISR, what it
// held is gone, as in Kafka).
type UserConfig struct {
	// Rules are the replication rules the world runs under (nil: the
	// page's own, [replica.Modern]).
	Rules *replica.RuleSet
	// Ops is the number of operations per sequence (default 20).
	Ops int
	// MaxValueBytes caps the values produced (0: up to 1.2 MB, past
	// max.request.size and segment.bytes).
	MaxValueBytes int
	// Configure, if set, changes the world's configuration before the
	// world is built (a test's reference world, say).
	Configure func(*cluster.Config)
	// Transactions adds transactional producers and read_committed
	// consumers to the sequences, and checks transactions' invariants
	// (see usertxn.go).
	Transactions bool
	// CopierMistake plants a mistake exactly-once forbids in the copiers
	// drawn with Transactions, which the copiers' invariants must catch
	// ([CopierMistakes]; "": none).
	CopierMistake string
	// ClockStartMs is the world's Kafka clock at its start
	// ([cluster.Config.ClockStartMs]; 0: 1970, as every scenario's).
	ClockStartMs int64
}

func (c UserConfig) withDefaults() UserConfig {
	if c.Ops == 0 {
		c.Ops = 20
	}
	return c
}

// newWorld builds the world a sequence starts from (and a reset goes back
// to) for seed: the one kafkalive serves ([defaultworld.New]), under
// c.Rules.
func (c UserConfig) newWorld(seed uint64) (*cluster.World, error) {
	cfg := defaultworld.Config(seed)
	if c.Rules != nil {
		cfg.Rules = *c.Rules
	}
	if c.Configure != nil {
		c.Configure(&cfg)
	}
	cfg.ClockStartMs = c.ClockStartMs
	w, err := defaultworld.NewWith(cfg)
	if err == nil && c.Transactions {
		err = w.CreateTopic(copiesTopic())
	}
	return w, err
}

// rules are the rules the world runs under.
func (c UserConfig) rules() replica.RuleSet {
	if c.Rules != nil {
		return *c.Rules
	}
	return defaultworld.Config(defaultworld.Seed).Rules
}

// userLongRunMs is the length of the rare long runs: 10 minutes, as long
// as the page's timeline keeps.
const userLongRunMs = 10 * 60_000

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
// plain world [cluster.Action].
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
	// ([cluster.World.AtTime]), or BackSteps actions earlier ([cluster.World.At]), and
	// goes on from there.
	UserJump UserOpKind = "jump"
	// UserClone clones the world ([cluster.World.Clone]), runs both for Ms,
	// checks that they are the same, and goes on with the clone.
	UserClone UserOpKind = "clone"
	// UserReset goes back to a fresh world, as the page's reset does.
	UserReset UserOpKind = "reset"
	// UserSettle heals every link, starts every broker, runs at least
	// UserSettleMs and checks liveness, loss and divergence.
	UserSettle UserOpKind = "settle"
	// UserCorrupt damages the durable bytes of one file of a broker that
	// is down ([cluster.ActCorrupt]): Action.Broker if it is down, else the first
	// broker down (skipped if every broker runs); one byte flipped
	// (Action.Flip) or Action.N bytes zeroed, of a file and at an offset
	// chosen from Size when applied, among the broker's partition files
	// (segments' .log, .index and .timeindex; a .log two times in three).
	// With Bad it aims at a running broker instead, and must be refused.
	UserCorrupt UserOpKind = "corrupt"
	// UserWipe is the operator's answer to a broker whose start failed on
	// a damaged file ([cluster.BrokerFailed]): Action.Broker if it failed, else the
	// first that did (skipped if none), has the path its failure names
	// wiped ([cluster.ActWipe]: the partition directory, or the checkpoint file)
	// and is started again, until it runs.
	UserWipe UserOpKind = "wipe"
	// UserDeleteGroup is what a user does to delete a consumer group
	// (Action.Name) from the page: close every member of it, run a second,
	// delete it ([cluster.ActDeleteGroup]: refused if it is not Empty yet, or its
	// coordinator is down), and start the members again, which join the
	// group anew.
	UserDeleteGroup UserOpKind = "delete-group"
	// UserAlterConfigs alters the configs of topic Action.Name by Configs,
	// as kafka-configs --alter does from the page's terminal
	// ([cluster.World.AlterTopicConfigs], then the [cluster.ActAlterConfigs] it returns):
	// retention, min.insync.replicas, max.message.bytes, flushing, rolling
	// and indexing settings set or deleted. A valid one of a topic that
	// exists must be accepted (after a jump back to before the topic was
	// made, it must be refused);
	// with Bad (a value out of range, an unknown name, a list operation on
	// a number), refused. The invariants that follow hold as before:
	// retention deletes only below the log start offset, which the loss
	// check leaves out.
	UserAlterConfigs UserOpKind = "alter-configs"
)

// UserOp is one operation of a user-level sequence.
type UserOp struct {
	Kind   UserOpKind
	Action cluster.Action
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
	Configs []cluster.ConfigOp
}

// String prints the operation, e.g. "produce checkout size=20000
// key=alice", "power-cut 2 torn (within the fault model)".
func (o UserOp) String() string {
	var s string
	switch o.Kind {
	case UserAction:
		a := o.Action
		if a.Kind == cluster.ActProduce {
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
		s = fmt.Sprintf("kafka-configs --alter %s: %s", o.Action.Name, cluster.ConfigOpsString(o.Configs))
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

// The default world's names the draws pick from: its producers,
// consumers, groups and topics ([defaultworld.Producers], Consumers,
// Topics).
var (
	userProducers = names(defaultworld.Producers(), func(p cluster.ProducerConfig) string { return p.Name })
	userConsumers = names(defaultworld.Consumers(), func(c cluster.ConsumerConfig) string { return c.Name })
	userGroups    = slices.Compact(names(defaultworld.Consumers(), func(c cluster.ConsumerConfig) string { return c.Group }))
	userTopics    = names(defaultworld.Topics(), func(t cluster.TopicSpec) string { return t.Name })
)

// names maps xs to their names, in order.
func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}
