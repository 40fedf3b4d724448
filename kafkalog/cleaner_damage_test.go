package kafkalog

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/vfs"
)

// damagedLogDir is where the damage tests keep their logs.
const damagedLogDir = "logs/c-"

// testingT is what both *testing.T and *rapid.T offer the helpers below.
type testingT interface {
	require.TestingT
	Helper()
}

// damageableLog writes a compacted log of three segments whose batch 1 (the
// second of segment 0, no offset index entry pointing at it) holds records
// "a" (superseded later) and "u1"; the other batches hold one record each,
// keys k0..k3 over and over. It closes the log, as a clean shutdown does, and
// returns where batch 1 lies in segment 0's .log.
func damageableLog(t testing.TB, fsys *vfs.MemFS, dir string) (pos, size int64) {
	t.Helper()
	l, err := Open(fsys, dir, compactConfig(), 0)
	require.NoError(t, err)
	appendLeader(t, l, encodeBatch(0, 1, kv{key: "a", value: "first"}), 0)
	pos = l.active().size
	appendLeader(t, l, encodeBatch(0, 1, kv{key: "a", value: "second"}, kv{key: "u1", value: "unique"}), 0)
	size = l.active().size - pos
	for i := 0; len(l.Segments()) < 3; i++ {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: fmt.Sprintf("k%d", i%4), value: fmt.Sprintf("value-%03d", i)}), 0)
	}
	appendLeader(t, l, encodeBatch(0, 1, kv{key: "a", value: "third"}), 0)
	require.NoError(t, l.Roll(0))
	require.NoError(t, l.Close())
	return pos, size
}

// reopenClean opens dir as a broker does after a clean shutdown: nothing
// below the recovery point (here the LEO) is recovered, only verified.
func reopenClean(t testingT, fsys vfs.FS, dir string) (*Log, error) {
	t.Helper()
	return Open(fsys, dir, compactConfig(), 0, WithCleanShutdown(), WithRecoveryPoint(1<<40))
}

// segmentBytes returns every .log file's bytes of dir, by name.
func segmentBytes(t testingT, l *Log) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, s := range l.Segments() {
		b := make([]byte, s.Size())
		require.NoError(t, vfs.ReadAtFull(s.log, b, 0))
		out[s.log.Name()] = b
	}
	return out
}

// A cleaning round that meets bytes it cannot parse fails with
// ErrUncleanable and leaves the log as it was, usable; a batch whose CRC
// no longer matches but whose records parse is cleaned, as Kafka 3.7's
// cleaner (which checks no CRC) does: copied with its wrong CRC when every
// record stays, rebuilt with a new CRC when one goes.
func TestCleanDamagedBatch(t *testing.T) {
	flip := func(at func(pos, size int64) int64) func(b []byte, pos, size int64) {
		return func(b []byte, pos, size int64) { b[at(pos, size)] ^= 0xff }
	}
	for _, tc := range []struct {
		name   string
		damage func(b []byte, pos, size int64)
		cause  error // nil: the round cleans
		// after the round: whether batch 1's CRC holds, and u1's value
		crcHolds bool
		value    string
	}{
		{name: "magic byte flipped", damage: flip(func(p, _ int64) int64 { return p + 16 }), cause: ErrUnknownMagic},
		{name: "magic byte zeroed (a legacy message)", damage: func(b []byte, p, _ int64) { b[p+16] = 0 }, cause: ErrLegacyFormat},
		{name: "length below the minimum", damage: func(b []byte, p, _ int64) { copy(b[p+8:], []byte{0, 0, 0, 1}) }, cause: ErrCorruptBatch},
		{name: "length past the segment's end", damage: func(b []byte, p, _ int64) { copy(b[p+8:], []byte{0, 0, 0x7f, 0}) }, cause: ErrCorruptBatch},
		{name: "record count flipped", damage: flip(func(p, _ int64) int64 { return p + 57 }), cause: ErrCorruptBatch},
		{name: "a record's length flipped", damage: flip(func(p, _ int64) int64 { return p + 61 }), cause: ErrInvalidRecord},
		{name: "kept record's value flipped, a record dropped: rebuilt", damage: flip(func(p, n int64) int64 { return p + n - 2 }),
			crcHolds: true, value: string(append([]byte("uniqu"), 'e'^0xff))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			dir := damagedLogDir + "0"
			pos, size := damageableLog(t, fsys, dir)
			name := dir + "/00000000000000000000.log"
			require.NoError(t, fsys.DamageDisk(name, 0, pos+size, func(b []byte) { tc.damage(b, pos, size) }))
			l, err := reopenClean(t, fsys, dir)
			require.NoError(t, err, "the damage lies where a clean start does not look")
			before := segmentBytes(t, l)
			beforeRead, beforeErr := readAllErr(l)

			res, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
			if tc.cause != nil {
				require.ErrorIs(t, err, ErrUncleanable)
				require.ErrorIs(t, err, tc.cause)
				require.Empty(t, res.Groups)
				if diff := cmp.Diff(before, segmentBytes(t, l)); diff != "" {
					t.Fatalf("segments after a failed round (-before +after):\n%s", diff)
				}
				afterRead, afterErr := readAllErr(l)
				require.Equal(t, beforeRead, afterRead, "reads give what they gave")
				require.Equal(t, fmt.Sprint(beforeErr), fmt.Sprint(afterErr))
				_, err := l.AppendAsLeader(encodeBatch(0, 1, kv{key: "n", value: "new"}), 0, 200)
				require.NoError(t, err, "the log takes appends after a failed round")
				return
			}
			require.NoError(t, err)
			var found bool
			for _, s := range l.Segments() {
				raw := segmentBytes(t, l)[s.log.Name()]
				for off := int64(0); off < int64(len(raw)); {
					h, err := ReadBatchHeader(raw[off:])
					require.NoError(t, err)
					if h.BaseOffset == 1 {
						found = true
						_, _, crcErr := CheckBatch(raw[off : off+h.Size()])
						require.Equal(t, tc.crcHolds, crcErr == nil, "CRC of batch 1 after cleaning: %v", crcErr)
						b, err := decodeTrusting(raw[off : off+h.Size()])
						require.NoError(t, err)
						require.Equal(t, tc.value, string(b.Records[len(b.Records)-1].Value))
					}
					off += h.Size()
				}
			}
			require.True(t, found, "batch 1 stays: u1 is its key's latest")
		})
	}
}

