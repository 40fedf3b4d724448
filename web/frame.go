package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Frame is one message of the update stream (see "The update stream" in
// the package documentation): a whole update (Full) on the first message
// of a stream, or a patch that turns the update of frame Base, the one
// before, into this one.
type Frame struct {
	// Seq numbers the frames of a stream from 1.
	Seq uint64 `json:"seq"`
	// Full is a whole Update, as /api/view answers it.
	Full json.RawMessage `json:"full,omitempty"`
	// Base is the frame a patch applies to (Seq − 1).
	Base uint64 `json:"base,omitempty"`
	// Set are the Update's fields, but the four lists, that are new or
	// changed, with their new values; Del those that are gone.
	Set map[string]json.RawMessage `json:"set,omitempty"`
	Del []string                   `json:"del,omitempty"`
	// Lists patch the Update's four lists of entities (Lists), by name.
	Lists map[string]ListPatch `json:"lists,omitempty"`
}

// ListPatch patches one list of entities: Put are the entities new or
// changed since the frame before (a new version), keyed by id; IDs, when
// the list's ids or their order changed, are the list's ids in order (an
// entity of the list before not named is gone).
type ListPatch struct {
	Put map[string]json.RawMessage `json:"put,omitempty"`
	IDs []string                   `json:"ids,omitzero"`
}

// Lists are the lists of an Update whose entities have an id and a
// version: the brokers (by id), the partition table's rows (by topic and
// partition, "orders-0"), the producers and the groups (by name).
var Lists = []string{listBrokers, listParts, listProducers, listGroups}

const (
	listBrokers   = "brokers"
	listParts     = "parts"
	listProducers = "producers"
	listGroups    = "groups"
)

// entity is one entity of an encoded list: its id, version and JSON.
type entity struct {
	id  string
	v   uint64
	raw json.RawMessage
}

// EncodedUpdate is an Update encoded once for every stream that shows the
// same focus at the same version ([Versions.Encode]): its fields but the
// lists, each encoded, the entities of its lists, and the whole (Bytes).
type EncodedUpdate struct {
	update Update
	fields map[string]json.RawMessage
	lists  map[string][]entity
	full   []byte
}

// Versions numbers the changes of the entities updates carry: an entity
// gets a new version, from a counter, whenever its JSON differs from the
// last one seen of it, so that a stream sends again only the entities
// whose version differs from the one it sent. Entities not seen for
// forgetAfter encodings are forgotten (seen again, they get a new
// version, and are sent again: harmless).
type Versions struct {
	next     uint64
	encoding uint64
	seen     map[entityKey]*versioned
}

type entityKey struct {
	list, id string
}

type versioned struct {
	v        uint64
	raw      []byte // without its version
	lastSeen uint64
}

// forgetAfter is how many encodings an entity unseen is remembered.
const forgetAfter = 1000

// stamp gives the entity id of list, whose JSON without a version is raw,
// its version.
func (vs *Versions) stamp(list, id string, raw []byte) uint64 {
	if vs.seen == nil {
		vs.seen = map[entityKey]*versioned{}
	}
	k := entityKey{list, id}
	e, ok := vs.seen[k]
	if !ok || !bytes.Equal(e.raw, raw) {
		vs.next++
		e = &versioned{v: vs.next, raw: raw}
		vs.seen[k] = e
	}
	e.lastSeen = vs.encoding
	return e.v
}

// forget drops the entities unseen for forgetAfter encodings.
func (vs *Versions) forget() {
	if vs.encoding%forgetAfter != 0 {
		return
	}
	for k, e := range vs.seen {
		if vs.encoding-e.lastSeen > forgetAfter {
			delete(vs.seen, k)
		}
	}
}

// withVersion is raw, a JSON object, with "v":v first.
func withVersion(raw []byte, v uint64) []byte {
	out := make([]byte, 0, len(raw)+24)
	out = append(out, `{"v":`...)
	out = strconv.AppendUint(out, v, 10)
	if len(raw) > 2 {
		out = append(out, ',')
	}
	return append(out, raw[1:]...)
}

// stampList encodes the n entities of a list: each one's id, its version
// (set in the entity through setV, so that the typed update says it too)
// and its JSON with the version.
func (vs *Versions) stampList(list string, n int, at func(i int) (id string, val any, setV func(uint64))) ([]entity, error) {
	out := make([]entity, 0, n)
	for i := 0; i < n; i++ {
		id, val, setV := at(i)
		setV(0)
		raw, err := json.Marshal(val)
		if err != nil {
			return nil, err
		}
		v := vs.stamp(list, id, raw)
		setV(v)
		out = append(out, entity{id: id, v: v, raw: withVersion(raw, v)})
	}
	return out, nil
}

// partID is a partition's id in the update stream: "orders-0".
func partID(topic string, partition int32) string {
	return topic + "-" + strconv.FormatInt(int64(partition), 10)
}

// Encode gives u's entities their versions (in u too) and encodes it. The
// zero Versions is ready to use; one source of updates keeps one Versions,
// used under its lock.
func (vs *Versions) Encode(u *Update) (*EncodedUpdate, error) {
	vs.encoding++
	defer vs.forget()
	e := &EncodedUpdate{lists: map[string][]entity{}}
	var err error
	stamp := func(list string, n int, at func(i int) (string, any, func(uint64))) {
		if err == nil {
			e.lists[list], err = vs.stampList(list, n, at)
		}
	}
	stamp(listBrokers, len(u.Brokers), func(i int) (string, any, func(uint64)) {
		b := &u.Brokers[i]
		return strconv.FormatInt(int64(b.ID), 10), b, func(v uint64) { b.V = v }
	})
	stamp(listParts, len(u.Partitions), func(i int) (string, any, func(uint64)) {
		p := &u.Partitions[i]
		return partID(p.Topic, p.Partition), p, func(v uint64) { p.V = v }
	})
	stamp(listProducers, len(u.Producers), func(i int) (string, any, func(uint64)) {
		p := &u.Producers[i]
		return p.Name, p, func(v uint64) { p.V = v }
	})
	stamp(listGroups, len(u.Groups), func(i int) (string, any, func(uint64)) {
		g := &u.Groups[i]
		return g.Name, g, func(v uint64) { g.V = v }
	})
	if err != nil {
		return nil, err
	}
	rest := *u
	rest.Brokers, rest.Partitions, rest.Producers, rest.Groups = nil, nil, nil, nil
	b, err := json.Marshal(rest)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &e.fields); err != nil {
		return nil, err
	}
	for _, l := range Lists {
		delete(e.fields, l)
	}
	e.full = e.assemble()
	e.update = *u
	return e, nil
}

