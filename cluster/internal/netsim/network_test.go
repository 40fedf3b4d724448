package netsim

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// TestNetwork drives a network with sends, pops, cuts and drops, and
// prints what is in flight. Regenerate with -rewrite and review the diff.
//
//	send 1->2 [kind=heartbeat] [due=10]    (a replica Fetch by default)
//	pop [now=0]                            (the oldest message, if it is due)
//	cut a=(1) b=(2,3) | heal | cuts
//	drop [from=(1)] [to=(2)] | first [from=(1)] [to=(2)]
//	open leader=1 follower=2 corr=7 inc=3 | close leader=1 follower=2 corr=7
//	clone | switch n
func TestNetwork(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if strings.Contains(filepath.ToSlash(path), "testdata/rapid/") {
			t.Skip("rapid's failure files, not a script")
		}
		nets := []*Network{{}}
		cur := 0
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			n := nets[cur]
			ids := func(key string) []int32 {
				var out []int32
				for _, a := range d.CmdArgs {
					if a.Key == key {
						if len(a.Vals) == 0 {
							return []int32{}
						}
						for _, v := range a.Vals {
							x, _ := strconv.Atoi(v)
							out = append(out, int32(x))
						}
					}
				}
				return out
			}
			num := func(key string) int64 {
				for _, a := range d.CmdArgs {
					if a.Key == key && len(a.Vals) > 0 {
						x, _ := strconv.ParseInt(a.Vals[0], 10, 64)
						return x
					}
				}
				return 0
			}
			tp := kafkalog.TopicPartition{Topic: "t"}
			var out strings.Builder
			switch d.Cmd {
			case "send":
				from, to, _ := strings.Cut(d.CmdArgs[0].Key, "->")
				f, _ := strconv.Atoi(from)
				g, _ := strconv.Atoi(to)
				e := Envelope{From: int32(f), To: int32(g), Kind: KindReplica, TP: tp, Msg: replica.Message{Type: replica.MsgFetch}, DueMs: num("due")}
				for _, a := range d.CmdArgs {
					if a.Key == "kind" {
						for k := range kindNames {
							if Kind(k).String() == a.Vals[0] {
								e.Kind = Kind(k)
							}
						}
					}
				}
				n.Push(e)
			case "pop":
				if !n.Due(num("now")) {
					return "nothing due\n"
				}
				e, _ := n.Pop()
				fmt.Fprintf(&out, "popped %s\n", e.String())
			case "cut":
				n.Partition(ids("a"), ids("b"))
			case "heal":
				n.Heal()
			case "cuts":
				return fmt.Sprintf("%v\n", n.CutLinks())
			case "drop":
				fmt.Fprintf(&out, "dropped %d\n", n.Drop(ids("from"), ids("to")))
			case "first":
				fmt.Fprintf(&out, "moved %v\n", n.MoveFirst(ids("from"), ids("to")))
			case "open":
				n.OpenRequest(int32(num("leader")), int32(num("follower")), tp, num("corr"), int(num("inc")))
			case "close":
				return fmt.Sprintf("incarnation %d\n", n.CloseRequest(int32(num("leader")), int32(num("follower")), tp, num("corr")))
			case "clone":
				nets = append(nets, n.Clone())
				return fmt.Sprintf("network %d\n", len(nets)-1)
			case "switch":
				cur = int(num("n"))
				return fmt.Sprintf("on network %d\n", cur)
			default:
				d.Fatalf(t, "unknown command %s", d.Cmd)
			}
			fmt.Fprintf(&out, "in flight (%d):", n.Len())
			for _, e := range n.InFlight() {
				fmt.Fprintf(&out, " [%s]", e.String())
			}
			out.WriteString("\n")
			return out.String()
		})
	})
}
