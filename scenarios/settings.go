package scenarios

import (
	"fmt"
	"strconv"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// consumerArgs reads an add-consumer line. A simple consumer reads one
// partition ("name=c topic=kip101 partition=0"); a group consumer names its
// group.id and the Kafka settings that differ from the defaults:
//
//	name=E1 group=eager-g topics=orders[,more] assignors=sticky[,...]
//	protocol=classic|consumer remote-assignor=uniform|range
//	instance=w1 commit=auto|sync|off reset=latest|earliest|none poll=MS
//	auto-commit=MS max-poll-records=N session=MS heartbeat=MS max-poll=MS
//
// Either kind may read committed records only: isolation=read_committed.
func consumerArgs(a args, c *cluster.ConsumerConfig) error {
	c.Name, c.Topic, c.Group = a.named["name"], a.named["topic"], a.named["group"]
	c.IsolationLevel = a.named["isolation"]
	p := 0
	if err := a.int("partition", &p); err != nil {
		return err
	}
	c.Partition = int32(p)
	if t, ok := a.named["topics"]; ok {
		c.Topics = splitList(t)
	}
	if as, ok := a.named["assignors"]; ok {
		c.Assignors = splitList(as)
	}
	c.GroupInstanceID, c.CommitMode, c.AutoOffsetReset = a.named["instance"], a.named["commit"], a.named["reset"]
	c.GroupProtocol, c.RemoteAssignor = a.named["protocol"], a.named["remote-assignor"]
	if c.Group == "" && (c.Topics != nil || c.Assignors != nil || c.GroupInstanceID != "" || c.CommitMode != "" || c.AutoOffsetReset != "" ||
		c.GroupProtocol != "" || c.RemoteAssignor != "") {
		return fmt.Errorf("%w: consumer %q has group settings but no group=", ErrSyntax, c.Name)
	}
	if err := a.int64("poll", &c.PollIntervalMs); err != nil {
		return err
	}
	if err := a.int64("auto-commit", &c.AutoCommitIntervalMs); err != nil {
		return err
	}
	if err := a.int("max-poll-records", &c.MaxPollRecords); err != nil {
		return err
	}
	if err := a.int32("session", &c.SessionTimeoutMs); err != nil {
		return err
	}
	if err := a.int32("heartbeat", &c.HeartbeatIntervalMs); err != nil {
		return err
	}
	return a.int32("max-poll", &c.MaxPollIntervalMs)
}

// topicConfig reads a topic's log settings (retention-ms, retention-bytes,
// segment-bytes, cleanup, delete-retention-ms, min-dirty-ratio) over
// [cluster.DefaultLogConfig]; nil when none is written.
func topicConfig(a args) (*kafkalog.Config, error) {
	c := cluster.DefaultLogConfig()
	set := false
	for _, k := range a.order {
		var err error
		switch k {
		case "retention-ms":
			err = a.int64(k, &c.RetentionMs)
		case "retention-bytes":
			err = a.int64(k, &c.RetentionBytes)
		case "segment-bytes":
			err = a.int64(k, &c.SegmentBytes)
		case "index-interval-bytes":
			err = a.int64(k, &c.IndexIntervalBytes)
		case "delete-retention-ms":
			err = a.int64(k, &c.DeleteRetentionMs)
		case "cleanup":
			c.CleanupPolicy = a.named[k]
		case "min-dirty-ratio":
			c.MinCleanableDirtyRatio, err = strconv.ParseFloat(a.named[k], 64)
			if err != nil {
				err = fmt.Errorf("%w: min-dirty-ratio=%q is not a number", ErrSyntax, a.named[k])
			}
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		set = true
	}
	if !set {
		return nil, nil
	}
	return &c, nil
}

// produceMany expands "produce-many p count=10 [partition=0] [prefix=a]
// [key=k]" into count produce actions with the values a0..a9.
func produceMany(s string) ([]cluster.Action, error) {
	a := parseArgs(s)
	if len(a.words) != 2 {
		return nil, fmt.Errorf("%w: produce-many wants a producer name, got %q", ErrSyntax, a.words[1:])
	}
	n := 0
	if err := a.int("count", &n); err != nil {
		return nil, err
	}
	if n < 1 || n > 10000 {
		return nil, fmt.Errorf("%w: produce-many count=%d not in 1..10000", ErrSyntax, n)
	}
	p := -1
	if err := a.int("partition", &p); err != nil {
		return nil, err
	}
	out := make([]cluster.Action, n)
	for i := range out {
		out[i] = cluster.Action{Kind: cluster.ActProduce, Name: a.words[1], Key: a.named["key"],
			Value: a.named["prefix"] + strconv.Itoa(i), Partition: int32(p)}
	}
	return out, nil
}