// Bytes is the whole update, as /api/view answers it.
func (e *EncodedUpdate) Bytes() []byte { return e.full }

// assemble writes the whole update: its fields and lists, by name.
func (e *EncodedUpdate) assemble() []byte {
	names := make([]string, 0, len(e.fields)+len(e.lists))
	size := 2
	for k, raw := range e.fields {
		names = append(names, k)
		size += len(k) + len(raw) + 4
	}
	for k, ents := range e.lists {
		names = append(names, k)
		for _, en := range ents {
			size += len(en.raw) + 1
		}
		size += len(k) + 6
	}
	slices.Sort(names)
	out := make([]byte, 0, size)
	out = append(out, '{')
	for i, k := range names {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, k)
		out = append(out, ':')
		if raw, ok := e.fields[k]; ok {
			out = append(out, raw...)
			continue
		}
		out = append(out, '[')
		for j, en := range e.lists[k] {
			if j > 0 {
				out = append(out, ',')
			}
			out = append(out, en.raw...)
		}
		out = append(out, ']')
	}
	return append(out, '}')
}

// frames is one stream's end of the update stream: the frames it sent and
// the update the last one made.
type frames struct {
	seq  uint64
	last *EncodedUpdate
}

// next returns the frame that brings the stream's page from the last
// update it sent to e: the whole of e first, then patches; false when
// nothing the page shows changed.
func (s *frames) next(e *EncodedUpdate) ([]byte, bool, error) {
	if s.last == e {
		return nil, false, nil
	}
	f := Frame{Seq: s.seq + 1}
	if s.last == nil {
		f.Full = e.full
	} else {
		f.Base = s.seq
		f.Set, f.Del, f.Lists = patch(s.last, e)
		if f.Set == nil && f.Del == nil && f.Lists == nil {
			s.last = e
			return nil, false, nil
		}
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil, false, err
	}
	s.seq, s.last = f.Seq, e
	return b, true, nil
}

