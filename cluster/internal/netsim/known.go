package netsim

import (
	"maps"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// Known is what a broker's heartbeat says its replicas know: each
// partition's leader epoch and partition epoch (Envelope.Known). It is
// never changed once made: a broker makes a new one when one of its
// replicas' epochs changes ([Known.With]) and otherwise sends the same one
// again, so that the broker, its heartbeats in flight, the controller that
// remembers the last one it found nothing stale in, and their clones share
// it, and a heartbeat of an idle broker costs nothing per partition.
type Known struct {
	epochs map[kafkalog.TopicPartition][2]int32
}

// Epochs returns partition k's leader epoch and partition epoch as the
// broker's replica knows them, false if it has no replica of k (or k is
// nil, a heartbeat that says nothing).
func (k *Known) Epochs(tp kafkalog.TopicPartition) (epochs [2]int32, ok bool) {
	if k == nil {
		return [2]int32{}, false
	}
	epochs, ok = k.epochs[tp]
	return epochs, ok
}

// Len is the number of partitions k lists.
func (k *Known) Len() int {
	if k == nil {
		return 0
	}
	return len(k.epochs)
}

// KnownChange is one partition's entry in a new [Known]: its epochs, or
// Gone (the broker no longer has a replica of it).
type KnownChange struct {
	TP     kafkalog.TopicPartition
	Epochs [2]int32
	Gone   bool
}

// With returns k with the changes applied, k itself when none of them
// changes anything (k may be nil: an empty Known). k is not changed.
func (k *Known) With(changes []KnownChange) *Known {
	var m map[kafkalog.TopicPartition][2]int32
	for _, ch := range changes {
		was, ok := k.Epochs(ch.TP)
		if ch.Gone && !ok || !ch.Gone && ok && was == ch.Epochs {
			continue
		}
		if m == nil {
			m = make(map[kafkalog.TopicPartition][2]int32, k.Len()+1)
			if k != nil {
				maps.Copy(m, k.epochs)
			}
		}
		if ch.Gone {
			delete(m, ch.TP)
		} else {
			m[ch.TP] = ch.Epochs
		}
	}
	if m == nil {
		if k == nil {
			return &Known{}
		}
		return k
	}
	return &Known{epochs: m}
}
