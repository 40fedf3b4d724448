package kafkalogkit

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// RecoveryProperties returns a rapid state machine over crash points: a
// segment is appended to (in the page cache; batches of every codec,
// compacted and empty batches, transaction markers), sometimes synced, then the
// process crashes (the page cache survives) or the power is cut (only synced
// bytes survive, the last write may be torn at any byte, the file may come back
// zero-padded, with garbage, or with a flipped bit), and r recovers it. r's
// cut and index must be Kafka's; every synced batch must survive; appending
// then continues from what r kept.
func RecoveryProperties(r Recovery, known ...kit.Known[Recovery]) func(*rapid.T) {
	return recoveryProperties(judgeRecovery(r, known), kit.Replay("./"+recoveryExercise.Dir, "TestRecovery/crash_points"))
}

type recoveryMachine struct {
	r          recoverySubject
	baseOffset int64
	interval   int
	file       []byte // what is written, as the page cache holds it
	synced     int    // bytes known to be on disk
	next       int64  // next offset to append
	steps      []string
	replay     string
}

func recoveryProperties(r recoverySubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		m := &recoveryMachine{r: r, replay: replay}
		m.baseOffset = rapid.SampledFrom([]int64{0, 1000, 3_000_000_000}).Draw(t, "baseOffset")
		m.interval = rapid.SampledFrom([]int{100, 0, 300, math.MaxInt32}).Draw(t, "indexIntervalBytes")
		m.next = m.baseOffset
		m.step(fmt.Sprintf("segment at base offset %d, index.interval.bytes %d", m.baseOffset, m.interval))
		t.Repeat(map[string]func(*rapid.T){
			"append":   m.append,
			"append2":  m.append, // appends happen more often than syncs and crashes
			"append3":  m.append,
			"fsync":    m.fsync,
			"crash":    m.crash,
			"powerCut": m.powerCut,
		})
	}
}

func (m *recoveryMachine) step(s string) { m.steps = append(m.steps, s) }

// append adds one batch as a leader or a follower writes it: a producer's,
// transactional, or (a follower copies the leader's compacted log as it is)
// a compacted batch, the cleaner's empty batch or a transaction marker, with
// any codec, after a gap of offsets the cleaner removed.
func (m *recoveryMachine) append(t *rapid.T) {
	spec := drawBatchSpec(t, 4, 80)
	m.next += int64(spec.gap)
	b := specBatch(m.next, spec)
	pos := len(m.file)
	m.file = b.AppendTo(m.file)
	m.step(fmt.Sprintf("append offsets %d..%d at position %d (%d bytes, %s; in the page cache)", m.next, b.LastOffset(), pos, len(m.file)-pos, describeBatchShape(&b, spec.shape)))
	m.next = b.LastOffset() + 1
}

func (m *recoveryMachine) fsync(*rapid.T) {
	m.synced = len(m.file)
	m.step(fmt.Sprintf("fsync: %d bytes on disk", m.synced))
}

// crash is a process crash: the page cache survives, nothing is lost.
func (m *recoveryMachine) crash(t *rapid.T) {
	m.step("the broker process crashes (the page cache survives)")
	m.recover(t, m.file)
}

// powerCut keeps the synced bytes and some damaged version of the rest.
func (m *recoveryMachine) powerCut(t *rapid.T) {
	unsynced := m.file[m.synced:]
	kept := m.reachedDisk(t)
	disk := bytes.Clone(m.file[:m.synced+kept])
	damage := rapid.SampledFrom([]string{"torn", "zeros", "garbage", "bitflip", "bitflip", "stale", "length"}).Draw(t, "damage")
	switch damage {
	case "zeros":
		disk = append(disk, make([]byte, rapid.IntRange(1, 200).Draw(t, "zeroBytes"))...)
	case "garbage":
		disk = append(disk, garbage(rapid.IntRange(1, 200).Draw(t, "garbageBytes"))...)
	case "bitflip":
		if kept > 0 {
			at := m.headerByte(t, m.synced, len(disk))
			if at < 0 {
				at = m.synced + rapid.IntRange(0, kept-1).Draw(t, "flippedByte")
			}
			disk[at] ^= 1 << rapid.IntRange(0, 7).Draw(t, "flippedBit")
			damage = fmt.Sprintf("bitflip at byte %d", at)
		}
	case "length":
		// A length field the disk garbled, at the edges of an int32: near
		// MaxInt32 (past any file), negative, just below a v0 message (14)
		// and a v2 header (49).
		if at := m.lengthField(t, m.synced, len(disk)); at >= 0 {
			v := rapid.SampledFrom([]uint32{0x7fffffff, 0x7ffffff5, 0x7ffffff0, 0x80000000, 0xffffffff, 13, 48}).Draw(t, "damagedLength")
			binary.BigEndian.PutUint32(disk[at:], v)
			damage = fmt.Sprintf("the length field at byte %d damaged to 0x%08x", at, v)
		}
	case "stale":
		// A block the disk never overwrote: an older batch shows up again.
		if old := kafkaRecover(disk[:m.synced], m.baseOffset, 0).batches; len(old) > 0 {
			b := old[rapid.IntRange(0, len(old)-1).Draw(t, "staleBatch")]
			disk = append(disk, disk[b.pos:b.pos+b.size]...)
			damage = fmt.Sprintf("a stale copy of the batch at position %d", b.pos)
		}
	}
	m.step(fmt.Sprintf("power cut: %d synced bytes survive, %d of %d unsynced bytes reached the disk, then %s (%d bytes on disk)",
		m.synced, kept, len(unsynced), damage, len(disk)))
	m.recover(t, disk)
}

