package kafkatools_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// hangingClockMs is where the hanging worlds' clock starts: today's, as
// the served world's does, so that the world's clock and the time since
// it started differ.
const hangingClockMs = 1_765_000_000_000

// ask sends req from external client 1 to broker and returns the answer,
// running the world up to ms for it.
func ask[R kmsg.Response](t *testing.T, w *cluster.World, broker int32, req kmsg.Request, ms int64) R {
	t.Helper()
	id, err := w.External(cluster.ExternalRequest{Client: 1, ClientID: "hanging", Broker: broker, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
	require.NoError(t, err)
	for waited := int64(0); ; waited += 10 {
		for _, a := range w.ExternalAnswers() {
			if a.ID == id {
				return a.Response.(R)
			}
		}
		require.Less(t, waited, ms, "no answer to %s", kmsg.NameForKey(req.Key()))
		require.NoError(t, w.RunFor(10))
	}
}

// hangingWorld is a world of rules under which a client's transactional
// producer (transactional.id tx) writes a batch of n records to t-0 without
// AddPartitionsToTxn, the write a late produce of an ended transaction
// makes; it returns the world, the producer id and the produce's error
// code. With verify false the brokers run with
// transaction.partition.verification.enable=false.
func hangingWorld(t *testing.T, rules replica.RuleSet, verify bool, n int) (*cluster.World, int64, int16) {
	t.Helper()
	w, err := cluster.New(cluster.Config{ClockStartMs: hangingClockMs, Seed: 5, MinInsyncReplicas: 2, Rules: rules,
		DisableTransactionPartitionVerification: !verify})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.RunFor(1000))

	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.SetVersion(4)
	fc.CoordinatorType, fc.CoordinatorKeys = 1, []string{"tx"}
	var coord int32
	for range 50 {
		r := ask[*kmsg.FindCoordinatorResponse](t, w, 1, fc, 1000)
		if r.Coordinators[0].ErrorCode == 0 {
			coord = r.Coordinators[0].NodeID
			break
		}
		require.NoError(t, w.RunFor(200))
	}
	require.NotZero(t, coord, "no transaction coordinator")
	ip := kmsg.NewPtrInitProducerIDRequest()
	ip.SetVersion(4)
	ip.TransactionalID, ip.TransactionTimeoutMillis, ip.ProducerID, ip.ProducerEpoch = kmsg.StringPtr("tx"), 60000, -1, -1
	ir := ask[*kmsg.InitProducerIDResponse](t, w, coord, ip, 5000)
	require.Zero(t, ir.ErrorCode, "InitProducerId")

	var b kafkalog.RecordBatch
	b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, true, false)
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoPartitionLeaderEpoch, ir.ProducerID, ir.ProducerEpoch, 0
	for i := range n {
		b.AppendRecord(int64(i), w.ClockMs(), nil, fmt.Appendf(nil, "late-%d", i))
	}
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(9)
	req.TransactionID, req.Acks, req.TimeoutMillis = kmsg.StringPtr("tx"), -1, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = "t"
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Records = b.AppendTo(nil)
	rt.Partitions = []kmsg.ProduceRequestTopicPartition{rp}
	req.Topics = []kmsg.ProduceRequestTopic{rt}
	pr := ask[*kmsg.ProduceResponse](t, w, w.PartitionLeader("t", 0), req, 6000)
	return w, ir.ProducerID, pr.Topics[0].Partitions[0].ErrorCode
}

// lso is t-0's last stable offset (its high watermark while no
// transactional producer wrote to it) and high watermark.
func lso(t *testing.T, w *cluster.World) (int64, int64) {
	t.Helper()
	for _, p := range w.State().Partitions {
		if p.Topic == "t" && p.Partition == 0 {
			if p.LastStableOffset == nil {
				return p.HighWatermark, p.HighWatermark
			}
			return *p.LastStableOffset, p.HighWatermark
		}
	}
	t.Fatal("no topic t")
	return 0, 0
}

