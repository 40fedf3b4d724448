package observe

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
)

// logDir is what DescribeLogDirs says of one replica log.
type logDir struct {
	size, lag int64
}

// brokerDir is what DescribeLogDirs says of a broker's log dir.
type brokerDir struct {
	dir                     string
	totalBytes, usableBytes int64
	logs                    map[TopicPartition]logDir
}

// logDirs asks every broker for its log dirs (kadm.DescribeAllLogDirs: one
// request a broker).
func (p *poller) logDirs(ctx context.Context, s *Sample, note func(string)) map[int32]brokerDir {
	all, err := p.adm.DescribeAllLogDirs(ctx, nil)
	if err != nil {
		note("DescribeLogDirs: " + err.Error())
	}
	out := map[int32]brokerDir{}
	for id, dirs := range all {
		for _, d := range dirs {
			if d.Err != nil {
				note(fmt.Sprintf("DescribeLogDirs at broker %d: %s: %v", id, d.Dir, d.Err))
				continue
			}
			bd := brokerDir{dir: d.Dir, totalBytes: d.TotalBytes, usableBytes: d.UsableBytes, logs: map[TopicPartition]logDir{}}
			d.Topics.Each(func(lp kadm.DescribedLogDirPartition) {
				if !lp.IsFuture {
					bd.logs[TopicPartition{lp.Topic, lp.Partition}] = logDir{size: lp.Size, lag: lp.OffsetLag}
				}
			})
			out[id] = bd // one log dir a broker here; a broker with several shows its first
		}
	}
	return out
}

// groups lists the groups at every broker, then describes the classic
// ones and fetches their committed offsets, each of their coordinator;
// complete is set when every broker answered the listing.
func (p *poller) groups(ctx context.Context, note func(string)) (_ []*Group, complete bool) {
	listed, listErr := p.adm.ListGroups(ctx)
	if listErr != nil {
		note("ListGroups: " + listErr.Error())
	}
	if len(listed) == 0 {
		return nil, listErr == nil
	}
	names := listed.Groups()
	slices.Sort(names)
	described, err := p.adm.DescribeGroups(ctx, names...)
	if err != nil {
		note("DescribeGroups: " + err.Error())
	}
	offsets := p.adm.FetchManyOffsets(ctx, names...)
	var out []*Group
	for _, name := range names {
		l := listed[name]
		g := &Group{Name: name, Coordinator: l.Coordinator, State: l.State, ProtocolType: l.ProtocolType}
		if d, ok := described[name]; ok && d.Err == nil {
			g.State, g.ProtocolType, g.Protocol = d.State, d.ProtocolType, d.Protocol
			g.Coordinator = d.Coordinator.NodeID
			g.Members = members(d)
		}
		owner := map[TopicPartition]string{}
		for _, m := range g.Members {
			for _, tp := range m.Assignment {
				owner[tp] = m.ID
			}
		}
		if r, ok := offsets[name]; ok && r.Err == nil {
			r.Fetched.Each(func(o kadm.OffsetResponse) {
				if o.Err != nil {
					return
				}
				k := TopicPartition{o.Topic, o.Partition}
				g.Offsets = append(g.Offsets, GroupOffset{Topic: o.Topic, Partition: o.Partition, Committed: o.At,
					LogEndOffset: NotObserved, Lag: NotObserved, Member: owner[k]})
			})
		} else if ok {
			note(fmt.Sprintf("OffsetFetch of group %s: %v", name, r.Err))
		}
		slices.SortFunc(g.Offsets, func(a, b GroupOffset) int {
			if c := strings.Compare(a.Topic, b.Topic); c != 0 {
				return c
			}
			return int(a.Partition - b.Partition)
		})
		out = append(out, g)
	}
	return out, listErr == nil
}

// members are a described group's members, with a consumer's assignment.
func members(d kadm.DescribedGroup) []Member {
	var out []Member
	for _, m := range d.Members {
		mm := Member{ID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost}
		if m.InstanceID != nil {
			mm.InstanceID = *m.InstanceID
		}
		if c, ok := m.Assigned.AsConsumer(); ok {
			for _, t := range c.Topics {
				for _, part := range t.Partitions {
					mm.Assignment = append(mm.Assignment, TopicPartition{t.Topic, part})
				}
			}
		}
		out = append(out, mm)
	}
	slices.SortFunc(out, func(a, b Member) int { return strings.Compare(a.ID, b.ID) })
	return out
}
