package group

import (
	"maps"
	"slices"
)

// MemoryGroupStore keeps the latest metadata record of each group, as a
// compacted __consumer_offsets topic holds it: a tombstone removes the
// group. It is what [Coordinator.LoadGroup] is fed from when a coordinator
// takes the groups over. The zero value is ready.
type MemoryGroupStore struct {
	groups map[string]GroupRecord
}

// Store keeps rec as its group's latest record.
func (s *MemoryGroupStore) Store(rec GroupRecord) {
	if rec.Tombstone {
		delete(s.groups, rec.Group)
		return
	}
	if s.groups == nil {
		s.groups = map[string]GroupRecord{}
	}
	rec.StoreID = 0
	s.groups[rec.Group] = rec
}

// Records returns every group's latest record, sorted by group id.
func (s *MemoryGroupStore) Records() []GroupRecord {
	out := make([]GroupRecord, 0, len(s.groups))
	for _, id := range slices.Sorted(maps.Keys(s.groups)) {
		out = append(out, s.groups[id])
	}
	return out
}

// Clone returns an independent copy of the store (records are never
// changed in place, so they are shared).
func (s *MemoryGroupStore) Clone() *MemoryGroupStore {
	return &MemoryGroupStore{groups: maps.Clone(s.groups)}
}
