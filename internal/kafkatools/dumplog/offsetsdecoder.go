package dumplog

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/group"
)

// The __consumer_offsets decoder of dump-log --offsets-decoder (Kafka's
// OffsetsMessageParser): keys and values of offset commits and classic group
// metadata, printed as Kafka's generated JSON converters print them:
//
//	key: {"type":"1","data":{"group":"g","topic":"t","partition":0}}
//	payload: {"version":"3","data":{"offset":5,"leaderEpoch":0,"metadata":"","commitTimestamp":1670068129797}}
//
// Key types (the key's version): 0 and 1 OffsetCommitKey, 2 GroupMetadataKey,
// 3 to 8 a consumer-protocol group's records (KIP-848,
// consumergroupdecoder.go); newer types (share and streams groups) are
// reported as unknown.
// Values: OffsetCommitValue v0–v4 and GroupMetadataValue v0–v4 (v4 is
// flexible: compact strings and tagged fields). For groups of protocol type
// "consumer", each member's subscription and assignment bytes are decoded as
// ConsumerProtocolSubscription and ConsumerProtocolAssignment v0–v3, as Kafka
// does; bytes that do not decode stay base64.

// errOffsetsKeyMissing is Kafka's "message had a missing key" failure.
var errOffsetsKeyMissing = errors.New("failed to decode message using offset topic decoder (message had a missing key)")

// decodeOffsetsRecord returns the key and payload text for one record, and
// whether a payload is printed.
func decodeOffsetsRecord(offset int64, key, value []byte) (string, string, bool, error) {
	if key == nil {
		return "", "", false, errOffsetsKeyMissing
	}
	k, keyType, err := decodeOffsetsKey(key)
	if errors.Is(err, errUnknownRecordType) {
		return fmt.Sprintf("Unknown record type %d at offset %d, skipping.", keyType, offset), "", false, nil
	}
	if err != nil {
		return fmt.Sprintf("Error at offset %d, skipping. %v", offset, err), "", false, nil
	}
	if value == nil {
		return k, "<DELETE>", true, nil
	}
	var v string
	if keyType >= 3 {
		v, err = consumerGroupValue(key, value)
	} else {
		v, err = decodeOffsetsValue(keyType, value)
	}
	if err != nil {
		return fmt.Sprintf("Error at offset %d, skipping. %v", offset, err), "", false, nil
	}
	return k, v, true, nil
}

var errUnknownRecordType = errors.New("unknown record type")

func decodeOffsetsKey(b []byte) (string, int16, error) {
	r := &schemaReader{b: b}
	typ := r.int16()
	if r.err != nil {
		return "", 0, r.err
	}
	var j jsonObject
	switch typ {
	case 0, 1:
		j.str("group", r.string(false))
		j.str("topic", r.string(false))
		j.num("partition", int64(r.int32()))
	case 2:
		j.str("group", r.string(false))
	default:
		if s, ok := consumerGroupKey(b); ok {
			return s, typ, nil // consumergroupdecoder.go
		}
		return "", typ, errUnknownRecordType
	}
	if r.err != nil {
		return "", typ, r.err
	}
	return `{"type":"` + strconv.Itoa(int(typ)) + `","data":` + j.String() + "}", typ, nil
}

func decodeOffsetsValue(keyType int16, b []byte) (string, error) {
	if keyType == 2 {
		return groupMetadataValue(b)
	}
	r := &schemaReader{b: b}
	version := r.int16()
	if r.err != nil {
		return "", r.err
	}
	if version < 0 || version > 4 {
		return "", fmt.Errorf("unsupported value version %d", version)
	}
	r.flexible = version >= 4
	data := offsetCommitValue(r, version)
	if r.err != nil {
		return "", r.err
	}
	return versioned(version, data), nil
}

func versioned(version int16, data string) string {
	return `{"version":"` + strconv.Itoa(int(version)) + `","data":` + data + "}"
}

