package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// parseAction reads one "do" line, in the commands of cluster's own
// datadriven scripts:
//
//	create-topic name=kip101 replicas=1,2       or partitions=3 rf=3
//	add-producer name=p topic=kip101 acks=all keys=alice,bob linger-ms=50 batch-size=16384 (linger-ms=0: none, whatever the rules' default)
//	             transactional-id=tx1
//	add-consumer name=c topic=kip101 partition=0
//	add-consumer name=E1 group=eager-g topics=orders assignors=sticky ...
//	produce p value=m1 key=alice partition=0    or key=k2 null (a tombstone)
//	        [timestamp-ms=1714521600000]         the record's CreateTime, set by the application
//	poll c
//	add-copier name=cp from=orders-0 topic=audit group=g transactional-id=cp-tx [max-poll-records=N] [poll-ms=MS]
//	commit-transaction t | abort-transaction t     a transactional producer ends its transaction
//	close-consumer E1 | crash-consumer E1 | restart-consumer E1
//	stall-consumer E1 ms=400000
//	add-partitions name=users count=4
//	delete-topic name=audit                      kafka-topics --delete
//	kill 1 | stop 1 | start 1 | writeback 1 | power-cut 1 [torn]
//	corrupt 1 file=notes-0/00000000000000000000.log offset=86 flip   or zero=4 (bytes read back as zeros)
//	wipe 1 path=notes-0                          rm -rf of a down broker's partition directory or file
//	partition a=1 b=2,0 | heal
//	run ms=600
//	deliver [n=1] [from=1] [to=2,3]
//	drop from=1 to=2
func parseAction(s string) (cluster.Action, error) {
	a := parseArgs(s)
	if len(a.words) == 0 {
		return cluster.Action{}, fmt.Errorf("%w: empty action", ErrSyntax)
	}
	act := cluster.Action{Kind: cluster.ActionKind(a.words[0]), Partition: -1}
	a.words = a.words[1:]
	var err error
	switch act.Kind {
	case cluster.ActCreateTopic:
		err = topicArgs(a, &act)
	case cluster.ActAddProducer:
		err = producerArgs(a, &act)
	case cluster.ActAddCopier:
		err = copierArgs(a, &act)
	case cluster.ActAddConsumer:
		err = consumerArgs(a, &act.Consumer)
	case cluster.ActProduce:
		err = produceArgs(a, &act)
	case cluster.ActPoll, cluster.ActCloseConsumer, cluster.ActCrashConsumer, cluster.ActRestartConsumer,
		cluster.ActCommitTransaction, cluster.ActAbortTransaction:
		act.Name, err = oneWord(a)
	case cluster.ActStallConsumer:
		if act.Name, err = oneWord(a); err == nil {
			err = a.int64("ms", &act.Ms)
		}
	case cluster.ActAddPartitions:
		act.Name = a.named["name"]
		err = a.int("count", &act.N)
	case cluster.ActDeleteTopic:
		act.Name = a.named["name"]
	case cluster.ActStop, cluster.ActKill, cluster.ActStart, cluster.ActWriteback, cluster.ActPowerCut:
		err = brokerArgs(a, &act)
	case cluster.ActCorrupt:
		err = corruptArgs(a, &act)
	case cluster.ActWipe:
		if err = brokerArgs(a, &act); err == nil {
			act.Torn, act.Name = false, a.named["path"]
			if act.Name == "" || len(a.words) != 1 {
				err = fmt.Errorf("%w: wipe wants a broker and path=", ErrSyntax)
			}
		}
	case cluster.ActPartition:
		if act.A, err = ids(a.named["a"]); err == nil {
			act.B, err = ids(a.named["b"])
		}
	case cluster.ActHeal:
	case cluster.ActRun:
		err = a.int64("ms", &act.Ms)
		if err == nil && len(a.words) == 1 {
			act.Ms, err = strconv.ParseInt(a.words[0], 10, 64)
		}
	case cluster.ActDeliver, cluster.ActDrop:
		err = deliverArgs(a, &act)
	default:
		err = fmt.Errorf("%w: unknown action %q", ErrSyntax, act.Kind)
	}
	return act, err
}

func topicArgs(a args, act *cluster.Action) error {
	act.Topic.Name = a.named["name"]
	cfg, err := topicConfig(a)
	if err != nil {
		return err
	}
	act.Topic.Config = cfg
	if err := a.int("partitions", &act.Topic.Partitions); err != nil {
		return err
	}
	if err := a.int("rf", &act.Topic.ReplicationFactor); err != nil {
		return err
	}
	if r, ok := a.named["replicas"]; ok {
		reps, err := ids(r)
		if err != nil {
			return err
		}
		act.Topic.Assignment = [][]int32{reps}
	}
	return nil
}

