package kafkawire

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Summary is an [Exchange] decoded for a view of the wire: who asked what
// of which broker, the fields of the request and the response that matter
// to someone learning the protocol, the error codes the response carried,
// and how long it took. It holds no bytes of the exchange (a record's key
// and value are counted, never kept), so that a view may keep many.
type Summary struct {
	// Conn is the connection, Broker the listener's node id, Client the
	// request header's client.id.
	Conn   uint64 `json:"conn"`
	Broker int32  `json:"broker"`
	Client string `json:"client"`
	// API is the request's name (kmsg's: Produce, Fetch...), Key and
	// Version its api key and version, Correlation the header's id.
	API         string `json:"api"`
	Key         int16  `json:"key"`
	Version     int16  `json:"version"`
	Correlation int32  `json:"correlation"`
	// Request and Response are what matters of each, one line
	// ("acks=all orders-0 3 records 210 B"); Response is "" when none
	// was written (Closed says why, or acks=0).
	Request  string `json:"request"`
	Response string `json:"response,omitempty"`
	// ErrorCodes are the error codes of the response other than NONE,
	// each once, sorted.
	ErrorCodes []int16 `json:"error_codes,omitempty"`
	Closed     string  `json:"closed,omitempty"`
	// At is when the request was read; LatencyMicros how long it took
	// until its response was written.
	At            time.Time `json:"at"`
	LatencyMicros int64     `json:"latency_us"`
	// Carried are the offsets of the records the exchange carried, by
	// partition: a Produce's from the base offset its response gave (its
	// batches' record counts on), a Fetch's those of the batches its
	// response holds (their headers, no record read). A record's journey
	// finds the exchanges that carried it by them.
	Carried []Carried `json:"carried,omitempty"`
}

// Carried is a run of offsets of one partition an exchange carried, First
// to Last inclusive. Topic is the topic's name, or "" when the request
// named it by TopicID only (Fetch v13 on).
type Carried struct {
	Topic     string   `json:"topic,omitempty"`
	TopicID   [16]byte `json:"-"`
	Partition int32    `json:"p"`
	First     int64    `json:"first"`
	Last      int64    `json:"last"`
}

// Holds reports whether c carried offset of the partition whose name is
// topic and id is id.
func (c Carried) Holds(topic string, id [16]byte, partition int32, offset int64) bool {
	named := c.Topic != "" && c.Topic == topic || c.Topic == "" && c.TopicID == id
	return named && c.Partition == partition && c.First <= offset && offset <= c.Last
}

// Summarize decodes x for a view of the wire. It reads x and keeps none
// of its memory.
func Summarize(x Exchange) Summary {
	s := Summary{Conn: x.Conn.ID, Broker: x.Conn.Broker, Client: x.Header.ClientID, Key: x.Header.APIKey, Version: x.Header.APIVersion,
		Correlation: x.Header.CorrelationID, API: kmsg.NameForKey(x.Header.APIKey), Closed: x.Closed, At: x.Received,
		LatencyMicros: x.Latency().Microseconds()}
	if x.Request != nil {
		s.Request = requestLine(x.Request)
	}
	if x.Response != nil {
		s.Response = responseLine(x.Response)
		s.ErrorCodes = nonzeroCodes(x.Response)
		s.Carried = carried(x.Request, x.Response)
	}
	return s
}

