package interop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// txnOps are the transaction operations of the matrix, in order.
var txnOps = []string{"txn commit, abort, commit", "read_committed", "read_uncommitted sees all", "txn fenced", "txn offsets (consume-transform-produce)"}

// TestTransactionsKgo runs franz-go's transactional producer against the
// cluster: three transactions (commit, abort, commit) on a topic of three
// partitions; a read_committed consumer gets exactly the committed records,
// a read_uncommitted one every record; a second producer with the same
// transactional.id fences the first, whose next commit fails and whose
// records no read_committed consumer sees; a GroupTransactSession commits
// the offsets it consumed in its transaction.
func TestTransactionsKgo(t *testing.T) {
	lc := startLive(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	const client = "franz-go"
	topic := "interop-txn-kgo"
	lc.createTopic(t, ctx, topic, 3)

	var committed, all []string
	op(t, client, txnOps[0], func(t *testing.T) {
		p := lc.kgoClient(t, kgo.TransactionalID("kgo-txn"), kgo.DefaultProduceTopic(topic), kgo.TransactionTimeout(60*time.Second), kgo.ClientID("kgo-txn"))
		for i, commit := range []bool{true, false, true} {
			require.NoError(t, p.BeginTransaction())
			var vals []string
			for j := range 4 {
				v := fmt.Sprintf("t%d-r%d", i, j)
				require.NoError(t, p.ProduceSync(ctx, &kgo.Record{Key: []byte(v), Value: []byte(v)}).FirstErr(), "transaction %d", i)
				vals = append(vals, v)
			}
			require.NoError(t, p.EndTransaction(ctx, kgo.TransactionEndTry(commit)), "end transaction %d (commit %v)", i, commit)
			all = append(all, vals...)
			if commit {
				committed = append(committed, vals...)
			}
		}
		out := lc.exec(t, "kafka-transactions describe --transactional-id kgo-txn")
		// epoch 3: the cluster runs transaction.version 2 (Kafka 4's rules,
		// KIP-890 part 2), franz-go uses it, and each EndTxn bumped the epoch
		require.Regexp(t, `(?m)^\d\s+\tkgo-txn\s*\t\d+\s*\t3\s+\tCompleteCommit\s*\t60000\s*\t\d+`, out, "kafka-transactions describe:\n%s", out)
		out = lc.exec(t, "kafka-transactions list")
		require.Contains(t, out, "TransactionalId\tCoordinator\tProducerId\tTransactionState\t", "kafka-transactions list:\n%s", out)
		require.Regexp(t, `(?m)^kgo-txn\s*\t\d`, out, "kafka-transactions list:\n%s", out)
		out = lc.exec(t, "kafka-transactions describe-producers --topic "+topic+" --partition 0")
		require.Regexp(t, `(?m)^ProducerId\s*\tProducerEpoch\t`, out, "kafka-transactions describe-producers:\n%s", out)
	})
	op(t, client, txnOps[1], func(t *testing.T) {
		got := consumeValues(ctx, t, lc, topic, kgo.ReadCommitted(), len(committed))
		require.ElementsMatch(t, committed, got)
	})
	op(t, client, txnOps[2], func(t *testing.T) {
		got := consumeValues(ctx, t, lc, topic, kgo.ReadUncommitted(), len(all))
		require.ElementsMatch(t, all, got)
	})
	op(t, client, txnOps[3], func(t *testing.T) {
		zombie := lc.kgoClient(t, kgo.TransactionalID("kgo-zombie"), kgo.DefaultProduceTopic(topic), kgo.ClientID("kgo-zombie"))
		require.NoError(t, zombie.BeginTransaction())
		require.NoError(t, zombie.ProduceSync(ctx, &kgo.Record{Value: []byte("zombie-0")}).FirstErr())
		// a new instance with the same transactional.id: InitProducerId
		// bumps the epoch and aborts the zombie's open transaction
		fresh := lc.kgoClient(t, kgo.TransactionalID("kgo-zombie"), kgo.DefaultProduceTopic(topic), kgo.ClientID("kgo-fresh"))
		require.NoError(t, fresh.BeginTransaction())
		require.NoError(t, fresh.ProduceSync(ctx, &kgo.Record{Value: []byte("fresh-0")}).FirstErr())
		require.NoError(t, fresh.EndTransaction(ctx, kgo.TryCommit))
		zerr := zombie.ProduceSync(ctx, &kgo.Record{Value: []byte("zombie-1")}).FirstErr()
		if zerr == nil {
			zerr = zombie.EndTransaction(ctx, kgo.TryCommit)
		}
		require.Error(t, zerr, "the zombie's commit after the fencing")
		require.True(t, errors.Is(zerr, kerr.ProducerFenced) || errors.Is(zerr, kerr.InvalidProducerEpoch) || errors.Is(zerr, kerr.InvalidProducerIDMapping),
			"the zombie is told it is fenced: %v", zerr)
		committed = append(committed, "fresh-0")
		got := consumeValues(ctx, t, lc, topic, kgo.ReadCommitted(), len(committed))
		require.ElementsMatch(t, committed, got)
	})
	op(t, client, txnOps[4], func(t *testing.T) {
		out := topic + "-out"
		lc.createTopic(t, ctx, out, 1)
		s, err := kgo.NewGroupTransactSession(kgo.SeedBrokers(lc.bootstrap(1)), kgo.TransactionalID("kgo-ctp"), kgo.ConsumerGroup("kgo-ctp"),
			kgo.ConsumeTopics(topic), kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.DefaultProduceTopic(out), kgo.FetchMaxWait(300*time.Millisecond), kgo.ProducerLinger(0))
		require.NoError(t, err)
		defer s.Close()
		n := 0
		for n < len(committed) {
			fs := s.PollFetches(ctx)
			require.NoError(t, ctx.Err())
			require.NoError(t, s.Begin())
			fs.EachRecord(func(r *kgo.Record) {
				s.Produce(ctx, &kgo.Record{Value: append([]byte("copy-"), r.Value...)}, nil)
				n++
			})
			ok, err := s.End(ctx, kgo.TryCommit)
			require.NoError(t, err)
			require.True(t, ok, "the session committed")
		}
		adm := kgoDriver{lc}.admin(t)
		offs, err := adm.FetchOffsets(ctx, "kgo-ctp")
		require.NoError(t, err)
		var sum int64
		offs.Each(func(o kadm.OffsetResponse) { sum += o.At })
		require.Positive(t, sum, "the group's offsets were committed in the transactions")
		got := consumeValues(ctx, t, lc, out, kgo.ReadCommitted(), len(committed))
		require.Len(t, got, len(committed))
	})
}

// consumeValues reads topic from the start at isolation level iso until it
// has n records, then for one more second to find any record too many, and
// returns their values.
func consumeValues(ctx context.Context, t *testing.T, lc *liveCluster, topic string, iso kgo.IsolationLevel, n int) []string {
	t.Helper()
	cl := lc.kgoClient(t, kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(iso))
	var got []string
	deadline := time.Time{}
	for {
		pctx := ctx
		if !deadline.IsZero() {
			if time.Now().After(deadline) {
				break
			}
			var cancel context.CancelFunc
			pctx, cancel = context.WithDeadline(ctx, deadline)
			defer cancel()
		}
		fs := cl.PollFetches(pctx)
		if ctx.Err() != nil {
			t.Fatalf("read %d of %d records: %v (%v)", len(got), n, ctx.Err(), got)
		}
		fs.EachRecord(func(r *kgo.Record) { got = append(got, string(r.Value)) })
		if len(got) >= n && deadline.IsZero() {
			deadline = time.Now().Add(time.Second)
		}
	}
	slices.Sort(got)
	return got
}
