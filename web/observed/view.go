package observed

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
)

// ReadOnly is what the page says of why nothing on it acts.
const ReadOnly = "This page observes a real Kafka cluster from outside and only looks: nothing on it acts on the cluster. " +
	"The buttons that stop brokers or add consumers, the scenarios, pause, speed and reset are gone, and the terminal runs Kafka's read-only tools only " +
	"(a command that would change the cluster is refused and never sent)."

// MaxMarks bounds the timeline's marks an update carries (the newest).
const MaxMarks = 200

// moment is the sample a view shows and the timeline it is of.
type moment struct {
	t      *observe.Timeline
	shown  *observe.Sample
	latest *observe.Sample
}

// ms is a wall-clock time on the timeline: milliseconds since the first
// sample.
func (m moment) ms(at time.Time) int64 { return at.Sub(m.t.Origin()).Milliseconds() }

// momentAt is the sample at timeline time at (nil: the newest), false
// before the first poll.
func momentAt(t *observe.Timeline, at *int64) (moment, bool) {
	latest := t.Latest()
	if latest == nil {
		return moment{}, false
	}
	m := moment{t: t, shown: latest, latest: latest}
	if at != nil {
		// the whole millisecond: a sample's moment is its time truncated
		// to the millisecond (ms), which must show that sample
		if s := t.At(t.Origin().Add(time.Duration(*at+1)*time.Millisecond - 1)); s != nil {
			m.shown = s
		} else {
			m.shown = t.Samples()[0]
		}
	}
	return m, true
}

// buildView is the update of the page of an observed cluster at the
// moment m, showing f: the same View the simulated page draws, each
// figure copied from the sample, what the sample was not told marked
// web.NotObserved (records, segments, the page cache, traffic, a
// follower's high watermark).
func buildView(m moment, f web.Focus) web.View {
	s := m.shown
	v := web.View{TimeMs: m.ms(s.At), NowMs: m.ms(m.latest.At), StartMs: m.ms(m.t.Samples()[0].At), Past: s != m.latest,
		Mode: web.ModeObserved, Paused: false, Speed: 1, Rules: "observed", Controller: s.ControllerID,
		Producers: []web.ProducerView{}, Groups: []web.GroupView{}, Events: []string{}}
	v.Brokers = brokerViews(s)
	rows := tableRows(s)
	v.Partitions, v.Table = web.TableOf(rows, f.Table)
	v.Detail = detail(s, rows, f)
	v.Groups = groupViews(m, rows)
	v.Events, v.Marks = events(m)
	v.Observed = observedView(m, v.Detail)
	return v
}

// brokerViews are the brokers' cards: state and listener, the bytes of
// their replicas and their volume; the page cache and traffic are not
// observed.
func brokerViews(s *observe.Sample) []web.BrokerView {
	disk := map[int32]int64{}
	for _, p := range s.Partitions {
		for _, l := range p.Logs {
			if l.Size >= 0 {
				disk[l.Broker] += l.Size
			}
		}
	}
	out := make([]web.BrokerView, 0, len(s.Brokers))
	for _, b := range s.Brokers {
		ctl := "unfenced"
		switch b.State {
		case observe.BrokerFenced:
			ctl = "fenced"
		case observe.BrokerDown:
			ctl = "unregistered"
		}
		d, ok := disk[b.ID]
		if !ok || b.LogDir == "" {
			d = web.NotObserved
		}
		bv := web.BrokerView{ID: b.ID, State: string(b.State), Controller: ctl, DiskBytes: d, CacheBytes: web.NotObserved,
			InPerSec: web.NotObserved, OutPerSec: web.NotObserved, FetchReads: web.NotObserved, FetchScanned: web.NotObserved,
			FetchScannedBytes: web.NotObserved, LastFetch: web.NotObserved, LastFirstBatch: web.NotObserved,
			Rack: b.Rack, LogDir: b.LogDir, FreeBytes: b.UsableBytes}
		if b.TotalBytes > 0 {
			bv.DiskCap = b.TotalBytes
		}
		if b.Host != "" {
			bv.Listener = b.Host + ":" + strconv.Itoa(int(b.Port))
		}
		out = append(out, bv)
	}
	return out
}

