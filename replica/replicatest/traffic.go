package replicatest

import (
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/replica"
)

// Filter selects in-flight messages: From and To are broker ids (-1: any,
// [ControllerID] for the controller), Type a message type name ("" any), N
// the most to take (0: all).
type Filter struct {
	From, To int32
	Type     string
	N        int
}

// Any matches every in-flight message.
var Any = Filter{From: -1, To: -1}

func (f Filter) matches(e Envelope) bool {
	from, to := e.Ends()
	return (f.From < 0 || f.From == from) && (f.To < 0 || f.To == to) && (f.Type == "" || f.Type == e.TypeName())
}

// take removes and returns the matching messages, oldest first.
func (env *InteractionEnv) take(f Filter) []Envelope {
	var taken, kept []Envelope
	for _, e := range env.Queue {
		if f.matches(e) && (f.N == 0 || len(taken) < f.N) {
			taken = append(taken, e)
			continue
		}
		kept = append(kept, e)
	}
	env.Queue = kept
	return taken
}

// Produce sends values to broker leader with the given acks (0, 1 or -1).
// An idempotent send carries producer id 1 and the next sequence numbers.
func (env *InteractionEnv) Produce(leader int32, acks int16, timeoutMs int64, values []string, idempotent bool) string {
	records := make([]replica.Record, len(values))
	for i, v := range values {
		records[i] = replica.Record{Value: []byte(v)}
		if idempotent {
			records[i].Producer = &replica.ProducerSequence{ID: ProducerIdempotentID, Sequence: env.nextSequence}
			env.nextSequence++
		}
	}
	return env.send(&ProduceResult{Values: values, Acks: acks, Records: records}, leader, timeoutMs)
}

// Retry sends the records of send number n again, with the same producer
// sequences, to broker leader.
func (env *InteractionEnv) Retry(n int64, leader int32, timeoutMs int64) string {
	if n < 1 || n > int64(len(env.Results)) {
		return fmt.Sprintf("error: no send #%d", n)
	}
	old := env.Results[n-1]
	return env.send(&ProduceResult{Values: old.Values, Acks: old.Acks, Records: old.Records, RetryOf: n}, leader, timeoutMs)
}

func (env *InteractionEnv) send(res *ProduceResult, leader int32, timeoutMs int64) string {
	res.CorrelationID = int64(len(env.Results) + 1)
	env.Results = append(env.Results, res)
	p, err := env.Peer(leader)
	if err != nil || p.Node == nil {
		return fmt.Sprintf("p: broker %d is not running", leader)
	}
	m := replica.Message{Type: replica.MsgProduce, From: ProducerID, To: leader, CorrelationID: res.CorrelationID,
		Acks: res.Acks, TimeoutMs: timeoutMs, Records: res.Records}
	if err := p.Node.Step(m); err != nil {
		fmt.Fprintf(&env.out, "%d: error: %v\n", leader, err)
	}
	env.collect(true)
	if res.Response == nil && res.Acks != 0 {
		fmt.Fprintf(&env.out, "p: %s\n", DescribeResult(res))
	}
	return env.flush()
}

// Tick moves the clock forward by ms and ticks every live broker.
func (env *InteractionEnv) Tick(ms int64) string {
	env.NowMs += ms
	for _, p := range env.Peers {
		if p.Node != nil {
			p.Node.Tick(env.NowMs)
		}
	}
	env.collect(true)
	fmt.Fprintf(&env.out, "now %d ms\n", env.NowMs)
	return env.flush()
}

// Deliver hands the matching in-flight messages to their receivers, oldest
// first, printing each; messages to a broker that is down are lost.
func (env *InteractionEnv) Deliver(f Filter) string {
	env.deliver(f)
	return env.flush()
}

func (env *InteractionEnv) deliver(f Filter) {
	for _, e := range env.take(f) {
		fmt.Fprintf(&env.out, "%s\n", DescribeEnvelope(e, env.Config.Rules))
		if e.Alter != nil {
			resp := env.handleAlter(*e.Alter)
			env.Queue = append(env.Queue, Envelope{Msg: &resp})
			if resp.Error == replica.None {
				env.publish()
			}
			continue
		}
		p, err := env.Peer(e.Msg.To)
		if err != nil || p.Node == nil {
			fmt.Fprintf(&env.out, "  lost: broker %d is down\n", e.Msg.To)
			continue
		}
		if err := p.Node.Step(*e.Msg); err != nil {
			fmt.Fprintf(&env.out, "%d: error: %v\n", p.ID, err)
		}
		env.collect(false)
	}
}

// Drop removes the matching in-flight messages, printing each.
func (env *InteractionEnv) Drop(f Filter) string {
	for _, e := range env.take(f) {
		fmt.Fprintf(&env.out, "dropped %s\n", DescribeEnvelope(e, env.Config.Rules))
	}
	return env.flush()
}

// ErrNotStable means messages kept flowing for the whole round limit.
var ErrNotStable = errors.New("replicatest: messages still in flight after the round limit")

// Stabilize delivers every in-flight message, and whatever they cause, until
// nothing is in flight, for at most maxRounds rounds. With the clock
// stopped, fetch loops end parked at the leader, so this terminates.
func (env *InteractionEnv) Stabilize(maxRounds int) (string, error) {
	for range maxRounds {
		if len(env.Queue) == 0 {
			return env.flush(), nil
		}
		env.deliver(Any)
	}
	if len(env.Queue) == 0 {
		return env.flush(), nil
	}
	return env.flush(), fmt.Errorf("%w (%d rounds)", ErrNotStable, maxRounds)
}