// recover runs the learner's recovery on disk, checks it, and continues from
// what it kept (recovery flushes, so it is all synced).
func (m *recoveryMachine) recover(t *rapid.T, disk []byte) {
	if f := recoveryCase(m.r, disk, m.baseOffset, m.interval); f != nil {
		m.fail(t, f)
	}
	// Recover another segment after this one: the index returned for this
	// one must not change.
	other, _ := oneRecordBatches(m.baseOffset+7, 6)
	if f := recoveryAliasCase(m.r, recoveryInput{bytes.Clone(disk), m.baseOffset, m.interval}, recoveryInput{other, m.baseOffset + 7, 0}); f != nil {
		m.fail(t, f)
	}
	want := kafkaRecover(disk, m.baseOffset, m.interval)
	if want.validBytes < m.synced {
		m.fail(t, &kit.Failure{Rule: ruleC6, What: fmt.Sprintf("the suite's model lost synced bytes (%d < %d): a bug in the suite", want.validBytes, m.synced)})
	}
	m.file = disk[:want.validBytes]
	m.synced = want.validBytes
	m.next = m.baseOffset
	if n := len(want.batches); n > 0 {
		m.next = want.batches[n-1].lastOffset + 1
	}
	m.step(fmt.Sprintf("recovery keeps %d bytes (%d batches); appends continue at offset %d", want.validBytes, len(want.batches), m.next))
}

func (m *recoveryMachine) fail(t *rapid.T, f *kit.Failure) {
	f.Details = append(f.Details, "steps that led here (shrunk by rapid):\n  "+strings.Join(m.steps, "\n  "))
	f.Replay = m.replay
	kit.Fatal(t, f)
}

// headerByte picks a header byte of a whole batch in [from, to) of m.file, so
// that bit flips hit magic, length and offsets too, or -1 if there is none
// (flips elsewhere in a batch are caught by the CRC like the crc field's own).
func (m *recoveryMachine) headerByte(t *rapid.T, from, to int) int {
	var starts []int
	for _, b := range kafkaRecover(m.file, m.baseOffset, 0).batches {
		if b.pos >= from && b.pos+27 <= to {
			starts = append(starts, b.pos)
		}
	}
	if len(starts) == 0 {
		return -1
	}
	// Bytes of the fields recovery checks: length (first and last byte),
	// partitionLeaderEpoch (outside the CRC), magic, crc, lastOffsetDelta.
	fields := []int{8, 11, 15, 16, 20, 26}
	return rapid.SampledFrom(starts).Draw(t, "batchHit") + rapid.SampledFrom(fields).Draw(t, "headerByte")
}

// lengthField picks the length field of a whole batch in [from, to) of
// m.file, or -1 if there is none.
func (m *recoveryMachine) lengthField(t *rapid.T, from, to int) int {
	var at []int
	for _, b := range kafkaRecover(m.file, m.baseOffset, 0).batches {
		if b.pos >= from && b.pos+12 <= to {
			at = append(at, b.pos+8)
		}
	}
	if len(at) == 0 {
		return -1
	}
	return rapid.SampledFrom(at).Draw(t, "damagedBatch")
}

// reachedDisk draws how many unsynced bytes reached the disk before the power
// went: some whole batches, then part of the next one (a torn write).
func (m *recoveryMachine) reachedDisk(t *rapid.T) int {
	var sizes []int
	for _, b := range kafkaRecover(m.file, m.baseOffset, 0).batches {
		if b.pos >= m.synced {
			sizes = append(sizes, b.size)
		}
	}
	whole := rapid.IntRange(0, len(sizes)).Draw(t, "unsyncedBatchesOnDisk")
	kept := 0
	for _, n := range sizes[:whole] {
		kept += n
	}
	if whole < len(sizes) {
		kept += rapid.IntRange(0, sizes[whole]-1).Draw(t, "tornBytes")
	}
	return kept
}