// requestLine is what matters of a request, in a line.
func requestLine(req kmsg.Request) string {
	switch r := req.(type) {
	case *kmsg.ProduceRequest:
		var parts []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				n, size := batchCounts(p.Records)
				parts = append(parts, fmt.Sprintf("%s-%d %d record(s) %d B", t.Topic, p.Partition, n, size))
			}
		}
		return fmt.Sprintf("acks=%s %s", acksName(r.Acks), strings.Join(parts, ", "))
	case *kmsg.FetchRequest:
		var parts []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				parts = append(parts, fmt.Sprintf("%s-%d from %d", topicName(t.Topic, t.TopicID), p.Partition, p.FetchOffset))
			}
		}
		return fmt.Sprintf("replica %d max wait %d ms %s", r.ReplicaID, r.MaxWaitMillis, strings.Join(parts, ", "))
	case *kmsg.ListOffsetsRequest:
		var parts []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				parts = append(parts, fmt.Sprintf("%s-%d at %s", t.Topic, p.Partition, timestampName(p.Timestamp)))
			}
		}
		return fmt.Sprintf("replica %d isolation %d %s", r.ReplicaID, r.IsolationLevel, strings.Join(parts, ", "))
	case *kmsg.MetadataRequest:
		if r.Topics == nil {
			return "every topic"
		}
		var names []string
		for _, t := range r.Topics {
			if t.Topic != nil {
				names = append(names, *t.Topic)
			}
		}
		return "topics " + strings.Join(names, ", ")
	case *kmsg.FindCoordinatorRequest:
		keys := append([]string{r.CoordinatorKey}, r.CoordinatorKeys...)
		return fmt.Sprintf("type %d %s", r.CoordinatorType, strings.Join(slices.DeleteFunc(keys, func(k string) bool { return k == "" }), ", "))
	case *kmsg.JoinGroupRequest:
		return fmt.Sprintf("group %s member %q", r.Group, r.MemberID)
	case *kmsg.SyncGroupRequest:
		return fmt.Sprintf("group %s generation %d member %s", r.Group, r.Generation, r.MemberID)
	case *kmsg.HeartbeatRequest:
		return fmt.Sprintf("group %s generation %d member %s", r.Group, r.Generation, r.MemberID)
	case *kmsg.OffsetCommitRequest:
		var parts []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				parts = append(parts, fmt.Sprintf("%s-%d=%d", t.Topic, p.Partition, p.Offset))
			}
		}
		return fmt.Sprintf("group %s generation %d %s", r.Group, r.Generation, strings.Join(parts, ", "))
	case *kmsg.OffsetFetchRequest:
		return "group " + r.Group
	}
	return ""
}

// responseLine is what matters of a response, in a line.
func responseLine(resp kmsg.Response) string {
	switch r := resp.(type) {
	case *kmsg.ProduceResponse:
		var parts []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				parts = append(parts, fmt.Sprintf("%s-%d base offset %d", t.Topic, p.Partition, p.BaseOffset))
			}
		}
		return strings.Join(parts, ", ")
	case *kmsg.FetchResponse:
		var parts []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				n, size := batchCounts(p.RecordBatches)
				parts = append(parts, fmt.Sprintf("%s-%d hw %d %d record(s) %d B", topicName(t.Topic, t.TopicID), p.Partition, p.HighWatermark, n, size))
			}
		}
		return strings.Join(parts, ", ")
	case *kmsg.ListOffsetsResponse:
		var parts []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				parts = append(parts, fmt.Sprintf("%s-%d offset %d", t.Topic, p.Partition, p.Offset))
			}
		}
		return strings.Join(parts, ", ")
	case *kmsg.MetadataResponse:
		return fmt.Sprintf("%d broker(s), %d topic(s), controller %d", len(r.Brokers), len(r.Topics), r.ControllerID)
	case *kmsg.FindCoordinatorResponse:
		if len(r.Coordinators) > 0 {
			var parts []string
			for _, c := range r.Coordinators {
				parts = append(parts, fmt.Sprintf("%s at broker %d", c.Key, c.NodeID))
			}
			return strings.Join(parts, ", ")
		}
		return fmt.Sprintf("broker %d", r.NodeID)
	case *kmsg.JoinGroupResponse:
		return fmt.Sprintf("generation %d leader %s member %s, %d member(s)", r.Generation, r.LeaderID, r.MemberID, len(r.Members))
	case *kmsg.OffsetFetchResponse:
		var parts []string
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				parts = append(parts, fmt.Sprintf("%s-%d=%d", t.Topic, p.Partition, p.Offset))
			}
		}
		return strings.Join(parts, ", ")
	}
	return ""
}