// tableRows are every partition's row: the metadata's leader, epoch,
// replicas, ISR and ELR, the leader's offsets, and the lag of the slowest
// replica whose log end was observed.
func tableRows(s *observe.Sample) []web.TableRow {
	live := map[int32]bool{}
	for _, b := range s.Brokers {
		live[b.ID] = b.State == observe.BrokerUp || b.State == observe.BrokerUnreachable
	}
	minISR := map[string]int{}
	for _, t := range s.Topics {
		minISR[t.Name] = 1
		for _, c := range t.Configs {
			if n, err := strconv.Atoi(c.Value); c.Name == "min.insync.replicas" && err == nil {
				minISR[t.Name] = n
			}
		}
	}
	rows := make([]web.TableRow, 0, len(s.Partitions))
	for _, p := range s.Partitions {
		rows = append(rows, web.TableRow{PartRow: partRow(p), MinISR: minISR[p.Topic], LeaderLive: live[p.Leader]})
	}
	return rows
}

// partRow is one partition's row.
func partRow(p *observe.Partition) web.PartRow {
	r := web.PartRow{Topic: p.Topic, Partition: p.Partition, Leader: p.Leader, Epoch: p.LeaderEpoch,
		Replicas: p.Replicas, ISR: p.ISR, ELR: p.ELR, LastKnownELR: p.LastKnownELR,
		LogStart: p.LogStartOffset, HW: p.HighWatermark, LEO: leaderLEO(p)}
	if p.LastStableOffset >= 0 {
		lso := p.LastStableOffset
		r.Stable = &lso
	}
	if r.LEO >= 0 {
		for _, l := range p.Logs {
			if l.LogEndOffset >= 0 {
				r.Lag = max(r.Lag, r.LEO-l.LogEndOffset)
			}
		}
	}
	return r
}

// leaderLEO is the log end offset of p's leader's own replica
// (web.NotObserved without a leader, or when its broker did not answer).
func leaderLEO(p *observe.Partition) int64 {
	for _, l := range p.Logs {
		if l.Broker == p.Leader {
			return l.LogEndOffset
		}
	}
	return web.NotObserved
}

// detail is the partition f names (the first, when the sample has no
// such partition): each replica's log as far as it was observed, its
// offsets and size, never its records.
func detail(s *observe.Sample, rows []web.TableRow, f web.Focus) *web.DetailView {
	i := slices.IndexFunc(s.Partitions, func(p *observe.Partition) bool { return p.Topic == f.Topic && p.Partition == f.Partition })
	if i < 0 {
		if len(s.Partitions) == 0 {
			return nil
		}
		i = 0
	}
	p := s.Partitions[i]
	d := &web.DetailView{PartRow: rows[i].PartRow, Logs: []web.LogView{}}
	down := map[int32]bool{}
	for _, b := range s.Brokers {
		down[b.ID] = b.State == observe.BrokerDown || b.State == observe.BrokerFenced
	}
	for _, l := range p.Logs {
		lv := web.LogView{Broker: l.Broker, Role: "follower", InISR: slices.Contains(p.ISR, l.Broker), LEO: l.LogEndOffset,
			HW: web.NotObserved, First: web.NotObserved, Count: 0, Records: []web.RecordView{}}
		switch {
		case down[l.Broker]:
			lv.Role = "down"
		case l.Broker == p.Leader:
			lv.Role, lv.HW, lv.First = "leader", p.HighWatermark, p.LogStartOffset
		}
		size := l.Size
		lv.Bytes = &size
		d.Logs = append(d.Logs, lv)
	}
	return d
}

// groupViews are the groups, their lists cut as the live page cuts them,
// each with its lag over the samples up to the one shown.
func groupViews(m moment, rows []web.TableRow) []web.GroupView {
	starts := make(map[cluster.PartitionRef]int64, len(rows))
	for _, r := range rows {
		starts[cluster.PartitionRef{Topic: r.Topic, Partition: r.Partition}] = r.LogStart
	}
	logStart := func(topic string, partition int32) (int64, bool) {
		ls, ok := starts[cluster.PartitionRef{Topic: topic, Partition: partition}]
		return ls, ok && ls >= 0
	}
	window := lagWindow(m)
	out := make([]web.GroupView, 0, len(m.shown.Groups))
	for _, g := range m.shown.Groups {
		gv := web.GroupViewOf(groupInfo(g), logStart)
		gv.Generation = web.NotObserved // DescribeGroups tells no generation
		gv.LagTimes = make([]int64, len(window))
		gv.Lags = make([]int64, len(window))
		for i, s := range window {
			gv.LagTimes[i], gv.Lags[i] = m.ms(s.At), s.Lag(g.Name, "", -1)
		}
		for oi := range gv.Offsets {
			o := &gv.Offsets[oi]
			o.Lags = make([]int64, len(window))
			for i, s := range window {
				o.Lags[i] = s.Lag(g.Name, o.Topic, o.Partition)
			}
		}
		out = append(out, gv)
	}
	return out
}