// patch returns what turns the update from into to.
func patch(from, to *EncodedUpdate) (map[string]json.RawMessage, []string, map[string]ListPatch) {
	var set map[string]json.RawMessage
	var del []string
	for k, raw := range to.fields {
		if old, ok := from.fields[k]; !ok || !bytes.Equal(old, raw) {
			if set == nil {
				set = map[string]json.RawMessage{}
			}
			set[k] = raw
		}
	}
	for k := range from.fields {
		if _, ok := to.fields[k]; !ok {
			del = append(del, k)
		}
	}
	slices.Sort(del)
	var lists map[string]ListPatch
	for _, l := range Lists {
		if lp, ok := patchList(from.lists[l], to.lists[l]); ok {
			if lists == nil {
				lists = map[string]ListPatch{}
			}
			lists[l] = lp
		}
	}
	return set, del, lists
}

// patchList returns what turns the list from into to; false when they are
// the same.
func patchList(from, to []entity) (ListPatch, bool) {
	var lp ListPatch
	had := make(map[string]uint64, len(from))
	for _, e := range from {
		had[e.id] = e.v
	}
	same := len(from) == len(to)
	for i, e := range to {
		if same && from[i].id != e.id {
			same = false
		}
		if v, ok := had[e.id]; !ok || v != e.v {
			if lp.Put == nil {
				lp.Put = map[string]json.RawMessage{}
			}
			lp.Put[e.id] = e.raw
		}
	}
	if !same {
		lp.IDs = make([]string, 0, len(to))
		for _, e := range to {
			lp.IDs = append(lp.IDs, e.id)
		}
	}
	return lp, lp.Put != nil || lp.IDs != nil
}

// ErrResync means a frame does not apply to the store it was given: a
// patch whose base is not the store's frame (a frame was missed) or that
// names an entity the store does not hold. The page then opens the stream
// again, which starts with the whole update.
var ErrResync = errors.New("web: the update stream must start again")

// Store is what a page holds of the update stream: the update of the last
// frame applied. [Store.Apply] takes the stream's frames in order;
// [Store.JSON] is the update, as /api/view would have answered it then.
// The page's own store (static/js/viewstore.js) follows the same rules.
type Store struct {
	seq    uint64
	fields map[string]json.RawMessage
	lists  map[string][]entity
}