// carried are the offsets a Produce's or a Fetch's records took, by
// partition.
func carried(req kmsg.Request, resp kmsg.Response) []Carried {
	var out []Carried
	switch r := resp.(type) {
	case *kmsg.ProduceResponse:
		pr, ok := req.(*kmsg.ProduceRequest)
		if !ok {
			return nil
		}
		counts := map[topicPartitionName]int{}
		for _, t := range pr.Topics {
			for _, p := range t.Partitions {
				n, _ := batchCounts(p.Records)
				counts[topicPartitionName{t.Topic, p.Partition}] += n
			}
		}
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				n := counts[topicPartitionName{t.Topic, p.Partition}]
				if p.ErrorCode == 0 && p.BaseOffset >= 0 && n > 0 {
					out = append(out, Carried{Topic: t.Topic, Partition: p.Partition, First: p.BaseOffset, Last: p.BaseOffset + int64(n) - 1})
				}
			}
		}
	case *kmsg.FetchResponse:
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				if first, last, ok := batchOffsets(p.RecordBatches); ok {
					out = append(out, Carried{Topic: t.Topic, TopicID: t.TopicID, Partition: p.Partition, First: first, Last: last})
				}
			}
		}
	}
	return out
}

// topicPartitionName names a partition by its topic's name.
type topicPartitionName struct {
	Topic     string
	Partition int32
}

// batchOffsets are the first and last offsets of a run of record batches,
// read from their headers (baseOffset, lastOffsetDelta); false when none
// is whole.
func batchOffsets(b []byte) (first, last int64, ok bool) {
	for len(b) >= 61 {
		length := int(int32(uint32(b[8])<<24 | uint32(b[9])<<16 | uint32(b[10])<<8 | uint32(b[11])))
		if length < 49 || 12+length > len(b) {
			break
		}
		base := int64(uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 | uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7]))
		delta := int64(int32(uint32(b[23])<<24 | uint32(b[24])<<16 | uint32(b[25])<<8 | uint32(b[26])))
		if !ok {
			first, ok = base, true
		}
		last = base + delta
		b = b[12+length:]
	}
	return first, last, ok
}

// batchCounts counts the records and bytes of a run of record batches
// from their headers (each batch's length and record count), reading no
// record.
func batchCounts(b []byte) (records int, size int) {
	size = len(b)
	for len(b) >= 61 {
		length := int(int32(uint32(b[8])<<24 | uint32(b[9])<<16 | uint32(b[10])<<8 | uint32(b[11])))
		if length < 49 || 12+length > len(b) {
			break
		}
		records += int(int32(uint32(b[57])<<24 | uint32(b[58])<<16 | uint32(b[59])<<8 | uint32(b[60])))
		b = b[12+length:]
	}
	return records, size
}

// acksName is a Produce's acks as clients set it.
func acksName(acks int16) string {
	if acks == -1 {
		return "all"
	}
	return fmt.Sprint(acks)
}

// timestampName names ListOffsets' special timestamps.
func timestampName(ts int64) string {
	switch ts {
	case -1:
		return "LATEST"
	case -2:
		return "EARLIEST"
	case -3:
		return "MAX_TIMESTAMP"
	}
	return fmt.Sprint(ts)
}

// topicName is a Fetch's topic: its name, or its id from v13 (KIP-516).
func topicName(name string, id [16]byte) string {
	if name != "" {
		return name
	}
	return fmt.Sprintf("id %x", id[:4])
}

// nonzeroCodes are the error codes other than NONE found anywhere in
// resp, each once, sorted.
func nonzeroCodes(resp kmsg.Response) []int16 {
	var out []int16
	for _, c := range errorCodes(resp) {
		if c != 0 && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// errorCodes are the error codes in resp. Produce's and Fetch's are read
// from their partitions (their records are not walked); any other API's
// from its JSON form, whose every "ErrorCode" field is one, so that every
// API's errors are found.
func errorCodes(resp kmsg.Response) []int16 {
	var out []int16
	switch r := resp.(type) {
	case *kmsg.ProduceResponse:
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				out = append(out, p.ErrorCode)
			}
		}
		return out
	case *kmsg.FetchResponse:
		out = append(out, r.ErrorCode)
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				out = append(out, p.ErrorCode)
			}
		}
		return out
	}
	js, err := json.Marshal(resp)
	if err != nil {
		return nil
	}
	var doc any
	if json.Unmarshal(js, &doc) != nil {
		return nil
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if c, ok := v["ErrorCode"].(float64); ok {
				out = append(out, int16(c))
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	return out
}