func offsetCommitValue(r *schemaReader, v int16) string {
	var j jsonObject
	j.num("offset", r.int64())
	if v >= 3 {
		j.num("leaderEpoch", int64(r.int32()))
	}
	j.str("metadata", r.string(false))
	j.num("commitTimestamp", r.int64())
	if v == 1 {
		j.num("expireTimestamp", r.int64())
	}
	r.taggedFields()
	return j.String()
}

// groupMetadataValue prints a group's metadata value, read by the group
// package's codec (the one the coordinator writes and loads with), with
// the fields each version has.
func groupMetadataValue(b []byte) (string, error) {
	v, err := group.ReadGroupMetadataValue(b)
	if err != nil {
		return "", err
	}
	var j jsonObject
	j.str("protocolType", &v.ProtocolType)
	j.num("generation", int64(v.Generation))
	j.str("protocol", v.Protocol)
	j.str("leader", v.Leader)
	if v.Version >= 2 {
		j.num("currentStateTimestamp", v.CurrentStateTimestampMs)
	}
	consumer := v.ProtocolType == "consumer"
	members := make([]string, 0, len(v.Members))
	for _, m := range v.Members {
		members = append(members, memberMetadata(m, v.Version, consumer))
	}
	j.raw("members", "["+strings.Join(members, ",")+"]")
	return versioned(v.Version, j.String()), nil
}

func memberMetadata(mm group.GroupMetadataMember, v int16, consumer bool) string {
	var m jsonObject
	m.str("memberId", &mm.MemberID)
	if v >= 3 {
		m.str("groupInstanceId", mm.GroupInstanceID)
	}
	m.str("clientId", &mm.ClientID)
	m.str("clientHost", &mm.ClientHost)
	if v >= 1 {
		m.num("rebalanceTimeout", int64(mm.RebalanceTimeoutMs))
	}
	m.num("sessionTimeout", int64(mm.SessionTimeoutMs))
	m.embedded("subscription", mm.Subscription, consumer, consumerSubscription)
	m.embedded("assignment", mm.Assignment, consumer, consumerAssignment)
	return m.String()
}

// embedded writes bytes holding a versioned consumer protocol struct decoded
// by decode, or base64 if it is not a consumer group or they do not decode.
func (j *jsonObject) embedded(k string, b []byte, consumer bool, decode func(*schemaReader, int16) string) {
	if consumer {
		r := &schemaReader{b: b}
		if v := r.int16(); r.err == nil && v >= 0 && v <= 3 {
			if s := decode(r, v); r.err == nil {
				j.raw(k, s)
				return
			}
		}
	}
	j.bytes(k, b)
}

// consumerSubscription is ConsumerProtocolSubscription v0–v3.
func consumerSubscription(r *schemaReader, v int16) string {
	var j jsonObject
	j.raw("topics", r.stringArray())
	j.nullableBytes("userData", r.nullableBytes())
	if v >= 1 {
		j.raw("ownedPartitions", r.topicPartitions())
	}
	if v >= 2 {
		j.num("generationId", int64(r.int32()))
	}
	if v >= 3 {
		j.str("rackId", r.string(true))
	}
	return j.String()
}

// consumerAssignment is ConsumerProtocolAssignment v0–v3.
func consumerAssignment(r *schemaReader, _ int16) string {
	var j jsonObject
	j.raw("assignedPartitions", r.topicPartitions())
	j.nullableBytes("userData", r.nullableBytes())
	return j.String()
}

