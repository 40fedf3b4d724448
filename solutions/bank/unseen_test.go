package bank

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch"
	"github.com/kafkalive/kafkalive/solutions/ch02/index"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative"
	"github.com/kafkalive/kafkalive/solutions/ch07/readcommitted"
)

// unseenImpl is a mistake written in the solution's types.
type unseenImpl struct {
	name string
	impl any
}

// unseenMistakes are plausible wrong answers that are not in the bank: the
// suites have never been shown them, so a hint on their failure can only name
// a mistake they did not make. Each must be caught, and its hint must be
// absent.
func unseenMistakes() map[string][]unseenImpl {
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	withBatch := func(edit func(out []byte, start int)) func([]byte, *kafkalog.RecordBatch) []byte {
		return func(dst []byte, b *kafkalog.RecordBatch) []byte {
			start := len(dst)
			out := batch.AppendBatch(dst, b)
			edit(out, start)
			return out
		}
	}
	return map[string][]unseenImpl{
		"ch01/varint": {
			{"negdouble", func(dst []byte, v int32) []byte { // |v|*2, no -1 for a negative
				u := uint32(v) << 1
				if v < 0 {
					u = uint32(-int64(v)) << 1
				}
				return binary.AppendUvarint(dst, uint64(u))
			}},
			unseenImpl{"zigzagshift30", func(dst []byte, v int32) []byte { // v>>30 for the sign mask
				u := uint32(v<<1) ^ uint32(v>>30)
				for u >= 0x80 {
					dst = append(dst, byte(u)|0x80)
					u >>= 7
				}
				return append(dst, byte(u))
			}},
			unseenImpl{"uvarint64", func(dst []byte, v int32) []byte { // no zigzag, sign-extended to 64 bits
				return binary.AppendUvarint(dst, uint64(int64(v)))
			}},
			unseenImpl{"zigzagplusone", func(dst []byte, v int32) []byte {
				return binary.AppendUvarint(dst, uint64(uint32(v<<1)^uint32(v>>31))+1)
			}},
		},
		"ch01/batch": {
			{"recordscountminusone", kafkalogkit.BatchEncoder{AppendRecord: batch.AppendRecord, AppendBatch: withBatch(func(out []byte, s int) {
				n := binary.BigEndian.Uint32(out[s+57:])
				binary.BigEndian.PutUint32(out[s+57:], n-1)
				binary.BigEndian.PutUint32(out[s+17:], crc32.Checksum(out[s+21:], castagnoli))
			})}},
			{"attributeslittleendian", kafkalogkit.BatchEncoder{AppendRecord: batch.AppendRecord, AppendBatch: withBatch(func(out []byte, s int) {
				out[s+21], out[s+22] = out[s+22], out[s+21]
				binary.BigEndian.PutUint32(out[s+17:], crc32.Checksum(out[s+21:], castagnoli))
			})}},
			unseenImpl{"crcfrom22", kafkalogkit.BatchEncoder{AppendRecord: batch.AppendRecord, AppendBatch: withBatch(func(out []byte, s int) {
				binary.BigEndian.PutUint32(out[s+17:], crc32.Checksum(out[s+22:], castagnoli))
			})}},
			unseenImpl{"lengthminus11", kafkalogkit.BatchEncoder{AppendRecord: batch.AppendRecord, AppendBatch: withBatch(func(out []byte, s int) {
				binary.BigEndian.PutUint32(out[s+8:], uint32(len(out)-s-11))
			})}},
			unseenImpl{"nomagic", kafkalogkit.BatchEncoder{AppendRecord: batch.AppendRecord, AppendBatch: withBatch(func(out []byte, s int) {
				out[s+16] = 0
				binary.BigEndian.PutUint32(out[s+17:], crc32.Checksum(out[s+21:], castagnoli))
			})}},
		},
		"ch02/index": {
			{"returnsrelative", indexLookup(func(idx []byte, entries int, base, target int64) (int64, int32) {
				off, pos := index.LookupIndex(idx, entries, base, target)
				return off - base, pos
			}, index.FindBatch)},
			unseenImpl{"lastentryalways", indexLookup(func(idx []byte, entries int, base, target int64) (int64, int32) {
				if entries == 0 {
					return base, 0
				}
				return base + int64(binary.BigEndian.Uint32(idx[8*(entries-1):])), int32(binary.BigEndian.Uint32(idx[8*(entries-1)+4:]))
			}, index.FindBatch)},
			unseenImpl{"neverreadsindex", indexLookup(func(_ []byte, _ int, base, _ int64) (int64, int32) { return base, 0 }, index.FindBatch)},
			unseenImpl{"findsthenextbatch", indexLookup(index.LookupIndex, func(log []byte, from int32, target int64) (int32, bool) {
				pos, found := index.FindBatch(log, from, target)
				if !found || int(pos)+12 > len(log) {
					return pos, found
				}
				next := pos + 12 + int32(binary.BigEndian.Uint32(log[pos+8:]))
				return next, int(next) < len(log)
			})},
		},
		"ch03/retention": {
			{"activeexcluded", retentionFunc(func(l retention.Log, c retention.Config, now int64) int { // the size rule leaves the active segment out
				if c.RetentionBytes >= 0 && len(l.Segments) > 0 {
					c.RetentionBytes += l.Segments[len(l.Segments)-1].SizeInBytes
				}
				return retention.DeletableSegments(l, c, now)
			})},
			{"startoffsetstrict", retentionFunc(func(l retention.Log, c retention.Config, now int64) int { // next segment's base < log start offset
				l.LogStartOffset = max(l.LogStartOffset-1, 0)
				return retention.DeletableSegments(l, c, now)
			})},
			{"highwatermarkstrict", retentionFunc(func(l retention.Log, c retention.Config, now int64) int { // a segment's offsets must end below the HW - 1
				l.HighWatermark--
				return retention.DeletableSegments(l, c, now)
			})},
			unseenImpl{"bytesminusoneislimit", retentionFunc(func(l retention.Log, c retention.Config, now int64) int {
				if c.RetentionBytes == -1 {
					c.RetentionBytes = 0
				}
				return retention.DeletableSegments(l, c, now)
			})},
			unseenImpl{"atmostone", retentionFunc(func(l retention.Log, c retention.Config, now int64) int {
				return min(retention.DeletableSegments(l, c, now), 1)
			})},
		},
		"ch04/recovery": {
			{"indexesbatchend", func(log []byte, base int64, interval int) (int, []byte) { // the entry's position is where the batch ends
				valid, idx := recovery.Recover(log, base, interval)
				for i := 0; i+8 <= len(idx); i += 8 {
					pos := binary.BigEndian.Uint32(idx[i+4:])
					binary.BigEndian.PutUint32(idx[i+4:], pos+12+binary.BigEndian.Uint32(log[pos+8:]))
				}
				return valid, idx
			}},
			unseenImpl{"nevercuts", func(log []byte, base int64, interval int) (int, []byte) {
				_, idx := recovery.Recover(log, base, interval)
				return len(log), idx
			}},
			unseenImpl{"onebatchearly", func(log []byte, base int64, interval int) (int, []byte) {
				valid, idx := recovery.Recover(log, base, interval)
				if valid > 0 && len(idx) >= 8 {
					valid = int(binary.BigEndian.Uint32(idx[len(idx)-4:]))
				}
				return max(valid-1, 0), idx
			}},
		},
		"ch05/truncation": {
			{"cutspastleo", truncationFuncs{ // the leader's end offset, even past the log end
				point: func(own []truncation.EpochEntry, leo, hw int64, a truncation.EpochEndOffset) (int64, bool) {
					o, done := truncation.TruncationPoint(own, leo, hw, a)
					if a.EndOffset != truncation.UndefinedOffset && a.EndOffset > leo && o == leo {
						o = a.EndOffset
					}
					return o, done
				},
				truncate: truncation.Truncate,
			}},
			unseenImpl{"alwayskeeps", truncationFuncs{
				point: func(_ []truncation.EpochEntry, leo, _ int64, _ truncation.EpochEndOffset) (int64, bool) {
					return leo, true
				},
				truncate: func(f truncation.Follower, ask func(int32) truncation.EpochEndOffset) truncation.Follower {
					return f
				},
			}},
		},
		"ch06/cooperative": {
			{"entryfornobody", cooperativeFunc(func(ms []cooperative.Member, ts []cooperative.TopicMetadata) cooperative.Assignment { // an empty entry for a member id nobody has
				out := cooperative.Assign(ms, ts)
				out["nobody"] = nil
				return out
			})},
			unseenImpl{"reversedids", cooperativeFunc(func(ms []cooperative.Member, ts []cooperative.TopicMetadata) cooperative.Assignment {
				for i := range ms {
					ms[i].MemberID = reverse(ms[i].MemberID)
				}
				out := cooperative.Assign(ms, ts)
				fixed := cooperative.Assignment{}
				for id, tps := range out {
					fixed[reverse(id)] = tps
				}
				return fixed
			})},
		},
		"ch07/readcommitted": {
			{"dropslastrecord", readCommittedFunc(func(at int64, bs []kafkalog.RecordBatch, a []readcommitted.AbortedTransaction) []int64 {
				out := readcommitted.Deliver(at, bs, a) // a loop that stops one record short
				if len(out) > 0 {
					out = out[:len(out)-1]
				}
				return out
			})},
			{"joinsatbaseoffset", readCommittedFunc(joinsAtBaseOffset)},
		},
	}
}

