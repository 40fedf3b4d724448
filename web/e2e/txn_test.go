package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestTransactionsAreDrawn: on the live world, a transactional producer
// writes three records and aborts, then one and commits, then one more it
// leaves open; the partition's tracks draw the aborted records as aborted,
// the committed one as committed, the open one as open, and the ABORT and
// COMMIT markers as the control records they are, and the read_committed
// consumer is badged and says it waits at the last stable offset.
func TestTransactionsAreDrawn(t *testing.T) {
	ctx, live := page(t, 1)
	require.NoError(t, live.Do(nil, func(w *cluster.World) error {
		steps := []cluster.Action{
			{Kind: cluster.ActCreateTopic, Topic: cluster.TopicSpec{Name: "ledger", Partitions: 1, ReplicationFactor: 3}},
			{Kind: cluster.ActAddProducer, Producer: cluster.ProducerConfig{Name: "tx", Topic: "ledger", Acks: "all", TransactionalID: "ledger-tx"}},
			{Kind: cluster.ActRun, Ms: 1000},
			{Kind: cluster.ActProduce, Name: "tx", Value: "a1", Partition: -1}, {Kind: cluster.ActProduce, Name: "tx", Value: "a2", Partition: -1},
			{Kind: cluster.ActProduce, Name: "tx", Value: "a3", Partition: -1}, {Kind: cluster.ActRun, Ms: 500},
			{Kind: cluster.ActAbortTransaction, Name: "tx"}, {Kind: cluster.ActRun, Ms: 500},
			{Kind: cluster.ActProduce, Name: "tx", Value: "b1", Partition: -1}, {Kind: cluster.ActRun, Ms: 500},
			{Kind: cluster.ActCommitTransaction, Name: "tx"}, {Kind: cluster.ActRun, Ms: 500},
			{Kind: cluster.ActProduce, Name: "tx", Value: "o1", Partition: -1}, {Kind: cluster.ActRun, Ms: 500},
			{Kind: cluster.ActAddConsumer, Consumer: cluster.ConsumerConfig{Name: "rc", Topic: "ledger", PollIntervalMs: 200, IsolationLevel: cluster.ReadCommitted}},
			{Kind: cluster.ActRun, Ms: 1000},
		}
		for _, a := range steps {
			if err := w.Do(a); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1000))) // room for the partition's seven offsets
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`(() => {
		const t = [...document.querySelectorAll("#parts-topics button")].find((b) => b.textContent.trim() === "ledger");
		if (t && t.getAttribute("aria-pressed") !== "true") t.click();
		const r = document.querySelector('#parts tr[data-topic="ledger"][data-partition="0"] button');
		if (r && r.getAttribute("aria-pressed") !== "true") r.click();
		return document.querySelectorAll('#tracks .logrow[data-role="leader"] .rec.marker').length === 2 &&
			!!document.querySelector('#tracks .logrow[data-role="leader"] .rec[data-offset="0"]');
	})()`, chromedp.WithPollingTimeout(15*time.Second)))
	if err != nil {
		t.Fatalf("no marker drawn on ledger-0's leader: the tracks are\n%s", eval[string](t, ctx, `document.querySelector("#tracks").innerHTML`))
	}
	leader := `#tracks .logrow[data-role="leader"] `
	offsets := func(cls string) []string {
		return eval[[]string](t, ctx, `[...document.querySelectorAll('`+leader+cls+`')].map((r) => r.dataset.offset)`)
	}
	require.Equal(t, []string{"0", "1", "2"}, offsets(".rec.txn-aborted"))
	require.Equal(t, []string{"3"}, offsets(".rec.marker.abort"))
	require.Equal(t, []string{"4"}, offsets(".rec.txn-committed"))
	require.Equal(t, []string{"5"}, offsets(".rec.marker.commit"))
	require.Equal(t, []string{"6"}, offsets(".rec.txn-open"))
	require.Contains(t, eval[string](t, ctx, `document.querySelector('`+leader+`.rec[data-offset="3"]').title`), "ABORT marker (a control record)")
	rc := eval[string](t, ctx, `(document.querySelector('tr[data-key="c-rc"]') || {textContent: ""}).textContent`)
	require.Contains(t, rc, "read_committed")
	require.Contains(t, rc, "waits at LSO 6 (HW 7)")
	screenshot(t, ctx, "transactions")
}