// A batch with a wrong CRC whose records all stay is copied as it is: the
// cleaner neither checks nor fixes its CRC, and a reader still refuses it.
func TestCleanCopiesBatchWithWrongCRC(t *testing.T) {
	fsys := vfs.NewMem()
	dir := damagedLogDir + "0"
	l, err := Open(fsys, dir, compactConfig(), 0)
	require.NoError(t, err)
	appendLeader(t, l, encodeBatch(0, 1, kv{key: "a", value: "first"}), 0)
	pos := l.active().size
	appendLeader(t, l, encodeBatch(0, 1, kv{key: "u", value: "only"}), 0)
	size := l.active().size - pos
	for i := 0; len(l.Segments()) < 3; i++ {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: "a", value: fmt.Sprint(i)}), 0)
	}
	require.NoError(t, l.Roll(0))
	require.NoError(t, l.Close())
	require.NoError(t, fsys.DamageDisk(dir+"/00000000000000000000.log", pos+size-2, 1, func(b []byte) { b[0] ^= 0xff }))
	l, err = reopenClean(t, fsys, dir)
	require.NoError(t, err)
	damaged := segmentBytes(t, l)[dir+"/00000000000000000000.log"][pos : pos+size]

	res, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, res.Groups)
	var all []byte
	for _, b := range segmentBytes(t, l) {
		all = append(all, b...)
	}
	require.Contains(t, string(all), string(damaged), "the damaged batch is copied byte for byte")
	_, _, err = CheckBatch(damaged)
	require.ErrorIs(t, err, ErrCorruptBatch)
}

// Random damage (bytes flipped or zeroed, a file cut short) to the
// segments of some compacted logs in one log dir: every log a clean start
// opens is then cleaned or refused with ErrUncleanable, never anything
// else; a refused round leaves every segment as it was and the log
// usable; the undamaged logs are cleaned to their keys' latest values.
func TestCleanUnderRandomDamage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := vfs.NewMem()
		logs := rapid.IntRange(2, 4).Draw(t, "logs")
		latest := make([]map[string]string, logs)
		for i := range logs {
			latest[i] = writeRandomCompacted(t, fsys, damagedLogDir+fmt.Sprint(i))
		}
		damaged := map[int]bool{}
		for range rapid.IntRange(1, 4).Draw(t, "damages") {
			i := rapid.IntRange(1, logs-1).Draw(t, "log") // log 0 stays whole
			damaged[i] = true
			damageRandomSegment(t, fsys, damagedLogDir+fmt.Sprint(i))
		}
		for i := range logs {
			dir := damagedLogDir + fmt.Sprint(i)
			l, err := reopenClean(t, fsys, dir)
			if err != nil {
				require.True(t, damaged[i], "log %d has no damage, yet: %v", i, err)
				continue // the broker's start fails: not the cleaner's business
			}
			before := segmentBytes(t, l)
			res, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
			switch {
			case err != nil && !errors.Is(err, ErrUncleanable):
				t.Fatalf("log %d: the cleaner failed with %v, not ErrUncleanable", i, err)
			case err != nil && !damaged[i]:
				t.Fatalf("log %d has no damage, yet the cleaner refused it: %v", i, err)
			case err != nil && len(res.Groups) == 0:
				if diff := cmp.Diff(before, segmentBytes(t, l)); diff != "" {
					t.Fatalf("log %d: segments after a refused round (-before +after):\n%s", i, diff)
				}
			}
			require.NoError(t, l.usable(), "log %d is usable after the round", i)
			if !damaged[i] {
				if diff := cmp.Diff(latest[i], latestValues(t, l)); diff != "" {
					t.Fatalf("log %d: each key's latest value after cleaning (-want +got):\n%s", i, diff)
				}
			}
			_, err = l.AppendAsLeader(encodeBatch(0, 1, kv{key: "n", value: "new"}), 0, 200)
			require.NoError(t, err, "log %d takes appends after the round", i)
			require.NoError(t, l.Close())
		}
	})
}

