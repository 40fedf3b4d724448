package cluster

import (
	"fmt"
	"slices"
)

// Topic is a topic: its name and each partition's replica assignment, in
// preference order (the first replica is the preferred leader).
type Topic struct {
	Name string
	// Assignment[p] lists partition p's replicas.
	Assignment [][]int32
}

// TopicSpec asks for a topic. Without Assignment, partition p gets
// ReplicationFactor replicas starting at broker (p mod N)+1, as
// kafka-topics --create spreads them (S1: p0 [1,2,3], p1 [2,3,1]...).
type TopicSpec struct {
	Name              string
	Partitions        int
	ReplicationFactor int
	Assignment        [][]int32
}

func (w *World) topic(name string) *Topic {
	for i := range w.topics {
		if w.topics[i].Name == name {
			return &w.topics[i]
		}
	}
	return nil
}

// Topics returns the topics, sorted by name. The caller must not modify it.
func (w *World) Topics() []Topic { return w.topics }

func (w *World) assignment(spec TopicSpec) ([][]int32, error) {
	if spec.Assignment != nil {
		for p, reps := range spec.Assignment {
			if len(reps) == 0 || len(sortedIDs(reps)) != len(reps) {
				return nil, fmt.Errorf("%w: topic %s partition %d: replicas %v", ErrInvalidConfig, spec.Name, p, reps)
			}
			for _, id := range reps {
				if id < 1 || int(id) > len(w.brokers) {
					return nil, fmt.Errorf("%w: topic %s partition %d: no broker %d", ErrInvalidConfig, spec.Name, p, id)
				}
			}
		}
		return spec.Assignment, nil
	}
	n := len(w.brokers)
	rf := spec.ReplicationFactor
	if rf == 0 {
		rf = min(3, n)
	}
	if spec.Partitions < 1 || rf < 1 || rf > n {
		return nil, fmt.Errorf("%w: topic %s: %d partitions, replication factor %d, %d brokers", ErrInvalidConfig, spec.Name, spec.Partitions, rf, n)
	}
	out := make([][]int32, spec.Partitions)
	for p := range out {
		for i := range rf {
			out[p] = append(out[p], int32((p+i)%n+1))
		}
	}
	return out, nil
}

func (w *World) createTopic(spec TopicSpec) error {
	if spec.Name == "" || w.topic(spec.Name) != nil {
		return fmt.Errorf("%w: topic name %q empty or taken", ErrInvalidConfig, spec.Name)
	}
	asg, err := w.assignment(spec)
	if err != nil {
		return err
	}
	t := Topic{Name: spec.Name, Assignment: asg}
	w.topics = append(w.topics, t)
	slices.SortFunc(w.topics, func(a, b Topic) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	for p, reps := range asg {
		tp := partitionKey{Topic: spec.Name, Partition: int32(p)}
		for _, id := range reps {
			if b := w.brokers[id-1]; b.state == BrokerRunning {
				if err := w.openReplica(b, tp, 0, 0, false); err != nil {
					return w.fail(err)
				}
			}
		}
		w.addPartition(tp, reps)
	}
	return nil
}
