package explore

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster"
)

// durableRecord is a record on a broker's disk before a power cut.
type durableRecord struct {
	tp     cluster.PartitionRef
	offset int64
	key    string
	value  string
}

// powerCut cuts a broker's power and checks that only unsynced bytes
// were lost. Within the fault model it waits until the controller has
// fenced the broker.
func (u *userRun) powerCut(a cluster.Action, safe bool) {
	w := u.w
	if safe && !powerCutAllowed(w, a.Broker) {
		u.out.Skipped++
		return
	}
	durable, dirs := u.onDisk(a.Broker)
	at := w.NowMs()
	if !u.do(a, false) {
		return
	}
	mark := cutMark{atMs: at, untilMs: at}
	u.checkCut(a, durable, dirs)
	if safe && !u.out.Failed() {
		// The fencing takes broker.session.timeout.ms, after a controller
		// failover if the broker ran the active controller.
		c := w.Config()
		wait := c.BrokerSessionTimeoutMs + c.ControllerFailoverMs + c.TickMs
		u.do(cluster.Action{Kind: cluster.ActRun, Ms: wait}, false)
		for extra := 0; extra < 10 && !u.fenced(a.Broker) && !u.out.Failed(); extra++ {
			u.do(cluster.Action{Kind: cluster.ActRun, Ms: 1000}, false)
		}
		mark.untilMs = w.NowMs()
		mark.safe = u.fenced(a.Broker)
	}
	u.cuts = append(u.cuts, mark)
}

// fenced reports whether the controller has fenced (or never
// registered) broker id.
func (u *userRun) fenced(id int32) bool {
	for _, b := range u.w.Brokers() {
		if b.ID == id {
			return b.Controller != "unfenced"
		}
	}
	return false
}

// onDisk returns the records on broker id's disk and the partition
// directories of its log dir.
func (u *userRun) onDisk(id int32) ([]durableRecord, []string) {
	var recs []durableRecord
	for _, p := range u.w.State().Partitions {
		for _, l := range p.Logs {
			if l.Broker != id {
				continue
			}
			for _, r := range l.Records {
				if r.Durable {
					recs = append(recs, durableRecord{tp: cluster.PartitionRef{Topic: p.Topic, Partition: p.Partition}, offset: r.Offset, key: r.Key, value: r.Value})
				}
			}
		}
	}
	var dirs []string
	if fsys, err := u.w.BrokerFS(id); err == nil {
		names, _ := fsys.List(cluster.LogDir)
		for _, n := range names {
			if st, err := fsys.Stat(fsys.PathJoin(cluster.LogDir, n)); err == nil && st.IsDir() {
				dirs = append(dirs, n)
			}
		}
	}
	return recs, dirs
}

// checkCut checks that what was on disk before the power cut still is.
func (u *userRun) checkCut(a cluster.Action, durable []durableRecord, dirs []string) {
	after, afterDirs := u.onDiskAll(a.Broker)
	for _, d := range dirs {
		if !slices.Contains(afterDirs, d) {
			u.fail("power-cut-durability", "%s: directory %s/%s existed before the cut and is gone", a, cluster.LogDir, d)
			return
		}
	}
	for _, r := range durable {
		if slices.Contains(u.damagedOn(r.tp), a.Broker) {
			continue // the recovery after the cut may cut the log at the damage
		}
		got, ok := after[recordAt{r.tp, r.offset}]
		if !ok {
			u.fail("power-cut-durability", "%s: %s-%d offset %d (%q) was on disk before the cut and is gone", a, r.tp.Topic, r.tp.Partition, r.offset, short(r.value))
			return
		}
		if got != [2]string{r.key, r.value} {
			u.fail("power-cut-durability", "%s: %s-%d offset %d was %q on disk before the cut, %q after", a, r.tp.Topic, r.tp.Partition, r.offset, short(r.value), short(got[1]))
			return
		}
	}
}

type recordAt struct {
	tp     cluster.PartitionRef
	offset int64
}

// onDiskAll returns every record broker id's logs hold (read from disk
// when it is down) and its partition directories.
func (u *userRun) onDiskAll(id int32) (map[recordAt][2]string, []string) {
	out := map[recordAt][2]string{}
	for _, p := range u.w.State().Partitions {
		for _, l := range p.Logs {
			if l.Broker != id {
				continue
			}
			for _, r := range l.Records {
				out[recordAt{cluster.PartitionRef{Topic: p.Topic, Partition: p.Partition}, r.Offset}] = [2]string{r.Key, r.Value}
			}
		}
	}
	_, dirs := u.onDisk(id)
	return out, dirs
}

// short abbreviates a long value for a message.
func short(v string) string {
	if len(v) > 24 {
		return fmt.Sprintf("%s...(%d bytes)", v[:16], len(v))
	}
	return v
}
