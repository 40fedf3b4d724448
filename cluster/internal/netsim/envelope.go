package netsim

import (
	"fmt"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Kind says what an envelope carries.
type Kind uint8

// The kinds of envelope.
const (
	KindReplica            Kind = iota // a replica.Message between replicas, or a Produce
	KindProduceResp                    // a leader's answer to a producer
	KindLeaderAndISR                   // controller -> broker
	KindAlterPartition                 // leader -> controller
	KindRegister                       // broker -> controller, at start
	KindHeartbeat                      // broker -> controller
	KindShutdown                       // broker -> controller, controlled shutdown
	KindGroupRequest                   // consumer -> group coordinator
	KindGroupResponse                  // group coordinator -> consumer
	KindTxnRequest                     // producer (or a leader verifying) -> transaction coordinator
	KindTxnResponse                    // transaction coordinator -> producer (or leader)
	KindTxnMarkers                     // transaction coordinator's broker -> partition leader (WriteTxnMarkers)
	KindTxnMarkersResponse             // partition leader -> transaction coordinator's broker
)

var kindNames = [...]string{"replica", "produce-response", "leader-and-isr", "alter-partition", "register", "heartbeat", "controlled-shutdown", "group-request", "group-response",
	"txn-request", "txn-response", "txn-markers", "txn-markers-response"}

// TxnMessage is a message of the transaction protocol an envelope carries
// (Envelope.Txn): a request to a transaction coordinator and its answer, or
// WriteTxnMarkers between brokers. Its types are the transaction
// coordinator's (cluster/internal/txn); TxnName names one for the message
// trace ("EndTxn"). A message is never changed once sent.
type TxnMessage interface {
	TxnName() string
}

// String names the kind as the message trace prints it ("leader-and-isr").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Envelope is one message in flight. Its contents are not changed once it
// is sent: a clone of the network shares them.
type Envelope struct {
	From, To int32
	// ToIncarnation is the incarnation of broker To that the message is
	// for; it is dropped if the broker restarted meanwhile (a TCP
	// connection reset).
	ToIncarnation int
	Kind          Kind
	TP            kafkalog.TopicPartition
	Msg           replica.Message
	Resp          replica.ProduceResponse
	State         replica.LeaderAndISR
	Alter         replica.AlterPartition
	// Incarnation is, in a registration or heartbeat, the sender's
	// incarnation.
	Incarnation int
	// PreviousBrokerEpoch is, in a registration or heartbeat, the broker
	// epoch the broker's clean shutdown marker held when it started (-1:
	// no marker, an unclean shutdown), as BrokerRegistrationRequest v3
	// carries it (KIP-966).
	PreviousBrokerEpoch int64
	// FromIncarnation is the sending broker's incarnation.
	FromIncarnation int
	// Known is, in a heartbeat, the partition states the broker's replicas
	// know (leader epoch, partition epoch), so that the controller resends
	// what the broker missed (as a KRaft broker catches up on the metadata
	// log).
	Known *Known
	// GroupReq and GroupResp are a consumer's group request and its
	// answer; Client names the consumer and ClientInc its incarnation (a
	// restarted consumer never sees answers meant for the old one).
	GroupReq  group.Request
	GroupResp group.Response
	Client    string
	ClientInc int
	// Txn is a message of the transaction protocol (the Txn kinds).
	Txn TxnMessage
	// TransactionalID is, in a produce, the producer's transactional.id
	// (ProduceRequest's TransactionalId), which the leader needs to verify
	// a transactional batch with its coordinator (KIP-890).
	TransactionalID string
	// TxnV2 is, in a transactional produce, that the producer uses
	// transaction.version 2 (KIP-890 part 2, Produce v12+): it sent no
	// AddPartitionsToTxn, and the leader adds the partition to the
	// transaction.
	TxnV2 bool
	// DueMs is when the message arrives (the network's latency after it
	// was sent).
	DueMs int64
}

// Size estimates the envelope's bytes on the wire, for a broker's bytes
// in and out.
func (e *Envelope) Size() int64 {
	n := int64(40)
	for _, r := range e.Msg.Records {
		n += 70 + int64(len(r.Key)+len(r.Value))
	}
	n += EntriesWireSize(e.Msg.Entries)
	if b := e.Msg.Batch; b != nil {
		n += int64(len(b.Bytes))
	}
	return n
}

// EntriesWireSize is what a fetch answer's entries take on the wire: an
// entry that carries its batch's bytes counts them (Kafka sends the log's
// batches as stored), whether it stands for the whole batch (Entry.Count)
// or is followed by the batch's other records, which then count nothing;
// an entry without its batch's bytes counts 70 bytes plus its key and
// value, about what a batch of one record takes.
func EntriesWireSize(entries []replica.Entry) int64 {
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

// String prints the envelope on one line, as the message trace does:
// "1->2 replica Fetch t-0".
func (e *Envelope) String() string {
	s := fmt.Sprintf("%d->%d %s", e.From, e.To, e.Kind)
	if e.Kind == KindReplica {
		s += " " + e.Msg.Type.String()
	}
	if e.Txn != nil {
		s += " " + e.Txn.TxnName()
	}
	if e.TP.Topic != "" {
		s += fmt.Sprintf(" %s-%d", e.TP.Topic, e.TP.Partition)
	}
	return s
}