// writeRandomCompacted writes a compacted log of random keyed batches (some
// with tombstones) in at least three segments, closes it, and returns each
// key's latest value ("" for none after a tombstone).
func writeRandomCompacted(t *rapid.T, fsys vfs.FS, dir string) map[string]string {
	l, err := Open(fsys, dir, compactConfig(), 0)
	require.NoError(t, err)
	latest := map[string]string{}
	for n := 0; len(l.Segments()) < 3; n++ {
		var recs []kv
		for j := range rapid.IntRange(1, 4).Draw(t, "records") {
			r := kv{key: fmt.Sprintf("k%d", rapid.IntRange(0, 9).Draw(t, "key")), value: fmt.Sprintf("v%d.%d", n, j)}
			r.tombstone = rapid.IntRange(0, 9).Draw(t, "tombstone") == 0
			recs = append(recs, r)
			if r.tombstone {
				delete(latest, r.key)
			} else {
				latest[r.key] = r.value
			}
		}
		_, err := l.AppendAsLeader(encodeBatch(0, 1, recs...), 0, 0)
		require.NoError(t, err)
	}
	require.NoError(t, l.Roll(0))
	require.NoError(t, l.Close())
	return latest
}

// damageRandomSegment flips a byte, zeroes a few or cuts the file short,
// in a random segment's .log of dir.
func damageRandomSegment(t *rapid.T, fsys *vfs.MemFS, dir string) {
	names, err := fsys.List(dir)
	require.NoError(t, err)
	var logs []string
	for _, e := range names {
		if len(e) == 24 && e[20:] == ".log" {
			logs = append(logs, dir+"/"+e)
		}
	}
	name := rapid.SampledFrom(logs).Draw(t, "segment")
	durable, _, err := fsys.SizeOnDisk(name)
	require.NoError(t, err)
	if durable == 0 {
		return
	}
	at := rapid.Int64Range(0, durable-1).Draw(t, "at")
	switch rapid.SampledFrom([]string{"flip", "zero", "cut"}).Draw(t, "damage") {
	case "flip":
		require.NoError(t, fsys.DamageDisk(name, at, 1, func(b []byte) { b[0] ^= byte(rapid.IntRange(1, 255).Draw(t, "mask")) }))
	case "zero":
		n := min(int64(rapid.IntRange(1, 8).Draw(t, "n")), durable-at)
		require.NoError(t, fsys.DamageDisk(name, at, n, func(b []byte) { clear(b) }))
	case "cut":
		f, err := fsys.OpenReadWrite(name)
		require.NoError(t, err)
		require.NoError(t, f.Truncate(at))
		require.NoError(t, f.Sync())
		require.NoError(t, f.Close())
	}
}

// latestValues returns the latest value of each key the log holds (none
// for a key whose latest record is a tombstone).
func latestValues(t testingT, l *Log) map[string]string {
	t.Helper()
	out := map[string]string{}
	var batches []RecordBatch
	require.NoError(t, l.eachBatch(l.LogStartOffset(), l.LogEndOffset(), func(_ *Segment, _ *BatchHeader, raw []byte) (bool, error) {
		b, _, err := ReadBatch(append([]byte(nil), raw...))
		batches = append(batches, b)
		return err == nil, err
	}))
	for _, b := range batches {
		for _, r := range b.Records {
			if r.Value == nil {
				delete(out, string(r.Key))
			} else {
				out[string(r.Key)] = string(r.Value)
			}
		}
	}
	return out
}