func (r *schemaReader) stringArray() string {
	n := max(r.arrayLen(), 0)
	parts := make([]string, 0, min(n, len(r.b)))
	for i := 0; i < n && r.err == nil; i++ {
		if s := r.string(false); s != nil {
			parts = append(parts, jsonString(*s))
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// topicPartitions reads [{topic, [partition...]}].
func (r *schemaReader) topicPartitions() string {
	n := max(r.arrayLen(), 0)
	parts := make([]string, 0, min(n, len(r.b)))
	for i := 0; i < n && r.err == nil; i++ {
		var tp jsonObject
		tp.str("topic", r.string(false))
		k := max(r.arrayLen(), 0)
		ps := make([]string, 0, min(k, len(r.b)))
		for p := 0; p < k && r.err == nil; p++ {
			ps = append(ps, strconv.Itoa(int(r.int32())))
		}
		tp.raw("partitions", "["+strings.Join(ps, ",")+"]")
		parts = append(parts, tp.String())
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// nullableBytes reads int32-length bytes where -1 is null.
func (r *schemaReader) nullableBytes() []byte {
	n := r.length(true)
	if n < 0 {
		return nil
	}
	b := r.take(n)
	if b == nil {
		return nil
	}
	return b
}

// schemaReader reads Kafka's protocol primitives; the first error sticks.
type schemaReader struct {
	b        []byte
	flexible bool
	err      error
}

func (r *schemaReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = fmt.Errorf("buffer underflow: %d bytes needed, %d left", n, len(r.b))
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *schemaReader) int16() int16 {
	if p := r.take(2); p != nil {
		return int16(binary.BigEndian.Uint16(p))
	}
	return 0
}

func (r *schemaReader) int32() int32 {
	if p := r.take(4); p != nil {
		return int32(binary.BigEndian.Uint32(p))
	}
	return 0
}

func (r *schemaReader) int64() int64 {
	if p := r.take(8); p != nil {
		return int64(binary.BigEndian.Uint64(p))
	}
	return 0
}

func (r *schemaReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > 1<<31 {
		r.err = errors.New("bad unsigned varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// length reads a string/bytes/array length: int16/int32 classic, or compact
// (uvarint length + 1). -1 means null.
func (r *schemaReader) length(classic32 bool) int {
	if r.flexible {
		return int(r.uvarint()) - 1
	}
	if classic32 {
		return int(r.int32())
	}
	return int(r.int16())
}

// string returns a JSON-ready value: nil for null.
func (r *schemaReader) string(nullable bool) *string {
	n := r.length(false)
	if n < 0 {
		if !nullable && r.err == nil {
			r.err = errors.New("non-nullable field was serialized as null")
		}
		return nil
	}
	s := string(r.take(n))
	return &s
}

func (r *schemaReader) arrayLen() int {
	n := r.length(true)
	if n < 0 && r.err == nil {
		r.err = errors.New("non-nullable array was serialized as null")
	}
	return n
}

// taggedFields skips the tagged fields at the end of a flexible struct.
func (r *schemaReader) taggedFields() {
	if !r.flexible {
		return
	}
	for n := r.uvarint(); n > 0 && r.err == nil; n-- {
		r.uvarint()
		r.take(int(r.uvarint()))
	}
}

// jsonObject builds a compact JSON object with fields in schema order, the way
// Jackson prints the generated converters' ObjectNodes.
type jsonObject struct{ buf bytes.Buffer }

func (j *jsonObject) key(k string) {
	if j.buf.Len() == 0 {
		j.buf.WriteByte('{')
	} else {
		j.buf.WriteByte(',')
	}
	j.buf.WriteString(jsonString(k))
	j.buf.WriteByte(':')
}

func (j *jsonObject) str(k string, v *string) {
	j.key(k)
	if v == nil {
		j.buf.WriteString("null")
		return
	}
	j.buf.WriteString(jsonString(*v))
}

func (j *jsonObject) num(k string, v int64) {
	j.key(k)
	j.buf.WriteString(strconv.FormatInt(v, 10))
}

func (j *jsonObject) bytes(k string, v []byte) {
	j.key(k)
	j.buf.WriteString(`"` + base64.StdEncoding.EncodeToString(v) + `"`)
}

func (j *jsonObject) nullableBytes(k string, v []byte) {
	if v == nil {
		j.raw(k, "null")
		return
	}
	j.bytes(k, v)
}

func (j *jsonObject) raw(k, v string) {
	j.key(k)
	j.buf.WriteString(v)
}

func (j *jsonObject) String() string {
	if j.buf.Len() == 0 {
		return "{}"
	}
	return j.buf.String() + "}"
}

// jsonString quotes s as JSON without Go's HTML escaping (Jackson does not
// escape <, > and &).
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}
