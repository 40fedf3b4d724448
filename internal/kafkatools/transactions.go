package kafkatools

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// Transactions is kafka-transactions.sh (Kafka 3.7's TransactionsCommand,
// KIP-664): list (every transactional id the coordinators have, with its
// coordinator, producer id and state), describe --transactional-id ID (its
// producer epoch, timeout, the start and duration of its open transaction
// and its partitions), describe-producers --topic T --partition P
// [--broker-id N] (what the partition's leader, or replica N, knows of
// each producer: epoch, latest coordinator epoch, last sequence and
// timestamp, the start offset of its open transaction), find-hanging
// (--topic T [--partition P] or --broker-id N, [--max-transaction-timeout
// minutes]: the open transactions older than that whose coordinator does
// not know them as open on the partition), each printed as
// TransactionsCommand.prettyPrintTable lays its table out, and abort
// (--topic T --partition P with --start-offset N, or --producer-id
// --producer-epoch --coordinator-epoch: an ABORT marker for a hanging
// transaction written by the partition's leader, as an action on the
// timeline). Times are the world's clock (the brokers' and its own
// clients'), as Kafka's tool reads its host's.
func Transactions(s Session, args []string, out io.Writer) error {
	fl, pos := Flags(args)
	if len(pos) != 1 {
		return fmt.Errorf("%w: one command of list, describe, describe-producers, find-hanging, abort", ErrUsage)
	}
	switch pos[0] {
	case "list":
		return s.Look(func(w *cluster.World) error {
			_, err := io.WriteString(out, listTransactionsText(w.Transactions()))
			return err
		})
	case "describe":
		id, ok := fl["transactional-id"]
		if !ok || id == "" {
			return fmt.Errorf("%w: describe --transactional-id ID", ErrUsage)
		}
		return s.Look(func(w *cluster.World) error { return describeTransaction(w, id, out) })
	case "describe-producers":
		return describeProducers(s, fl, out)
	case "find-hanging":
		return findHanging(s, fl, out)
	case "abort":
		return abortTransaction(s, fl, out)
	}
	return fmt.Errorf("%w: unknown command %q (list, describe, describe-producers, find-hanging, abort)", ErrUsage, pos[0])
}