// TestFindHangingThenAbort walks an operator through a hanging
// transaction: a transactional batch written to a partition its
// coordinator never heard of (the brokers not verifying it:
// transaction.partition.verification.enable=false) holds the last
// stable offset back; find-hanging finds it once it is older than
// --max-transaction-timeout (the world's clock against the batch's
// timestamps, both today's here), abort --start-offset has the leader
// write its ABORT marker, and the last stable offset moves to the high
// watermark; find-hanging then finds nothing, describe-producers shows no
// open transaction, and a second abort says there is none.
func TestFindHangingThenAbort(t *testing.T) {
	w, pid, code := hangingWorld(t, replica.V3_7, false, 3)
	require.Zero(t, code, "the unverified write is taken")
	s := worldSession{w}
	stable, hw := lso(t, w)
	require.Equal(t, int64(0), stable, "the hanging transaction holds the LSO at its first offset")
	require.Equal(t, int64(3), hw)

	header := "Topic\tPartition\tProducerId\tProducerEpoch\tCoordinatorEpoch\tStartOffset\tLastTimestamp\tDuration(min)\t\n"
	out, err := run(t, s, "kafka-transactions find-hanging --topic t")
	require.NoError(t, err)
	require.Equal(t, header, out, "younger than 15 minutes: not hanging yet")

	require.NoError(t, w.RunFor(16*60_000))
	out, err = run(t, s, "kafka-transactions find-hanging --topic t --max-transaction-timeout 15")
	require.NoError(t, err)
	row := regexp.MustCompile(fmt.Sprintf(`(?m)^t\s*\t0\s*\t%d\s*\t0\s*\t-1\s*\t0\s*\t\d+\s*\t16\s*\t$`, pid))
	require.Regexp(t, row, out, "find-hanging:\n%s", out)
	out, err = run(t, s, "kafka-transactions find-hanging --broker-id 2")
	require.NoError(t, err)
	require.Regexp(t, row, out, "find-hanging by broker:\n%s", out)

	out, err = run(t, s, "kafka-transactions abort --topic t --partition 0 --start-offset 0")
	require.NoError(t, err)
	require.Empty(t, out, "Kafka's tool prints nothing once the marker is written")
	require.Contains(t, w.Actions()[len(w.Actions())-1].String(), fmt.Sprintf("abort-hanging t-0 producer-id=%d producer-epoch=0 coordinator-epoch=0", pid))
	require.NoError(t, w.RunFor(2000))
	stable, hw = lso(t, w)
	require.Equal(t, int64(4), hw, "the ABORT marker is replicated")
	require.Equal(t, hw, stable, "nothing holds the LSO back")
	var aborted bool
	for _, e := range w.Events() {
		aborted = aborted || strings.Contains(e.Text, fmt.Sprintf("admin: the hanging transaction of producer id %d is aborted", pid))
	}
	require.True(t, aborted, "the leader answered the admin client")

	out, err = run(t, s, "kafka-transactions find-hanging --topic t")
	require.NoError(t, err)
	require.Equal(t, header, out)
	out, err = run(t, s, "kafka-transactions describe-producers --topic t --partition 0")
	require.NoError(t, err)
	require.Regexp(t, fmt.Sprintf(`(?m)^%d\s*\t0\s*\t0\s*\t2\s*\t\d+\s*\tNone\s*\t$`, pid), out)
	_, err = run(t, s, "kafka-transactions abort --topic t --partition 0 --start-offset 0")
	require.Equal(t, "Could not find any open transactions starting at offset 0 on partition t-0", errText(err))
}

