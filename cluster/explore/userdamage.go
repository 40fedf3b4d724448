package explore

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// wipeAndStart wipes what broker id's failed start names and starts it
// again, until it runs (as many times as it has partitions and checkpoint
// files, at most), and reports whether it runs. A wiped partition counts as
// damaged on id.
func (u *userRun) wipeAndStart(id int32) bool {
	var names []string
	if fsys, err := u.w.BrokerFS(id); err == nil {
		names, _ = fsys.List(cluster.LogDir)
	}
	for range len(names) + 1 {
		if u.state(id) != cluster.BrokerFailed {
			break
		}
		p := u.w.StartFailurePath(id)
		if !u.do(cluster.Action{Kind: cluster.ActWipe, Broker: id, Name: p}, false) {
			return false
		}
		if tp, ok := kafkalog.ParseTopicPartitionDir(p); ok {
			u.damage = append(u.damage, damageMark{action: u.w.ActionCount() - 1, broker: id, tp: cluster.PartitionRef{Topic: tp.Topic, Partition: tp.Partition}})
		}
		if !u.do(cluster.Action{Kind: cluster.ActStart, Broker: id}, false) {
			return false
		}
	}
	return u.state(id) == cluster.BrokerRunning
}

// state is broker id's state.
func (u *userRun) state(id int32) cluster.BrokerState {
	s, _ := u.w.BrokerState(id)
	return s
}

// corrupt plays a UserCorrupt operation.
func (u *userRun) corrupt(o UserOp) {
	w := u.w
	a := o.Action
	var id int32 // the broker damaged
	for _, x := range brokerIDs(w) {
		if (u.state(x) == cluster.BrokerRunning) != o.Bad {
			continue
		}
		if id == 0 || x == a.Broker {
			id = x
		}
	}
	fsys, err := w.BrokerFS(id)
	if id == 0 || err != nil {
		u.out.Skipped++
		return
	}
	type file struct {
		name    string
		tp      cluster.PartitionRef
		durable int64
	}
	var files, checkpoints []file
	durable := func(name string) int64 {
		n, _ := w.DurableFileSize(id, name)
		return n
	}
	for _, n := range []string{kafkalog.RecoveryPointCheckpointFile, kafkalog.ReplicationOffsetCheckpointFile, kafkalog.LogStartOffsetCheckpointFile} {
		if d := durable(n); d > 0 {
			checkpoints = append(checkpoints, file{name: n, durable: d})
		}
	}
	dirs, _ := fsys.List(cluster.LogDir)
	for _, d := range dirs {
		k := strings.LastIndexByte(d, '-')
		part, err := strconv.Atoi(d[k+1:])
		if k <= 0 || err != nil {
			continue
		}
		tp := cluster.PartitionRef{Topic: d[:k], Partition: int32(part)}
		names, _ := fsys.List(cluster.LogDir + "/" + d)
		for _, n := range names {
			size := durable(d + "/" + n)
			switch {
			case size == 0:
			case n == kafkalog.LeaderEpochCheckpointFile:
				checkpoints = append(checkpoints, file{name: d + "/" + n, tp: tp, durable: size})
			case strings.HasSuffix(n, ".log") || strings.HasSuffix(n, ".index") || strings.HasSuffix(n, ".timeindex"):
				files = append(files, file{name: d + "/" + n, tp: tp, durable: size})
			}
		}
	}
	// One pick in seven is among the checkpoint files, two in three of
	// the others among the .log files (the records).
	if len(checkpoints) > 0 && (o.Size%7 == 0 || len(files) == 0) {
		files = checkpoints
	} else if logs := slices.DeleteFunc(slices.Clone(files), func(f file) bool { return !strings.HasSuffix(f.name, ".log") }); len(logs) > 0 && o.Size%3 != 0 {
		files = logs
	}
	if len(files) == 0 {
		u.out.Skipped++
		return
	}
	f := files[o.Size%len(files)]
	a.Broker, a.Name = id, f.name
	span := int64(1)
	if !a.Flip {
		a.N = int(min(int64(a.N), f.durable))
		span = int64(a.N)
	}
	a.Offset = int64(o.Size/len(files)) % (f.durable - span + 1)
	if u.do(a, o.Bad) && !o.Bad && f.tp.Topic != "" {
		// A checkpoint at the root of the log dir damages no partition's
		// records: it fails the start (then the settle wipes it) or is
		// reset.
		u.damage = append(u.damage, damageMark{action: w.ActionCount() - 1, broker: id, tp: f.tp})
	}
}
