package cluster

import (
	"slices"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// ControllerID is the node id of the (KRaft) controller on the network. It
// is not a broker and never fails; brokers are 1..N, producers 101.., and
// consumers read the leader's log directly.
const ControllerID int32 = 0

// producerIDBase is added to a producer's index to make its node id.
const producerIDBase int32 = 101

type partitionKey = kafkalog.TopicPartition

// msgKind says what an envelope carries.
type msgKind uint8

const (
	kindReplica        msgKind = iota // a replica.Message between replicas, or a Produce
	kindProduceResp                   // a leader's answer to a producer
	kindLeaderAndISR                  // controller -> broker
	kindAlterPartition                // leader -> controller
	kindRegister                      // broker -> controller, at start
	kindHeartbeat                     // broker -> controller
	kindShutdown                      // broker -> controller, controlled shutdown
	kindGroupRequest                  // consumer -> group coordinator
	kindGroupResponse                 // group coordinator -> consumer
)

var kindNames = [...]string{"replica", "produce-response", "leader-and-isr", "alter-partition", "register", "heartbeat", "controlled-shutdown", "group-request", "group-response"}

// coordinatorNodeBase is added to a broker id to make the node id its group
// coordinator uses to append to __consumer_offsets through its own replica
// (the produce answers come back to it).
const coordinatorNodeBase int32 = 1000

// envelope is one message in flight.
type envelope struct {
	from, to int32
	// toIncarnation is the incarnation of broker to that the message is for;
	// it is dropped if the broker restarted meanwhile (a TCP connection reset).
	toIncarnation int
	kind          msgKind
	tp            partitionKey
	msg           replica.Message
	resp          replica.ProduceResponse
	state         replica.LeaderAndISR
	alter         replica.AlterPartition
	incarnation   int // register / heartbeat: the sender's incarnation
	// fromIncarnation is the sending broker's incarnation.
	fromIncarnation int
	// known is, in a heartbeat, the partition states the broker's replicas
	// know, so that the controller resends what the broker missed (as a
	// KRaft broker catches up on the metadata log).
	known map[partitionKey][2]int32
	// greq and gresp are a consumer's group request and its answer;
	// client names the consumer and clientInc its incarnation (a
	// restarted consumer never sees answers meant for the old one).
	greq      group.Request
	gresp     group.Response
	client    string
	clientInc int
	// dueMs is when the message arrives ([Config.NetworkLatencyMs] after
	// it was sent).
	dueMs int64
}

// size estimates the envelope's bytes on the wire, for bytes in/out.
func (e *envelope) size() int64 {
	n := int64(40)
	for _, r := range e.msg.Records {
		n += 70 + int64(len(r.Key)+len(r.Value))
	}
	n += entriesWireSize(e.msg.Entries)
	if b := e.msg.Batch; b != nil {
		n += int64(len(b.Bytes))
	}
	return n
}

// entriesWireSize is what a fetch answer's entries take on the wire: an
// entry that carries its batch's bytes counts them (Kafka sends the log's
// batches as stored), whether it stands for the whole batch (Entry.Count)
// or is followed by the batch's other records, which then count nothing;
// an entry without its batch's bytes counts 70 bytes plus its key and
// value, about what a batch of one record takes.
func entriesWireSize(entries []replica.Entry) int64 {
	n, batchEnd := int64(0), int64(-1)
	for i := range entries {
		r := &entries[i]
		switch {
		case r.Batch != nil:
			n += int64(len(r.Batch))
			batchEnd = r.Offset
			if h, err := kafkalog.ReadBatchHeader(r.Batch); err == nil {
				batchEnd = h.LastOffset()
			}
		case r.Offset <= batchEnd:
		default:
			n += 70 + int64(len(r.Key)+len(r.Value))
		}
	}
	return n
}

// network is a FIFO queue of messages and a set of cut links. Delivery is
// in send order; a message on a cut link, or to a broker that is down or has
// restarted since it was sent, is dropped when its turn comes.
type network struct {
	queue []envelope
	head  int
	cuts  map[[2]int32]bool
	// pending maps a follower request (leader, tp, follower, correlation id)
	// to the follower's incarnation, so that the answer reaches only it.
	pending map[requestKey]int
}

type requestKey struct {
	leader, follower int32
	tp               partitionKey
	corr             int64
}

func (n *network) push(e envelope) { n.queue = append(n.queue, e) }

func (n *network) len() int { return len(n.queue) - n.head }

// due reports whether the oldest message in flight has arrived by nowMs.
func (n *network) due(nowMs int64) bool {
	return n.head < len(n.queue) && n.queue[n.head].dueMs <= nowMs
}

func (n *network) pop() (envelope, bool) {
	if n.head == len(n.queue) {
		return envelope{}, false
	}
	e := n.queue[n.head]
	n.queue[n.head] = envelope{}
	n.head++
	if n.head == len(n.queue) {
		n.queue, n.head = n.queue[:0], 0
	}
	return e, true
}

func (n *network) cut(a, b int32) bool { return n.cuts[[2]int32{a, b}] }

// partition cuts every link between a node of a and a node of b, both ways.
func (n *network) partition(a, b []int32) {
	if n.cuts == nil {
		n.cuts = map[[2]int32]bool{}
	}
	for _, x := range a {
		for _, y := range b {
			if x != y {
				n.cuts[[2]int32{x, y}], n.cuts[[2]int32{y, x}] = true, true
			}
		}
	}
}

// cutLinks lists the cut links, sorted, each once (a < b).
func (n *network) cutLinks() [][2]int32 {
	var out [][2]int32
	for l := range n.cuts {
		if l[0] < l[1] {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(x, y [2]int32) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	return out
}

// matches reports whether e goes from a node in from to a node in to
// (nil matches any).
func matches(e *envelope, from, to []int32) bool {
	return (from == nil || slices.Contains(from, e.from)) && (to == nil || slices.Contains(to, e.to))
}

// moveFirst moves the oldest message matching from/to to the head of the
// queue; false if there is none.
func (n *network) moveFirst(from, to []int32) bool {
	q := n.queue[n.head:]
	for i := range q {
		if matches(&q[i], from, to) {
			e := q[i]
			copy(q[1:i+1], q[:i])
			q[0] = e
			return true
		}
	}
	return false
}

// drop removes the messages in flight from a node in from to a node in to,
// and returns how many.
func (n *network) drop(from, to []int32) int {
	q := n.queue[n.head:]
	kept := q[:0]
	for i := range q {
		if !matches(&q[i], from, to) {
			kept = append(kept, q[i])
		}
	}
	dropped := len(q) - len(kept)
	n.queue = append(n.queue[:n.head], kept...)
	return dropped
}