// lagWindow are the samples a lag over time is drawn from: the newest
// web.MaxLagPoints up to the one shown.
func lagWindow(m moment) []*observe.Sample {
	all := m.t.Samples()
	end := int(m.shown.Seq-all[0].Seq) + 1
	return all[max(0, end-web.MaxLagPoints):end]
}

// groupInfo is g in the shape the live page's groups have.
func groupInfo(g *observe.Group) cluster.GroupInfo {
	gi := cluster.GroupInfo{Name: g.Name, State: g.State, Protocol: g.ProtocolType, Assignor: g.Protocol, Coordinator: g.Coordinator}
	for _, mb := range g.Members {
		mi := cluster.MemberInfo{ID: mb.ID, ClientID: mb.ClientID, InstanceID: mb.InstanceID, Host: mb.Host}
		for _, tp := range mb.Assignment {
			mi.Partitions = append(mi.Partitions, cluster.PartitionRef{Topic: tp.Topic, Partition: tp.Partition})
		}
		gi.Members = append(gi.Members, mi)
	}
	for _, o := range g.Offsets {
		gi.Offsets = append(gi.Offsets, cluster.OffsetInfo{Topic: o.Topic, Partition: o.Partition, Committed: o.Committed,
			LogEndOffset: o.LogEndOffset, Lag: o.Lag, Member: o.Member})
	}
	return gi
}

// events are the newest web.EventWindow events up to the sample shown,
// oldest first, and the timeline's marks: every event kept up to the
// newest sample but the first poll's, at most MaxMarks.
func events(m moment) ([]string, []web.Mark) {
	evs := m.t.Events()
	end := len(evs)
	for end > 0 && evs[end-1].Seq > m.shown.Seq {
		end--
	}
	lines := []string{}
	for _, e := range evs[max(0, end-web.EventWindow):end] {
		lines = append(lines, fmt.Sprintf("%s %s", e.At.Format("15:04:05"), e.Text))
	}
	var marks []web.Mark
	for _, e := range evs {
		if e.Kind != observe.EventStart {
			marks = append(marks, web.Mark{TimeMs: m.ms(e.At), Text: e.Text})
		}
	}
	if len(marks) > MaxMarks {
		marks = marks[len(marks)-MaxMarks:]
	}
	return lines, marks
}

// observedView is what the page says besides its panels, with the
// configs and producers of the partition in detail.
func observedView(m moment, d *web.DetailView) *web.ObservedView {
	s := m.shown
	o := &web.ObservedView{ClusterID: s.ClusterID, Seq: s.Seq, First: m.t.Samples()[0].Seq, Last: m.latest.Seq, AtMs: s.At.UnixMilli(),
		Requests: s.Requests, TookMs: float64(s.Took.Microseconds()) / 1000, Unanswered: s.Unanswered,
		NotObservable: observe.Unobservable, ReadOnly: ReadOnly, ELRObserved: s.ELRListed}
	if q := s.Quorum; q != nil {
		o.Quorum = &web.QuorumView{LeaderID: q.LeaderID, LeaderEpoch: q.LeaderEpoch, HighWatermark: q.HighWatermark,
			Voters: quorumMembers(q.Voters), Observers: quorumMembers(q.Observers)}
	}
	if d == nil {
		return o
	}
	if i, ok := slices.BinarySearchFunc(s.Topics, d.Topic, func(t *observe.Topic, name string) int { return cmp.Compare(t.Name, name) }); ok {
		for _, c := range s.Topics[i].Configs {
			if c.Source != "DEFAULT_CONFIG" {
				o.Configs = append(o.Configs, web.ConfigView{Name: c.Name, Value: c.Value, Source: c.Source})
			}
		}
	}
	if p := s.Partition(d.Topic, d.Partition); p != nil && p.ProducersSeq != 0 {
		o.ProducersSeq = p.ProducersSeq
		for _, pr := range p.Producers {
			o.Producers = append(o.Producers, web.ActiveProducerView{ProducerID: pr.ID, ProducerEpoch: pr.Epoch, LastSequence: pr.LastSequence,
				LastTimestamp: pr.LastTimestamp, CoordinatorEpoch: pr.CoordinatorEpoch, CurrentTxnStartOffset: pr.CurrentTxnStartOffset})
		}
	}
	return o
}

// quorumMembers are rs as the page shows them.
func quorumMembers(rs []observe.QuorumReplica) []web.QuorumMemberView {
	out := make([]web.QuorumMemberView, 0, len(rs))
	for _, r := range rs {
		out = append(out, web.QuorumMemberView{ID: r.ID, LogEndOffset: r.LogEndOffset})
	}
	return out
}
