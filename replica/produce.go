package replica

import (
	"errors"
	"fmt"
)

// AcksAll is the acks value that waits for the whole ISR (acks=all, -1).
const AcksAll int16 = -1

// InvalidRequiredAcks is Kafka's code for an acks value other than 0, 1, -1.
const InvalidRequiredAcks ErrorCode = 21

// ProduceCheck is the answer a produce with acks gets before the log sees
// its records, in Kafka 3.7's order: acks other than 0, 1 and -1 are
// INVALID_REQUIRED_ACKS (ReplicaManager.appendRecords), a replica that is not
// the leader answers NOT_LEADER_OR_FOLLOWER, and acks=all with fewer in-sync
// replicas than the effective min.insync.replicas NOT_ENOUGH_REPLICAS
// (Partition.appendRecordsToLeader, before UnifiedLog.appendAsLeader checks
// the records' sizes). NONE means the records go on to the log.
func (n *Node) ProduceCheck(acks int16) ErrorCode {
	switch {
	case acks != 0 && acks != 1 && acks != AcksAll:
		return InvalidRequiredAcks
	case n.role != RoleLeader:
		return NotLeaderOrFollower
	case acks == AcksAll && len(n.isr) < n.effectiveMinISR():
		return NotEnoughReplicas
	}
	return None
}

// handleProduce applies Partition.appendRecordsToLeader's checks to a Produce
// request: acks, leadership, min ISR for acks=all.
func (n *Node) handleProduce(m Message) error {
	resp := ProduceResponse{To: m.From, CorrelationID: m.CorrelationID, BaseOffset: -1}
	resp.Error = n.ProduceCheck(m.Acks)
	count, first, code := produced(m)
	if resp.Error != None || count == 0 {
		n.answerProduce(m.Acks, resp)
		return nil
	}
	if code != None {
		resp.Error = code
		n.answerProduce(m.Acks, resp)
		return nil
	}
	base, duplicate, code := n.checkSequence(first, count)
	if resp.Error = code; code != None {
		n.answerProduce(m.Acks, resp)
		return nil
	}
	if !duplicate {
		var err error
		if base, err = n.append(m, count, first); err != nil {
			var refused *RefusedError
			switch {
			case errors.As(err, &refused):
				resp.Error = refused.Code
			case errors.Is(err, ErrCorruptMessage):
				resp.Error = CorruptMessage
			case errors.Is(err, ErrInvalidRecord):
				resp.Error = InvalidRecord
			default:
				return err
			}
			n.answerProduce(m.Acks, resp)
			return nil
		}
	}
	resp.BaseOffset = base
	last := base + int64(count) - 1
	if m.Acks != AcksAll || n.hw > last {
		n.answerProduce(m.Acks, n.acksAllOutcome(resp, m.Acks))
		return nil
	}
	timeout := m.TimeoutMs
	if timeout <= 0 {
		timeout = DefaultProduceRequestTimeoutMs
	}
	n.lead.parkedProduces = append(n.lead.parkedProduces, parkedProduce{resp: resp, lastOffset: last, deadlineMs: n.now + timeout})
	return nil
}

// produced is what a Produce carries: its number of records and the
// producer fields of the first, from m.Batch when set, else from m.Records,
// whose producer fields must then be one producer's consecutive sequences
// (OUT_OF_ORDER_SEQUENCE_NUMBER otherwise, as a batch's sequences are
// consecutive by construction).
func produced(m Message) (count int, first *ProducerSequence, code ErrorCode) {
	if m.Batch != nil {
		return m.Batch.Count, m.Batch.Producer, None
	}
	if len(m.Records) == 0 {
		return 0, nil, None
	}
	first = m.Records[0].Producer
	if first == nil {
		return len(m.Records), nil, None
	}
	for i, r := range m.Records {
		if r.Producer == nil || r.Producer.ID != first.ID || r.Producer.Epoch != first.Epoch || r.Producer.Sequence != seqAfter(first.Sequence, int64(i)) {
			return len(m.Records), first, OutOfOrderSequenceNumber
		}
	}
	return len(m.Records), first, None
}

// append writes the records of m (count of them, the first with producer
// fields first) as leader (UnifiedLog.appendAsLeader) and lets the HW and
// parked fetches follow.
func (n *Node) append(m Message, count int, first *ProducerSequence) (int64, error) {
	epoch := NoEpoch
	if n.cfg.Rules.EpochsInRecords() {
		epoch = n.leaderEpoch
	}
	var base int64
	var err error
	if m.Batch != nil {
		bl, ok := n.log.(BatchLog)
		if !ok {
			return 0, fmt.Errorf("%w: broker %d: a produce of %d records as a batch, and the log is no BatchLog", ErrLog, n.cfg.ID, count)
		}
		base, err = bl.AppendBatchAsLeader(*m.Batch, epoch)
	} else {
		base, err = n.log.AppendAsLeader(m.Records, epoch)
	}
	if err != nil {
		return 0, fmt.Errorf("%w: broker %d: append %d records: %w", ErrLog, n.cfg.ID, count, err)
	}
	if first != nil {
		n.rememberBatch(first.ID, first.Epoch, batchMeta{firstSeq: first.Sequence, lastSeq: seqAfter(first.Sequence, int64(count)-1), firstOffset: base})
	}
	n.maybeAdvanceHW()
	n.completeParkedFetches()
	return base, nil
}

// answerProduce queues resp unless the producer asked for no answer (acks=0).
func (n *Node) answerProduce(acks int16, resp ProduceResponse) {
	if acks == 0 {
		return
	}
	n.out.ProduceResponses = append(n.out.ProduceResponses, resp)
}

// acksAllOutcome is Partition.checkEnoughReplicasReachOffset once the HW has
// passed the records: NONE, or NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR
// the leader counts has fewer than the effective min ISR members.
func (n *Node) acksAllOutcome(resp ProduceResponse, acks int16) ProduceResponse {
	if acks == AcksAll && len(n.hwISR()) < n.effectiveMinISR() {
		resp.Error = NotEnoughReplicasAfterAppend
	}
	return resp
}

// completeParkedProduces answers the acks=all produces the HW has passed.
func (n *Node) completeParkedProduces() {
	kept := n.lead.parkedProduces[:0]
	for _, p := range n.lead.parkedProduces {
		if n.hw > p.lastOffset {
			n.answerProduce(AcksAll, n.acksAllOutcome(p.resp, AcksAll))
			continue
		}
		kept = append(kept, p)
	}
	n.lead.parkedProduces = kept
}

// expireParkedProduces answers REQUEST_TIMED_OUT to produces past their
// timeout; their records stay in the log.
func (n *Node) expireParkedProduces() {
	kept := n.lead.parkedProduces[:0]
	for _, p := range n.lead.parkedProduces {
		if n.now >= p.deadlineMs {
			p.resp.Error = RequestTimedOut
			n.answerProduce(AcksAll, p.resp)
			continue
		}
		kept = append(kept, p)
	}
	n.lead.parkedProduces = kept
}
