package scenarios

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
)

// A produce's timestamp-ms= is the record's CreateTime; the transaction verbs
// name their producer; add-producer takes a transactional.id; add-copier
// its input partition as TOPIC-PARTITION.
func TestParseTimestampAndTransactionActions(t *testing.T) {
	ts := int64(1714521600000)
	for _, tc := range []struct {
		line string
		want cluster.Action
	}{
		{"produce b value=order-1 timestamp-ms=1714521600000", cluster.Action{Kind: cluster.ActProduce, Name: "b", Value: "order-1", Partition: -1, TimestampMs: &ts}},
		{"produce b value=order-1", cluster.Action{Kind: cluster.ActProduce, Name: "b", Value: "order-1", Partition: -1}},
		{"commit-transaction t", cluster.Action{Kind: cluster.ActCommitTransaction, Name: "t", Partition: -1}},
		{"abort-transaction t", cluster.Action{Kind: cluster.ActAbortTransaction, Name: "t", Partition: -1}},
		{"add-producer name=t topic=orders transactional-id=checkout-tx", cluster.Action{Kind: cluster.ActAddProducer, Partition: -1,
			Producer: cluster.ProducerConfig{Name: "t", Topic: "orders", TransactionalID: "checkout-tx"}}},
		{"add-copier name=cp from=orders-2 topic=audit group=g transactional-id=cp-tx max-poll-records=5", cluster.Action{Kind: cluster.ActAddCopier, Partition: -1,
			Producer: cluster.ProducerConfig{Name: "cp", Topic: "audit", TransactionalID: "cp-tx", Copy: cluster.CopySource{Topic: "orders", Partition: 2, Group: "g", MaxRecords: 5}}}},
	} {
		got, err := parseAction(tc.line)
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.line, diff)
		}
	}
	for _, line := range []string{"produce b value=x timestamp-ms=soon", "commit-transaction", "abort-transaction t u", "add-copier name=cp from=orders topic=audit", "add-copier name=cp topic=audit"} {
		if _, err := parseAction(line); !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: got %v, want ErrSyntax", line, err)
		}
	}
}
