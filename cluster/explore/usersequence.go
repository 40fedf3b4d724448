package explore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// UserSequence draws a random sequence of user operations from seed.
func UserSequence(cfg UserConfig, seed uint64) []UserOp {
	cfg = cfg.withDefaults()
	r := rand.New(rand.NewPCG(seed, 0x05e75eed))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	consumers := slices.Clone(userConsumers)
	groups := slices.Clone(userGroups)
	broker := func() int32 { return int32(r.IntN(3) + 1) }
	// Disk damage is drawn from a stream of its own, so that the other
	// draws of a seed are those of a sequence without it.
	rd := rand.New(rand.NewPCG(seed, 0xda3a9e))
	// So are transactions, with cfg.Transactions.
	rt := rand.New(rand.NewPCG(seed, 0x7a5c7))
	var txProducers, copiers []string
	var ops []UserOp
	for len(ops) < cfg.Ops {
		if cfg.Transactions && rt.IntN(3) == 0 {
			if rt.IntN(4) == 0 {
				ops = append(ops, userCopierOp(rt, len(ops)+1, &copiers, cfg.CopierMistake))
				continue
			}
			ops = append(ops, userTxnOp(rt, len(ops)+1, &txProducers))
			continue
		}
		if rd.IntN(30) == 0 {
			if rd.IntN(4) == 0 {
				ops = append(ops, UserOp{Kind: UserWipe, ID: len(ops) + 1, Action: cluster.Action{Kind: cluster.ActWipe, Broker: int32(rd.IntN(3) + 1)}})
				continue
			}
			ops = append(ops, UserOp{Kind: UserCorrupt, ID: len(ops) + 1, Size: rd.IntN(1 << 30), Bad: rd.IntN(10) == 0,
				Action: cluster.Action{Kind: cluster.ActCorrupt, Broker: int32(rd.IntN(3) + 1), Flip: rd.IntN(2) == 0, N: 1 + rd.IntN(8)}})
			continue
		}
		o := UserOp{Kind: UserAction, ID: len(ops) + 1}
		bad := r.IntN(10) == 0
		switch n := r.IntN(100); {
		case n < 17:
			o.Action = cluster.Action{Kind: cluster.ActProduce, Name: pick(userProducers), Partition: -1}
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
			p := cluster.ProducerConfig{Rate: pick2(r, []float64{0, 0.5, 1.5, 3, 20}), Acks: pick([]string{"all", "all", "1", "0"})}
			if r.IntN(2) == 0 {
				p.Keys = []string{"alice", "bob"}
			}
			o.Action = cluster.Action{Kind: cluster.ActSetProducer, Name: pick(userProducers), Producer: p}
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
				ms = userLongRunMs/2 + r.Int64N(userLongRunMs/2+1)
			case k < 6:
				ms = int64(r.IntN(55)+5) * 1000
			}
			o.Action = cluster.Action{Kind: cluster.ActRun, Ms: ms}
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
			c := cluster.ConsumerConfig{Name: name, Group: g, Topics: []string{pick(userTopics)}, PollIntervalMs: 1000}
			if r.IntN(3) == 0 {
				c.MaxPollRecords = 1 + r.IntN(10)
			}
			if r.IntN(10) == 0 {
				c = cluster.ConsumerConfig{Name: name, Topic: pick(userTopics), PollIntervalMs: 1000}
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
			o.Action = cluster.Action{Kind: cluster.ActAddConsumer, Consumer: c}
		case n < 53:
			kind := []cluster.ActionKind{cluster.ActCloseConsumer, cluster.ActCrashConsumer, cluster.ActCrashConsumer, cluster.ActRestartConsumer}[r.IntN(4)]
			o.Action = cluster.Action{Kind: kind, Name: pick(consumers)}
			if bad {
				o.Action.Name, o.Bad = "nobody", true
			}
		case n < 57:
			o.Action = cluster.Action{Kind: cluster.ActStop, Broker: broker()}
		case n < 62:
			o.Action = cluster.Action{Kind: cluster.ActKill, Broker: broker()}
		case n < 68:
			o.Action = cluster.Action{Kind: cluster.ActPowerCut, Broker: broker(), Torn: r.IntN(2) == 0}
			o.Safe = r.IntN(4) != 0
		case n < 75:
			o.Action = cluster.Action{Kind: cluster.ActStart, Broker: broker()}
		case n < 77:
			o.Action = cluster.Action{Kind: cluster.ActWriteback, Broker: broker()}
		case n < 81:
			b := broker()
			if r.IntN(2) == 0 {
				o.Action = cluster.Action{Kind: cluster.ActPartition, A: []int32{b}, B: everyoneBut(b, len(userProducers))}
			} else {
				o.Action = cluster.Action{Kind: cluster.ActPartition, A: []int32{b}, B: []int32{b%3 + 1}}
			}
		case n < 85:
			o.Action = cluster.Action{Kind: cluster.ActHeal}
		case n < 88 && r.IntN(3) == 0:
			o = UserOp{Kind: UserDeleteGroup, ID: o.ID, Action: cluster.Action{Kind: cluster.ActDeleteGroup, Name: pick(groups)}}
			if bad {
				o = UserOp{Kind: UserAction, ID: o.ID, Action: cluster.Action{Kind: cluster.ActDeleteGroup, Name: "nope"}, Bad: true}
			}
		case n < 88:
			rs := cluster.OffsetReset{Group: pick(groups), Topic: pick(userTopics), To: pick([]string{cluster.ResetEarliest, cluster.ResetLatest, cluster.ResetToOffset})}
			if rs.To == cluster.ResetToOffset {
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
			o.Action = cluster.Action{Kind: cluster.ActResetOffsets, Reset: rs}
		case n < 90 && r.IntN(2) == 0:
			o = UserOp{Kind: UserAlterConfigs, ID: o.ID, Action: cluster.Action{Name: pick(userTopics)}, Configs: userConfigOps(r, bad), Bad: bad}
		case n < 90:
			o = UserOp{Kind: UserWrongState, ID: o.ID, Action: cluster.Action{Kind: []cluster.ActionKind{cluster.ActStop, cluster.ActKill, cluster.ActStart}[r.IntN(3)]}, Bad: true}
		case n < 91:
			kinds := []cluster.ActionKind{cluster.ActStop, cluster.ActKill, cluster.ActPowerCut, cluster.ActStart, cluster.ActWriteback}
			o.Action = cluster.Action{Kind: kinds[r.IntN(len(kinds))], Broker: []int32{0, 4, -1, 1 << 30}[r.IntN(4)]}
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
func userConfigOps(r *rand.Rand, bad bool) []cluster.ConfigOp {
	str := func(s string) *string { return &s }
	choices := []cluster.ConfigOp{
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
	var ops []cluster.ConfigOp
	for _, i := range r.Perm(len(choices))[:1+r.IntN(3)] {
		o := choices[i]
		if r.IntN(4) == 0 {
			o = cluster.ConfigOp{Name: o.Name, Op: cluster.ConfigDelete}
		}
		ops = append(ops, o)
	}
	if bad {
		i := r.IntN(len(ops))
		ops[i] = pick2(r, []cluster.ConfigOp{
			{Name: "retention.ms", Value: str("-5")},
			{Name: "min.insync.replicas", Value: str("0")},
			{Name: "retention.mss", Value: str("1000")},
			{Name: "segment.bytes", Value: str("lots")},
			{Name: "retention.ms", Op: cluster.ConfigAppend, Value: str("1000")},
		})
		if slices.ContainsFunc(ops[:i], func(o cluster.ConfigOp) bool { return o.Name == ops[i].Name }) || slices.ContainsFunc(ops[i+1:], func(o cluster.ConfigOp) bool { return o.Name == ops[i].Name }) {
			ops = []cluster.ConfigOp{ops[i]} // a name twice is refused too, but for another reason
		}
	}
	return ops
}

func pick2[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// FormatUserSequence prints a sequence one operation per line.
func FormatUserSequence(ops []UserOp) string {
	var b strings.Builder
	for i, o := range ops {
		fmt.Fprintf(&b, "%2d. %s\n", i+1, o)
	}
	return b.String()
}