// TestAbortErrors: the abort's errors, in Kafka's words, none of which
// acts on the world.
func TestAbortErrors(t *testing.T) {
	w, pid, code := hangingWorld(t, replica.V3_7, false, 2)
	require.Zero(t, code)
	s := worldSession{w}
	spec := func(epoch, coord int) string {
		return fmt.Sprintf("AbortTransactionSpec(topicPartition=t-0, producerId=%d, producerEpoch=%d, coordinatorEpoch=%d)", pid, epoch, coord)
	}
	// the marker of a real abort moves the producer to coordinator epoch 3
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAbortHanging, Name: "t", Partition: 0,
		Marker: cluster.AbortSpec{ProducerID: pid, ProducerEpoch: 2, CoordinatorEpoch: 3}}))
	require.NoError(t, w.RunFor(2000))
	actions := len(w.Actions())
	for _, tc := range []struct{ line, want string }{
		{"kafka-transactions abort --topic t --partition 0",
			"The transaction to abort must be identified either with --start-offset (for brokers on 3.0 or above) or with --producer-id, --producer-epoch, and --coordinator-epoch (for older brokers)"},
		{fmt.Sprintf("kafka-transactions abort --topic t --partition 0 --producer-id %d", pid), "Missing required argument --producer-epoch"},
		{fmt.Sprintf("kafka-transactions abort --topic t --partition 0 --producer-id %d --producer-epoch 0", pid), "Missing required argument --coordinator-epoch"},
		{"kafka-transactions abort --topic t --partition 0 --start-offset 5", "Could not find any open transactions starting at offset 5 on partition t-0"},
		{"kafka-transactions abort --topic nope --partition 0 --start-offset 0",
			"Failed to validate producer state for partition nope-0: This server does not host this topic-partition. Enable debug logging for additional detail."},
		{fmt.Sprintf("kafka-transactions abort --topic t --partition 0 --producer-id %d --producer-epoch 1 --coordinator-epoch 3", pid),
			"Failed to abort transaction " + spec(1, 3) + ": WriteTxnMarkers request with " + spec(1, 3) + " failed due an invalid producer epoch. Enable debug logging for additional detail."},
		{fmt.Sprintf("kafka-transactions abort --topic t --partition 0 --producer-id %d --producer-epoch 2 --coordinator-epoch -1", pid),
			"Failed to abort transaction " + spec(2, 0) + ": WriteTxnMarkers request with " + spec(2, 0) + " failed since the provided coordinator epoch 0 has been fenced by the active coordinator. Enable debug logging for additional detail."},
	} {
		_, err := run(t, s, tc.line)
		if diff := cmp.Diff(tc.want, errText(err)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.line, diff)
		}
	}
	require.Len(t, w.Actions(), actions, "no refused abort acted")
	for _, line := range []string{"kafka-transactions abort --partition 0 --start-offset 0", "kafka-transactions abort --topic t --start-offset 0",
		"kafka-transactions abort --topic t --partition 0 --start-offset x", "kafka-transactions abort --topic t --partition 0 --producer-id 1 --producer-epoch 40000 --coordinator-epoch 0"} {
		_, err := run(t, s, line)
		require.ErrorIs(t, err, kafkatools.ErrUsage, line)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestVerificationPreventsHanging: the write that makes a transaction hang
// (a transactional batch for a partition not in its producer's
// transaction) is refused with INVALID_TXN_STATE by a leader that verifies
// it with the coordinator first (KIP-890 part 1:
// transaction.partition.verification.enable, on by default since Kafka
// 3.6, so under Kafka 3.7's rules as under Kafka 4's), and nothing hangs;
// with verification off it is taken and hangs, under either.
func TestVerificationPreventsHanging(t *testing.T) {
	for _, tc := range []struct {
		rules  replica.RuleSet
		verify bool
		code   int16
	}{
		{replica.V3_7, true, 48}, // INVALID_TXN_STATE
		{replica.V4, true, 48},
		{replica.V3_7, false, 0},
		{replica.V4, false, 0},
	} {
		t.Run(fmt.Sprintf("%s verify=%v", tc.rules, tc.verify), func(t *testing.T) {
			w, _, code := hangingWorld(t, tc.rules, tc.verify, 2)
			require.Equal(t, tc.code, code, "the produce's error code")
			require.NoError(t, w.RunFor(16*60_000))
			stable, hw := lso(t, w)
			out, err := run(t, worldSession{w}, "kafka-transactions find-hanging --topic t")
			require.NoError(t, err)
			hanging := strings.Count(out, "\n") - 1
			if tc.code != 0 {
				require.Equal(t, int64(0), hw, "nothing was written")
				require.Equal(t, hw, stable)
				require.Zero(t, hanging, "find-hanging:\n%s", out)
				return
			}
			require.Equal(t, int64(2), hw)
			require.Equal(t, int64(0), stable, "the hanging transaction holds the LSO")
			require.Equal(t, 1, hanging, "find-hanging:\n%s", out)
		})
	}
}
