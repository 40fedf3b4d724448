package replicatest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/kafkalive/kafkalive/replica"
)

// Handle runs one datadriven command against the environment and returns
// its output. The commands, with an example each:
//
//	init n=3 rules=modern min-isr=2 lag-ms=30000 wait-ms=500 check agree
//	    three brokers; "check" runs the [Checker] after every step, "agree"
//	    adds its ISR agreement check
//	elect leader=1 isr=(1,2,3)      controller elects a leader (isr optional)
//	fence 2                         controller fences broker 2
//	produce to=1 acks=all a b       producer sends records a and b
//	produce to=1 idempotent a       ... as an idempotent producer (id 1, sequences)
//	retry 2 to=2                    send #2 again, same sequences, to broker 2
//	tick ms=500                     clock forward, every live broker ticks
//	deliver from=2 to=1 type=Fetch n=1   deliver in-flight messages (filters optional)
//	drop from=1 to=2                drop in-flight messages (filters optional)
//	stabilize                       deliver until nothing is in flight
//	msgs                            list the in-flight messages
//	crash 2 power-cut hw=1          stop broker 2 (power-cut and hw optional)
//	crash 2 durable=3               ... keeping only offsets below 3 of its log
//	restart 2                       start broker 2 again
//	flush 1                         OS writeback on broker 1
//	status 1 2                      print brokers (all if none)
//	controller                      print the controller's state
//	results                         print what the producer was told
func (env *InteractionEnv) Handle(t testing.TB, d *datadriven.TestData) string {
	out, err := env.handle(t, d)
	if err != nil {
		return "error: " + err.Error()
	}
	return out
}

func (env *InteractionEnv) handle(t testing.TB, d *datadriven.TestData) (string, error) {
	ids := positionalIDs(d)
	switch d.Cmd {
	case "init":
		return env.handleInit(t, d)
	case "elect":
		var leader int32
		d.ScanArgs(t, "leader", &leader)
		var isr []int32
		if d.HasArg("isr") {
			d.ScanArgs(t, "isr", &isr)
		}
		return env.Elect(leader, isr), nil
	case "fence":
		return forEach(ids, env.Fence), nil
	case "produce":
		return env.handleProduce(t, d)
	case "retry":
		var to int32
		var timeout int64
		d.ScanArgs(t, "to", &to)
		d.MaybeScanArgs(t, "timeout-ms", &timeout)
		return forEach(ids, func(n int32) string { return env.Retry(int64(n), to, timeout) }), nil
	case "tick":
		var ms int64
		d.ScanArgs(t, "ms", &ms)
		return env.Tick(ms), nil
	case "deliver":
		return env.Deliver(scanFilter(t, d)), nil
	case "drop":
		return env.Drop(scanFilter(t, d)), nil
	case "stabilize":
		return env.Stabilize(100)
	case "msgs":
		return env.Msgs(), nil
	case "crash":
		hw, durable := optionalInt(t, d, "hw"), optionalInt(t, d, "durable")
		return forEach(ids, func(id int32) string { return env.Crash(id, d.HasArg("power-cut"), hw, durable) }), nil
	case "restart":
		return forEach(ids, env.Restart), nil
	case "flush":
		return forEach(ids, env.Flush), nil
	case "status":
		return env.Status(ids...), nil
	case "controller":
		return DescribeController(env.Controller), nil
	case "results":
		return env.DescribeResults(), nil
	}
	return "", fmt.Errorf("unknown command %q", d.Cmd)
}

func (env *InteractionEnv) handleInit(t testing.TB, d *datadriven.TestData) (string, error) {
	n, cfg := 3, replica.Config{}
	d.MaybeScanArgs(t, "n", &n)
	if d.HasArg("rules") {
		var name string
		d.ScanArgs(t, "rules", &name)
		rules, err := replica.ParseRuleSet(name)
		if err != nil {
			return "", err
		}
		cfg.Rules = rules
	}
	d.MaybeScanArgs(t, "min-isr", &cfg.MinInsyncReplicas)
	d.MaybeScanArgs(t, "lag-ms", &cfg.ReplicaLagTimeMaxMs)
	d.MaybeScanArgs(t, "wait-ms", &cfg.ReplicaFetchWaitMaxMs)
	d.MaybeScanArgs(t, "backoff-ms", &cfg.ReplicaFetchBackoffMs)
	fresh, err := NewInteractionEnv(n, cfg)
	if err != nil {
		return "", err
	}
	if d.HasArg("check") || d.HasArg("agree") {
		fresh.Checker = &Checker{ISRAgreement: d.HasArg("agree")}
	}
	*env = *fresh
	return fmt.Sprintf("%d brokers, rules %s", n, cfg.Rules), nil
}

func (env *InteractionEnv) handleProduce(t testing.TB, d *datadriven.TestData) (string, error) {
	var to int32
	d.ScanArgs(t, "to", &to)
	acks, timeout := replica.AcksAll, int64(0)
	if arg, ok := d.Arg("acks"); ok {
		switch v := arg.SingleVal(t); v {
		case "all", "-1":
		case "0", "1":
			acks = int16(v[0] - '0')
		default:
			return "", fmt.Errorf("acks=%s: want 0, 1 or all", v)
		}
	}
	d.MaybeScanArgs(t, "timeout-ms", &timeout)
	var values []string
	for _, arg := range d.CmdArgs {
		if len(arg.Vals) == 0 && arg.Key != "idempotent" {
			values = append(values, arg.Key)
		}
	}
	return env.Produce(to, acks, timeout, values, d.HasArg("idempotent")), nil
}

// Msgs lists the in-flight messages, oldest first.
func (env *InteractionEnv) Msgs() string {
	if len(env.Queue) == 0 {
		return "no messages in flight"
	}
	lines := make([]string, len(env.Queue))
	for i, e := range env.Queue {
		lines[i] = DescribeEnvelope(e, env.Config.Rules)
	}
	return strings.Join(lines, "\n")
}

// DescribeResults lists what the producer was told, one send per line.
func (env *InteractionEnv) DescribeResults() string {
	if len(env.Results) == 0 {
		return "nothing sent"
	}
	lines := make([]string, len(env.Results))
	for i, r := range env.Results {
		lines[i] = DescribeResult(r)
	}
	return strings.Join(lines, "\n")
}

func positionalIDs(d *datadriven.TestData) []int32 {
	var ids []int32
	for _, arg := range d.CmdArgs {
		if id, err := strconv.ParseInt(arg.Key, 10, 32); err == nil && len(arg.Vals) == 0 {
			ids = append(ids, int32(id))
		}
	}
	return ids
}

func forEach(ids []int32, f func(int32) string) string {
	outs := make([]string, len(ids))
	for i, id := range ids {
		outs[i] = f(id)
	}
	return strings.Join(outs, "\n")
}

func optionalInt(t testing.TB, d *datadriven.TestData, key string) *int64 {
	if !d.HasArg(key) {
		return nil
	}
	v := new(int64)
	d.ScanArgs(t, key, v)
	return v
}

func scanFilter(t testing.TB, d *datadriven.TestData) Filter {
	f := Any
	d.MaybeScanArgs(t, "from", &f.From)
	d.MaybeScanArgs(t, "to", &f.To)
	d.MaybeScanArgs(t, "type", &f.Type)
	d.MaybeScanArgs(t, "n", &f.N)
	return f
}