func producerArgs(a args, act *cluster.Action) error {
	act.Producer.Name, act.Producer.Topic, act.Producer.Acks = a.named["name"], a.named["topic"], a.named["acks"]
	act.Producer.TransactionalID = a.named["transactional-id"]
	if k, ok := a.named["keys"]; ok {
		act.Producer.Keys = splitList(k)
	}
	if err := a.int64("linger-ms", &act.Producer.LingerMs); err != nil {
		return err
	}
	if _, set := a.named["linger-ms"]; set && act.Producer.LingerMs == 0 {
		act.Producer.LingerMs = cluster.NoLinger // linger.ms=0 said, not the rule set's default
	}
	if err := a.int("batch-size", &act.Producer.BatchSize); err != nil {
		return err
	}
	return a.int("rate", &act.Producer.RecordsPerSec)
}

// copierArgs reads an add-copier line: the producer's name, topic (its
// output) and transactional-id, and its input partition (from=orders-0),
// group, max-poll-records and poll-ms.
func copierArgs(a args, act *cluster.Action) error {
	p := &act.Producer
	p.Name, p.Topic, p.TransactionalID = a.named["name"], a.named["topic"], a.named["transactional-id"]
	from := a.named["from"]
	dash := strings.LastIndexByte(from, '-')
	part, err := strconv.ParseInt(from[dash+1:], 10, 32)
	if dash < 0 || err != nil {
		return fmt.Errorf("%w: add-copier wants from=TOPIC-PARTITION, got %q", ErrSyntax, from)
	}
	p.Copy = cluster.CopySource{Topic: from[:dash], Partition: int32(part), Group: a.named["group"]}
	if err := a.int("max-poll-records", &p.Copy.MaxRecords); err != nil {
		return err
	}
	return a.int64("poll-ms", &p.Copy.PollIntervalMs)
}

func produceArgs(a args, act *cluster.Action) error {
	if len(a.words) == 0 {
		return fmt.Errorf("%w: produce needs a producer name", ErrSyntax)
	}
	name := a.words[0]
	act.Name, act.Key, act.Value = name, a.named["key"], a.named["value"]
	if len(a.words) == 2 && a.words[1] == "null" {
		act.Null = true
	} else if len(a.words) != 1 {
		return fmt.Errorf("%w: produce wants a producer name and optionally null, got %q", ErrSyntax, a.words)
	}
	p := -1
	err := a.int("partition", &p)
	act.Partition = int32(p)
	if v, ok := a.named["timestamp-ms"]; ok && err == nil {
		ts, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil {
			return fmt.Errorf("%w: timestamp-ms=%q is not a number of milliseconds", ErrSyntax, v)
		}
		act.TimestampMs = &ts
	}
	return err
}

func brokerArgs(a args, act *cluster.Action) error {
	if len(a.words) == 0 {
		return fmt.Errorf("%w: %s needs a broker id", ErrSyntax, act.Kind)
	}
	n, err := strconv.ParseInt(a.words[0], 10, 32)
	if err != nil {
		return fmt.Errorf("%w: %s: broker id %q", ErrSyntax, act.Kind, a.words[0])
	}
	act.Broker = int32(n)
	act.Torn = len(a.words) > 1 && a.words[1] == "torn"
	return nil
}

// corruptArgs reads "corrupt 1 file=F offset=N flip" or "... zero=N".
func corruptArgs(a args, act *cluster.Action) error {
	if err := brokerArgs(a, act); err != nil {
		return err
	}
	act.Torn = false
	act.Name = a.named["file"]
	if err := a.int64("offset", &act.Offset); err != nil {
		return err
	}
	if err := a.int("zero", &act.N); err != nil {
		return err
	}
	act.Flip = len(a.words) == 2 && a.words[1] == "flip"
	if act.Name == "" || act.Flip == (act.N > 0) || len(a.words) > 2 || len(a.words) == 2 && !act.Flip {
		return fmt.Errorf("%w: corrupt wants a broker, file=, offset= and flip or zero=N", ErrSyntax)
	}
	return nil
}

func deliverArgs(a args, act *cluster.Action) error {
	if err := a.int("n", &act.N); err != nil {
		return err
	}
	var err error
	if act.A, err = ids(a.named["from"]); err != nil {
		return err
	}
	act.B, err = ids(a.named["to"])
	return err
}

func oneWord(a args) (string, error) {
	if len(a.words) != 1 {
		return "", fmt.Errorf("%w: want one name, got %q", ErrSyntax, a.words)
	}
	return a.words[0], nil
}
