package cluster_test

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// groupConsumerArgs reads a group consumer's settings:
// topics=(orders) assignors=(sticky) instance=w1 commit=auto|sync|off
// reset=latest|earliest|none session=45000 heartbeat=3000 max-poll=300000
// poll=100 auto-commit=5000.
func groupConsumerArgs(t *testing.T, d *datadriven.TestData, c *cluster.ConsumerConfig) {
	if arg, ok := d.Arg("topics"); ok {
		c.Topics = arg.Vals
	}
	if arg, ok := d.Arg("assignors"); ok {
		c.Assignors = arg.Vals
	}
	d.MaybeScanArgs(t, "instance", &c.GroupInstanceID)
	d.MaybeScanArgs(t, "commit", &c.CommitMode)
	d.MaybeScanArgs(t, "reset", &c.AutoOffsetReset)
	d.MaybeScanArgs(t, "poll", &c.PollIntervalMs)
	d.MaybeScanArgs(t, "auto-commit", &c.AutoCommitIntervalMs)
	d.MaybeScanArgs(t, "max-poll-records", &c.MaxPollRecords)
	var session, heartbeat, maxPoll int
	if d.MaybeScanArgs(t, "session", &session) {
		c.SessionTimeoutMs = int32(session)
	}
	if d.MaybeScanArgs(t, "heartbeat", &heartbeat) {
		c.HeartbeatIntervalMs = int32(heartbeat)
	}
	if d.MaybeScanArgs(t, "max-poll", &maxPoll) {
		c.MaxPollIntervalMs = int32(maxPoll)
	}
}

// topicConfig reads a topic's log settings (retention-ms, retention-bytes,
// segment-bytes, cleanup, delete-retention-ms, min-dirty-ratio); nil when
// none is given.
func topicConfig(t *testing.T, d *datadriven.TestData) *kafkalog.Config {
	keys := []string{"retention-ms", "retention-bytes", "segment-bytes", "cleanup", "delete-retention-ms", "min-dirty-ratio"}
	any := false
	for _, k := range keys {
		any = any || d.HasArg(k)
	}
	if !any {
		return nil
	}
	c := cluster.DefaultLogConfig()
	d.MaybeScanArgs(t, "retention-ms", &c.RetentionMs)
	d.MaybeScanArgs(t, "retention-bytes", &c.RetentionBytes)
	d.MaybeScanArgs(t, "segment-bytes", &c.SegmentBytes)
	d.MaybeScanArgs(t, "cleanup", &c.CleanupPolicy)
	d.MaybeScanArgs(t, "delete-retention-ms", &c.DeleteRetentionMs)
	var ratio string
	if d.MaybeScanArgs(t, "min-dirty-ratio", &ratio) {
		if _, err := fmt.Sscan(ratio, &c.MinCleanableDirtyRatio); err != nil {
			d.Fatalf(t, "min-dirty-ratio: %v", err)
		}
	}
	return &c
}

// recordText prints a record as key=value (∅ for a tombstone) or value.
func recordText(r cluster.RecordInfo) string {
	v := r.Value
	if r.Tombstone {
		v = "∅"
	}
	if r.Key == "" {
		return v
	}
	return r.Key + "=" + v
}