// prettyTable lays rows out under headers as
// TransactionsCommand.prettyPrintTable does: each column padded to its
// widest cell, every cell followed by a tab.
func prettyTable(headers []string, rows [][]string) string {
	widths := make([]int, len(headers))
	for i, h := range headers {
		widths[i] = len(h)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	var b strings.Builder
	for _, r := range append([][]string{headers}, rows...) {
		for i, c := range r {
			b.WriteString(c + strings.Repeat(" ", widths[i]-len(c)) + "\t")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// listTransactionsText is ListTransactionsCommand's table.
func listTransactionsText(txns []cluster.TransactionInfo) string {
	rows := make([][]string, 0, len(txns))
	for _, t := range txns {
		rows = append(rows, []string{t.TransactionalID, fmt.Sprint(t.Coordinator), fmt.Sprint(t.ProducerID), t.State})
	}
	return prettyTable([]string{"TransactionalId", "Coordinator", "ProducerId", "TransactionState"}, rows)
}

// describeTransaction prints DescribeTransactionsCommand's table for id,
// or fails as it does for an id no coordinator knows.
func describeTransaction(w *cluster.World, id string, out io.Writer) error {
	i := slices.IndexFunc(w.Transactions(), func(t cluster.TransactionInfo) bool { return t.TransactionalID == id })
	if i < 0 {
		return kafkaMessagef("Failed to describe transaction state of transactional-id `%s`: The transactionalId could not be found. Enable debug logging for additional detail.", id)
	}
	_, err := io.WriteString(out, describeTransactionText(w.Transactions()[i], w.ClockMs()))
	return err
}

// describeTransactionText is DescribeTransactionsCommand's table: the
// duration is the world's time since the transaction began.
func describeTransactionText(t cluster.TransactionInfo, nowMs int64) string {
	start, duration := "None", "None"
	if t.StartMs >= 0 {
		start, duration = fmt.Sprint(t.StartMs), fmt.Sprint(nowMs-t.StartMs)
	}
	parts := make([]string, len(t.Partitions))
	for i, k := range t.Partitions {
		parts[i] = k.String()
	}
	row := []string{fmt.Sprint(t.Coordinator), t.TransactionalID, fmt.Sprint(t.ProducerID), fmt.Sprint(t.ProducerEpoch), t.State,
		fmt.Sprint(t.TimeoutMs), start, duration, strings.Join(parts, ",")}
	return prettyTable([]string{"CoordinatorId", "TransactionalId", "ProducerId", "ProducerEpoch", "TransactionState", "TransactionTimeoutMs",
		"CurrentTransactionStartTimeMs", "TransactionDurationMs", "TopicPartitions"}, [][]string{row})
}

// topicPartitionFlags reads --topic T --partition P (both required when
// required is set).
func topicPartitionFlags(fl map[string]string, required bool) (topic string, partition int, hasPartition bool, err error) {
	topic = fl["topic"]
	partition, hasPartition, err = intFlag(fl, "partition")
	if err == nil && required && (topic == "" || !hasPartition) {
		err = fmt.Errorf("%w: --topic T --partition P", ErrUsage)
	}
	return topic, partition, hasPartition, err
}

// describeProducers prints DescribeProducersCommand's table.
func describeProducers(s Session, fl map[string]string, out io.Writer) error {
	topic, partition, _, err := topicPartitionFlags(fl, true)
	if err != nil {
		return err
	}
	brokerID, hasBroker, err := intFlag(fl, "broker-id")
	if err != nil {
		return err
	}
	return s.Look(func(w *cluster.World) error {
		ps, err := w.PartitionProducers(topic, int32(partition), int32(max(brokerID, 0)))
		if err != nil {
			on := "leader"
			if hasBroker {
				on = "broker " + strconv.Itoa(brokerID)
			}
			return kafkaMessagef("Failed to describe producers for partition %s-%d on %s: %s Enable debug logging for additional detail.", topic, partition, on, refusalText(err))
		}
		rows := make([][]string, 0, len(ps))
		for _, p := range ps {
			start := "None"
			if p.CurrentTxnStartOffset >= 0 {
				start = fmt.Sprint(p.CurrentTxnStartOffset)
			}
			rows = append(rows, []string{fmt.Sprint(p.ProducerID), fmt.Sprint(p.ProducerEpoch), fmt.Sprint(p.CoordinatorEpoch), fmt.Sprint(p.LastSequence),
				fmt.Sprint(p.LastTimestamp), start})
		}
		_, err = io.WriteString(out, prettyTable([]string{"ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence", "LastTimestamp",
			"CurrentTransactionStartOffset"}, rows))
		return err
	})
}

// refusalText is the message of the exception Kafka's admin client raises
// for the world's refusal (Errors' default messages).
func refusalText(err error) string {
	if errors.Is(err, cluster.ErrUnknownTopicOrPartition) {
		return "This server does not host this topic-partition."
	}
	return "For requests intended only for the leader, this error indicates that the broker is not the current leader. " +
		"For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition."
}

// findHanging prints FindHangingTransactionsCommand's table: the open
// transactions of the partitions searched whose last write is older than
// --max-transaction-timeout minutes (15) and that their producer's
// coordinator does not know as open on that partition (no transactional id
// has the producer id, or its transaction does not hold the partition).
func findHanging(s Session, fl map[string]string, out io.Writer) error {
	topic, partition, hasPartition, err := topicPartitionFlags(fl, false)
	if err != nil {
		return err
	}
	brokerID, hasBroker, err := intFlag(fl, "broker-id")
	if err != nil {
		return err
	}
	maxMin, given, err := intFlag(fl, "max-transaction-timeout")
	if err != nil {
		return err
	}
	if !given {
		maxMin = 15
	}
	switch {
	case topic == "" && !hasBroker:
		return kafkaMessagef("The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search")
	case hasPartition && topic == "":
		return kafkaMessagef("The --partition argument requires --topic to be provided")
	}
	return s.Look(func(w *cluster.World) error {
		rows := hangingRows(w, topic, partition, hasPartition, int32(max(brokerID, 0)), int64(maxMin)*60000)
		_, err := io.WriteString(out, prettyTable([]string{"Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch", "StartOffset",
			"LastTimestamp", "Duration(min)"}, rows))
		return err
	})
}

// hangingRows are find-hanging's rows. A producer's last timestamp (its
// batches' CreateTime, or the leader's clock under LogAppendTime) is
// compared with the world's clock, as FindHangingTransactionsCommand
// compares it with its host's.
func hangingRows(w *cluster.World, topic string, partition int, hasPartition bool, brokerID int32, maxMs int64) [][]string {
	var rows [][]string
	now := w.ClockMs()
	txns := w.Transactions()
	for _, t := range w.Topics() {
		if topic != "" && t.Name != topic {
			continue
		}
		for p, replicas := range t.Assignment {
			if hasPartition && p != partition || brokerID > 0 && !slices.Contains(replicas, brokerID) {
				continue
			}
			ps, err := w.PartitionProducers(t.Name, int32(p), brokerID)
			if err != nil {
				continue
			}
			for _, pr := range ps {
				if pr.CurrentTxnStartOffset < 0 || now-pr.LastTimestamp <= maxMs || openAtCoordinator(txns, pr.ProducerID, t.Name, int32(p)) {
					continue
				}
				rows = append(rows, []string{t.Name, fmt.Sprint(p), fmt.Sprint(pr.ProducerID), fmt.Sprint(pr.ProducerEpoch), fmt.Sprint(pr.CoordinatorEpoch),
					fmt.Sprint(pr.CurrentTxnStartOffset), fmt.Sprint(pr.LastTimestamp), fmt.Sprint((now - pr.LastTimestamp) / 60000)})
			}
		}
	}
	return rows
}

// openAtCoordinator reports whether a transactional id with producer id
// pid holds the partition in its transaction.
func openAtCoordinator(txns []cluster.TransactionInfo, pid int64, topic string, partition int32) bool {
	for _, t := range txns {
		if t.ProducerID != pid {
			continue
		}
		for _, k := range t.Partitions {
			if k.Topic == topic && k.Partition == partition {
				return true
			}
		}
	}
	return false
}

// abortTransaction is AbortTransactionCommand: the transaction to abort is
// the open one starting at --start-offset on the partition (its producer
// id and epoch and its latest coordinator epoch from the leader's producer
// state, DescribeProducers), or the one --producer-id, --producer-epoch and
// --coordinator-epoch name (a negative coordinator epoch taken as 0). The
// partition's leader writes its ABORT marker ([cluster.ActAbortHanging]);
// Kafka's tool prints nothing when it is written, and its errors as
// TransactionsCommand.printErrorAndExit does, the leader's refusal as
// AbortTransactionHandler words it.
func abortTransaction(s Session, fl map[string]string, out io.Writer) error {
	topic, partition, _, err := topicPartitionFlags(fl, true)
	if err != nil {
		return err
	}
	start, hasStart, err := int64Flag(fl, "start-offset")
	if err != nil {
		return err
	}
	pid, hasPid, err := int64Flag(fl, "producer-id")
	if err != nil {
		return err
	}
	epoch, hasEpoch, err := int64Flag(fl, "producer-epoch")
	if err != nil {
		return err
	}
	coordEpoch, hasCoord, err := int64Flag(fl, "coordinator-epoch")
	if err != nil {
		return err
	}
	if hasEpoch && (epoch < math.MinInt16 || epoch > math.MaxInt16) || hasCoord && (coordEpoch < math.MinInt32 || coordEpoch > math.MaxInt32) {
		return fmt.Errorf("%w: --producer-epoch is a short, --coordinator-epoch an int", ErrUsage)
	}
	var spec cluster.AbortSpec
	switch {
	case !hasStart && !hasPid:
		return kafkaMessagef("The transaction to abort must be identified either with --start-offset (for brokers on 3.0 or above) " +
			"or with --producer-id, --producer-epoch, and --coordinator-epoch (for older brokers)")
	case !hasStart && !hasEpoch:
		return kafkaMessagef("Missing required argument --producer-epoch")
	case !hasStart && !hasCoord:
		return kafkaMessagef("Missing required argument --coordinator-epoch")
	case !hasStart:
		spec = cluster.AbortSpec{ProducerID: pid, ProducerEpoch: int16(epoch), CoordinatorEpoch: int32(max(coordEpoch, 0))}
	}
	refused, err := s.Act(out, func(w *cluster.World) (cluster.Action, error) {
		ps, err := w.PartitionProducers(topic, int32(partition), 0)
		if hasStart {
			if err != nil {
				return cluster.Action{}, kafkaMessagef("Failed to validate producer state for partition %s-%d: %s Enable debug logging for additional detail.",
					topic, partition, refusalText(err))
			}
			i := slices.IndexFunc(ps, func(p cluster.ProducerState) bool { return p.CurrentTxnStartOffset == start })
			if i < 0 {
				return cluster.Action{}, kafkaMessagef("Could not find any open transactions starting at offset %d on partition %s-%d", start, topic, partition)
			}
			spec = cluster.AbortSpec{ProducerID: ps[i].ProducerID, ProducerEpoch: ps[i].ProducerEpoch, CoordinatorEpoch: max(ps[i].CoordinatorEpoch, 0)}
		}
		if err != nil {
			return cluster.Action{}, abortFailed(topic, partition, spec, refusalText(err))
		}
		if why := markerRefusal(ps, topic, partition, spec); why != "" {
			return cluster.Action{}, abortFailed(topic, partition, spec, why)
		}
		return cluster.Action{Kind: cluster.ActAbortHanging, Name: topic, Partition: int32(partition), Marker: spec}, nil
	}, "")
	if err != nil {
		return err
	}
	return refused
}

// markerRefusal is why the leader's log refuses spec's ABORT marker, as
// AbortTransactionHandler words it ("": it takes it): the producer's epoch
// there is newer (INVALID_PRODUCER_EPOCH), or its last marker's
// coordinator epoch is (TRANSACTION_COORDINATOR_FENCED), the checks of
// Kafka 3.7's ProducerAppendInfo.appendEndTxnMarker.
func markerRefusal(ps []cluster.ProducerState, topic string, partition int, spec cluster.AbortSpec) string {
	i := slices.IndexFunc(ps, func(p cluster.ProducerState) bool { return p.ProducerID == spec.ProducerID })
	switch {
	case i < 0:
		return ""
	case spec.ProducerEpoch < ps[i].ProducerEpoch:
		return fmt.Sprintf("WriteTxnMarkers request with %s failed due an invalid producer epoch.", abortSpecText(topic, partition, spec))
	case spec.CoordinatorEpoch < ps[i].CoordinatorEpoch:
		return fmt.Sprintf("WriteTxnMarkers request with %s failed since the provided coordinator epoch %d has been fenced by the active coordinator.",
			abortSpecText(topic, partition, spec), spec.CoordinatorEpoch)
	}
	return ""
}

// abortFailed is the tool's error for an abort the cluster refused.
func abortFailed(topic string, partition int, spec cluster.AbortSpec, why string) error {
	return kafkaMessagef("Failed to abort transaction %s: %s Enable debug logging for additional detail.",
		abortSpecText(topic, partition, spec), why)
}

// abortSpecText is AbortTransactionSpec.toString.
func abortSpecText(topic string, partition int, spec cluster.AbortSpec) string {
	return fmt.Sprintf("AbortTransactionSpec(topicPartition=%s-%d, producerId=%d, producerEpoch=%d, coordinatorEpoch=%d)",
		topic, partition, spec.ProducerID, spec.ProducerEpoch, spec.CoordinatorEpoch)
}
