package interop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/cluster"
)

// truncationOp is the matrix cell of TestKgoDetectsTruncation.
const truncationOp = "consumer detects truncation"

// TestKgoDetectsTruncation: what a leader epoch tells a consumer
// (KIP-320). A topic with unclean.leader.election.enable and
// min.insync.replicas 1 takes five records on all three replicas, then,
// with both followers stopped, five more on the leader alone; a kgo
// consumer reads all ten, under the leader's epoch. The leader dies and a
// follower without the last five is elected uncleanly (both followers
// start again: the controllers run on the brokers and need two of the
// three); it takes seven new
// records, so that its log runs past the consumer's position 10 and a
// fetch from there would succeed and skip the new records at 5 to 9. kgo
// sees the new leader epoch, asks the new leader where its epoch ends
// (OffsetForLeaderEpoch: at 5), reports the loss as ErrDataLoss (consumed
// to 10, reset to 5) and reads the new records from offset 5.
func TestKgoDetectsTruncation(t *testing.T) {
	t.Parallel()
	lc := startLive(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const topic = "truncated"
	adm := kadm.NewClient(lc.kgoClient(t))
	resp, err := adm.CreateTopic(ctx, 1, 3, map[string]*string{
		"min.insync.replicas":            kadm.StringPtr("1"),
		"unclean.leader.election.enable": kadm.StringPtr("true"),
	}, topic)
	require.NoError(t, err)
	require.NoError(t, resp.Err)

	part := func() cluster.PartitionInfo {
		var p cluster.PartitionInfo
		lc.world(t, func(w *cluster.World) error {
			for _, ps := range w.StateWith(cluster.StateOptions{Records: func(string, int32) bool { return false }}).Partitions {
				if ps.Topic == topic {
					p = ps
				}
			}
			return nil
		})
		return p
	}
	p := lc.kgoClient(t, kgo.DefaultProduceTopic(topic), kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
	produce := func(tag string, n int) {
		t.Helper()
		for i := range n {
			require.NoError(t, p.ProduceSync(ctx, &kgo.Record{Value: fmt.Appendf(nil, "%s-%d", tag, i)}).FirstErr())
		}
	}
	produce("all", 5)
	require.Eventually(t, func() bool { pi := part(); return pi.HighWatermark == 5 && len(pi.ISR) == 3 }, 20*time.Second, 20*time.Millisecond, "%+v", part())
	old := part()
	var followers []int32
	for _, id := range old.Replicas {
		if id != old.Leader {
			followers = append(followers, id)
		}
	}
	lc.world(t, func(w *cluster.World) error {
		for _, id := range followers {
			if err := w.Stop(id); err != nil {
				return err
			}
		}
		return nil
	})
	require.Eventually(t, func() bool { return len(part().ISR) == 1 }, 30*time.Second, 20*time.Millisecond, "ISR: %v", part().ISR)
	produce("leader-only", 5)

	c := lc.kgoClient(t, kgo.SeedBrokers(strings.Split(lc.bootstraps(), ",")...), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	var read []*kgo.Record
	for len(read) < 10 && ctx.Err() == nil {
		fs := c.PollFetches(ctx)
		require.NoError(t, errors.Join(fetchErrs(fs)...))
		read = append(read, fs.Records()...)
	}
	require.Len(t, read, 10)
	require.Equal(t, old.LeaderEpoch, read[9].LeaderEpoch)

	lc.world(t, func(w *cluster.World) error {
		if err := w.Kill(old.Leader); err != nil {
			return err
		}
		// both, so that the controllers (on the brokers) have a quorum
		for _, id := range followers {
			if err := w.Start(id); err != nil {
				return err
			}
		}
		return nil
	})
	require.Eventually(t, func() bool { pi := part(); return pi.Leader != old.Leader && pi.Leader > 0 }, 30*time.Second, 20*time.Millisecond, "leader: %d", part().Leader)
	produce("new", 7)

	op(t, "kgo", truncationOp, func(t *testing.T) {
		var loss *kgo.ErrDataLoss
		var after []string
		for (loss == nil || len(after) < 7) && ctx.Err() == nil {
			fs := c.PollFetches(ctx)
			for _, err := range fetchErrs(fs) {
				if !errors.As(err, &loss) {
					t.Logf("fetch error: %v", err)
				}
			}
			fs.EachRecord(func(r *kgo.Record) {
				require.NotNil(t, loss, "read %s at %d before the loss was reported", r.Value, r.Offset)
				require.Equal(t, int64(5+len(after)), r.Offset)
				after = append(after, string(r.Value))
			})
		}
		require.NotNil(t, loss, "kgo reported no data loss")
		require.Equal(t, [2]int64{10, 5}, [2]int64{loss.ConsumedTo, loss.ResetTo}, "%v", loss)
		require.Equal(t, []string{"new-0", "new-1", "new-2", "new-3", "new-4", "new-5", "new-6"}, after)
	})
}

// fetchErrs are the errors of fs but a closed client's.
func fetchErrs(fs kgo.Fetches) []error {
	var errs []error
	for _, e := range fs.Errors() {
		if !errors.Is(e.Err, context.Canceled) && !errors.Is(e.Err, kgo.ErrClientClosed) {
			errs = append(errs, e.Err)
		}
	}
	return errs
}
