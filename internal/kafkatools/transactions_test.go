package kafkatools

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

func TestTransactionsTables(t *testing.T) {
	open := cluster.TransactionInfo{Coordinator: 2, TransactionalID: "payments", ProducerID: 10003, ProducerEpoch: 4, State: "Ongoing",
		TimeoutMs: 60000, StartMs: 1500, Partitions: []kafkalog.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 2}}}
	done := cluster.TransactionInfo{Coordinator: 1, TransactionalID: "t", ProducerID: 10000, State: "CompleteAbort", TimeoutMs: 900000, StartMs: -1}
	for _, tc := range []struct {
		name, got, want string
	}{
		{"list", listTransactionsText([]cluster.TransactionInfo{open, done}),
			"TransactionalId\tCoordinator\tProducerId\tTransactionState\t\n" +
				"payments       \t2          \t10003     \tOngoing         \t\n" +
				"t              \t1          \t10000     \tCompleteAbort   \t\n"},
		{"list nothing", listTransactionsText(nil), "TransactionalId\tCoordinator\tProducerId\tTransactionState\t\n"},
		{"describe open", describeTransactionText(open, 4000),
			"CoordinatorId\tTransactionalId\tProducerId\tProducerEpoch\tTransactionState\tTransactionTimeoutMs\tCurrentTransactionStartTimeMs\tTransactionDurationMs\tTopicPartitions  \t\n" +
				"2            \tpayments       \t10003     \t4            \tOngoing         \t60000               \t1500                         \t2500                 \torders-0,orders-2\t\n"},
		{"describe none open", describeTransactionText(done, 4000),
			"CoordinatorId\tTransactionalId\tProducerId\tProducerEpoch\tTransactionState\tTransactionTimeoutMs\tCurrentTransactionStartTimeMs\tTransactionDurationMs\tTopicPartitions\t\n" +
				"1            \tt              \t10000     \t0            \tCompleteAbort   \t900000              \tNone                         \tNone                 \t               \t\n"},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestTransactionsUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"nope"}, {"list", "describe"}, {"describe"}, {"describe-producers", "--topic", "t"},
		{"describe-producers", "--topic", "t", "--partition", "x"}, {"find-hanging", "--max-transaction-timeout", "x", "--topic", "t"}} {
		if err := Transactions(nil, args, nil); !errors.Is(err, ErrUsage) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"find-hanging"}, "The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search"},
		{[]string{"find-hanging", "--broker-id", "1", "--partition", "0"}, "The --partition argument requires --topic to be provided"},
	} {
		err := Transactions(nil, tc.args, nil)
		if diff := cmp.Diff(tc.want, errString(err)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.args, diff)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