// joinsAtBaseOffset puts a producer in the aborted set only at its batch
// that begins at the aborted transaction's first offset: an abort whose
// first batch the cleaner removed, or fetched before, is never in force.
func joinsAtBaseOffset(at int64, bs []kafkalog.RecordBatch, aborted []readcommitted.AbortedTransaction) []int64 {
	set := map[int64]bool{}
	var out []int64
	for _, b := range bs {
		for _, a := range aborted {
			if a.ProducerID == b.ProducerID && a.FirstOffset == b.BaseOffset {
				set[a.ProducerID] = true
			}
		}
		if b.Attributes.IsControl() {
			if len(b.Records) > 0 && len(b.Records[0].Key) >= 4 && b.Records[0].Key[2] == 0 && b.Records[0].Key[3] == 0 {
				delete(set, b.ProducerID)
			}
			continue
		}
		if b.Attributes.IsTransactional() && set[b.ProducerID] {
			continue
		}
		for _, r := range b.Records {
			if o := b.BaseOffset + int64(r.OffsetDelta); o >= at {
				out = append(out, o)
			}
		}
	}
	return out
}

func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

func TestUnseenMistakesGetNoWrongHint(t *testing.T) {
	unseen := unseenMistakes()
	for _, e := range exercises() {
		for _, u := range unseen[e.name] {
			v := judge(e.name, e.unseen(u.name, u.impl))
			if v.checkRule == "-" && v.propsRule == "-" {
				t.Errorf("%s: the unseen mistake %s passed the suite", e.name, u.name)
			}
			if h, p := hintOf(u.name, v.checkMatches), hintOf(u.name, v.propsMatches); h != hintAbsent || p != hintAbsent {
				t.Errorf("%s: the unseen mistake %s got a hint naming a mistake it did not make (fixed cases: %v, properties: %v)",
					e.name, u.name, v.checkMatches, v.propsMatches)
			}
		}
	}
}

