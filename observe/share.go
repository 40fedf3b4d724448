package observe

import (
	"slices"
	"unsafe"
)

// share makes s hold the last sample's topics, partitions and groups
// wherever they are equal to its own, so that a timeline of samples of a
// cluster at rest costs little more than one sample, and sets s's size:
// the bytes of what it does not share.
func (p *poller) share(s *Sample) {
	last := p.last
	var size int64 = int64(unsafe.Sizeof(*s)) + int64(len(s.Brokers))*int64(unsafe.Sizeof(Broker{})) +
		int64(len(s.Topics)+len(s.Partitions)+len(s.Groups))*8
	if last == nil {
		last = &Sample{}
	}
	topics := map[string]*Topic{}
	for _, t := range last.Topics {
		topics[t.Name] = t
	}
	for i, t := range s.Topics {
		if o := topics[t.Name]; o != nil && equalTopic(o, t) {
			s.Topics[i] = o
			continue
		}
		size += topicSize(t)
	}
	j := 0
	for i, pt := range s.Partitions {
		for j < len(last.Partitions) && comparePartitions(last.Partitions[j], pt) < 0 {
			j++
		}
		if j < len(last.Partitions) && comparePartitions(last.Partitions[j], pt) == 0 {
			o := last.Partitions[j]
			if equalPartition(o, pt) {
				s.Partitions[i] = o
				continue
			}
			shareIDs(&pt.Replicas, o.Replicas)
			shareIDs(&pt.ISR, o.ISR)
			shareIDs(&pt.Offline, o.Offline)
		}
		size += partitionSize(pt)
	}
	groups := map[string]*Group{}
	for _, g := range last.Groups {
		groups[g.Name] = g
	}
	for i, g := range s.Groups {
		if o := groups[g.Name]; o != nil && equalGroup(o, g) {
			s.Groups[i] = o
			continue
		}
		size += groupSize(g)
	}
	s.size = size
}

// shareIDs points *ids at old when they hold the same ids.
func shareIDs(ids *[]int32, old []int32) {
	if slices.Equal(*ids, old) {
		*ids = old
	}
}

func equalTopic(a, b *Topic) bool {
	return a.Name == b.Name && a.ID == b.ID && a.Internal == b.Internal && slices.EqualFunc(a.Configs, b.Configs, equalConfig) &&
		(a.Configs == nil) == (b.Configs == nil)
}

func equalConfig(a, b TopicConfig) bool {
	return a.Name == b.Name && a.Value == b.Value && a.Source == b.Source && a.Sensitive == b.Sensitive && slices.Equal(a.Synonyms, b.Synonyms)
}

func equalPartition(a, b *Partition) bool {
	return a.Topic == b.Topic && a.Partition == b.Partition && a.Leader == b.Leader && a.LeaderEpoch == b.LeaderEpoch &&
		a.ErrorCode == b.ErrorCode && a.LogStartOffset == b.LogStartOffset && a.HighWatermark == b.HighWatermark &&
		a.LastStableOffset == b.LastStableOffset && slices.Equal(a.Replicas, b.Replicas) && slices.Equal(a.ISR, b.ISR) &&
		slices.Equal(a.Offline, b.Offline) && slices.Equal(a.Logs, b.Logs) && slices.Equal(a.ELR, b.ELR) &&
		slices.Equal(a.LastKnownELR, b.LastKnownELR) && a.ProducersSeq == b.ProducersSeq && slices.Equal(a.Producers, b.Producers)
}

func equalGroup(a, b *Group) bool {
	return a.Name == b.Name && a.Coordinator == b.Coordinator && a.State == b.State && a.ProtocolType == b.ProtocolType &&
		a.Protocol == b.Protocol && slices.Equal(a.Offsets, b.Offsets) &&
		slices.EqualFunc(a.Members, b.Members, func(x, y Member) bool {
			return x.ID == y.ID && x.InstanceID == y.InstanceID && x.ClientID == y.ClientID && x.Host == y.Host && slices.Equal(x.Assignment, y.Assignment)
		})
}

// The sizes of what a sample holds of its own, in bytes (estimates: the
// structs, their slices and strings).

func topicSize(t *Topic) int64 {
	n := int64(unsafe.Sizeof(*t)) + int64(len(t.Name))
	for _, c := range t.Configs {
		n += int64(unsafe.Sizeof(c)) + int64(len(c.Name)+len(c.Value)+len(c.Source))
		for _, s := range c.Synonyms {
			n += int64(unsafe.Sizeof(s)) + int64(len(s.Name)+len(s.Value)+len(s.Source))
		}
	}
	return n
}

func partitionSize(p *Partition) int64 {
	return int64(unsafe.Sizeof(*p)) + int64(4*(len(p.Replicas)+len(p.ISR)+len(p.Offline)+len(p.ELR)+len(p.LastKnownELR))) +
		int64(len(p.Logs))*int64(unsafe.Sizeof(ReplicaLog{})) + int64(len(p.Producers))*int64(unsafe.Sizeof(Producer{}))
}

func groupSize(g *Group) int64 {
	n := int64(unsafe.Sizeof(*g)) + int64(len(g.Name)) + int64(len(g.Offsets))*int64(unsafe.Sizeof(GroupOffset{}))
	for _, m := range g.Members {
		n += int64(unsafe.Sizeof(m)) + int64(len(m.ID)+len(m.ClientID)+len(m.Host)) + int64(len(m.Assignment))*int64(unsafe.Sizeof(TopicPartition{}))
	}
	return n
}