// Apply applies one frame of the stream (Frame, encoded): a whole update
// replaces the store, a patch changes it. A patch that does not follow the
// store's frame, or that does not apply, is an ErrResync and leaves the
// store as it was.
func (s *Store) Apply(frame []byte) error {
	var f Frame
	if err := json.Unmarshal(frame, &f); err != nil {
		return fmt.Errorf("%w: %v", ErrResync, err)
	}
	if f.Full != nil {
		return s.replace(f.Seq, f.Full)
	}
	if s.fields == nil || f.Base != s.seq {
		return fmt.Errorf("%w: frame %d patches frame %d; the store holds frame %d", ErrResync, f.Seq, f.Base, s.seq)
	}
	lists := map[string][]entity{}
	for name, lp := range f.Lists {
		if !slices.Contains(Lists, name) {
			return fmt.Errorf("%w: frame %d patches %s, which is no list", ErrResync, f.Seq, name)
		}
		l, err := applyList(name, s.lists[name], lp)
		if err != nil {
			return err
		}
		lists[name] = l
	}
	for k, raw := range f.Set {
		if slices.Contains(Lists, k) {
			return fmt.Errorf("%w: frame %d sets the list %s as a field", ErrResync, f.Seq, k)
		}
		s.fields[k] = raw
	}
	for _, k := range f.Del {
		delete(s.fields, k)
	}
	for name, l := range lists {
		s.lists[name] = l
	}
	s.seq = f.Seq
	return nil
}

// replace makes the store the whole update full.
func (s *Store) replace(seq uint64, full []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(full, &fields); err != nil {
		return fmt.Errorf("%w: frame %d: %v", ErrResync, seq, err)
	}
	lists := map[string][]entity{}
	for _, name := range Lists {
		lists[name] = []entity{}
		var raws []json.RawMessage
		if err := json.Unmarshal(fields[name], &raws); err != nil {
			return fmt.Errorf("%w: frame %d: list %s: %v", ErrResync, seq, name, err)
		}
		delete(fields, name)
		for _, raw := range raws {
			id, err := EntityID(name, raw)
			if err != nil {
				return fmt.Errorf("%w: frame %d: %v", ErrResync, seq, err)
			}
			lists[name] = append(lists[name], entity{id: id, raw: raw})
		}
	}
	s.seq, s.fields, s.lists = seq, fields, lists
	return nil
}

// applyList applies lp to the list l called name.
func applyList(name string, l []entity, lp ListPatch) ([]entity, error) {
	byID := make(map[string]json.RawMessage, len(l)+len(lp.Put))
	for _, e := range l {
		byID[e.id] = e.raw
	}
	for id, raw := range lp.Put {
		byID[id] = raw
	}
	ids := lp.IDs
	if ids == nil {
		for _, e := range l {
			ids = append(ids, e.id)
		}
		for id := range lp.Put {
			if !slices.ContainsFunc(l, func(e entity) bool { return e.id == id }) {
				return nil, fmt.Errorf("%w: %s %q is new but the patch does not place it", ErrResync, name, id)
			}
		}
	}
	out := make([]entity, 0, len(ids))
	for _, id := range ids {
		raw, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("%w: %s %q is neither held nor sent", ErrResync, name, id)
		}
		out = append(out, entity{id: id, raw: raw})
	}
	return out, nil
}

// JSON returns the store's update, its fields and lists by name, as
// /api/view would have answered it at the last frame applied.
func (s *Store) JSON() []byte {
	return (&EncodedUpdate{fields: s.fields, lists: s.lists}).assemble()
}

// Seq is the number of the last frame applied (0: none).
func (s *Store) Seq() uint64 { return s.seq }

// EntityID returns the id of an entity (JSON) of the list called name:
// a broker's id, a partition's topic and partition ("orders-0"), a
// producer's or a group's name.
func EntityID(name string, raw []byte) (string, error) {
	var e struct {
		ID    *int32  `json:"id"`
		Topic *string `json:"topic"`
		P     *int32  `json:"p"`
		Name  *string `json:"name"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return "", fmt.Errorf("%s entity: %v", name, err)
	}
	switch {
	case name == listBrokers && e.ID != nil:
		return strconv.FormatInt(int64(*e.ID), 10), nil
	case name == listParts && e.Topic != nil && e.P != nil:
		return partID(*e.Topic, *e.P), nil
	case (name == listProducers || name == listGroups) && e.Name != nil:
		return *e.Name, nil
	}
	return "", fmt.Errorf("%s entity without its id: %.80s", name, raw)
}