func indexLookup(lookup func([]byte, int, int64, int64) (int64, int32), find func([]byte, int32, int64) (int32, bool)) kafkalogkit.IndexLookup {
	return kafkalogkit.IndexLookup{LookupIndex: lookup, FindBatch: find}
}

// TestEndlessCallFailsWithTheRule checks the deadline: a binary search that
// never ends fails its suite with the rule it was checking, the input and the
// section on termination, instead of hanging until go test's own timeout.
func TestEndlessCallFailsWithTheRule(t *testing.T) {
	defer func(d time.Duration) { kit.Deadline = d }(kit.Deadline)
	kit.Deadline = 50 * time.Millisecond
	block := make(chan struct{})
	defer close(block) // the leaked call ends with the test
	endless := func(idx []byte, entries int, base, target int64) (int64, int32) {
		if entries > 1 {
			<-block // lo = mid with lo + 1 == hi: the loop never moves
		}
		return index.LookupIndex(idx, entries, base, target)
	}
	err := kafkalogkit.CheckIndex(kafkalogkit.IndexLookup{LookupIndex: endless, FindBatch: index.FindBatch})
	if err == nil {
		t.Fatal("a LookupIndex that never returns passed the suite")
	}
	for _, want := range []string{"[I1 ", "LookupIndex(index of ", "did not return within", "read: notes/02-offsets-and-the-index.md#every-call-returns"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the failure must contain %q:\n%v", want, err)
		}
	}
}
