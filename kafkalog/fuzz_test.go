package kafkalog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// Fuzz targets for every decoder. Each checks that any input gives a value or
// an error (never a panic), that what decodes re-encodes to something that
// decodes the same, and that nothing grows beyond what the input bytes (or the
// decompression cap) can justify. Seed corpora live in testdata/fuzz/FuzzX/;
// TestFuzzSeedCorpus -update rewrites them.

// fuzzLimit caps decompression in the fuzz targets.
const fuzzLimit = 1 << 20

func FuzzVarint(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzVarint"] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, n := Varint(data)
		u, un := Uvarint(data)
		if n != un || n > MaxVarintLen || n > len(data) || n < -MaxVarintLen {
			t.Fatalf("Varint read n=%d, Uvarint n=%d from %d bytes", n, un, len(data))
		}
		if n == 0 && len(data) >= MaxVarintLen {
			t.Fatalf("reported truncation with %d bytes present", len(data))
		}
		if n > 0 {
			if int32(u>>1)^-int32(u&1) != v {
				t.Fatalf("Varint %d is not the zigzag of Uvarint %d", v, u)
			}
			if back, m := Varint(AppendVarint(nil, v)); back != v || m != VarintLen(v) || m > n {
				t.Fatalf("varint %d re-encoded reads %d after %d bytes (input used %d)", v, back, m, n)
			}
		}
	})
}

func FuzzVarlong(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzVarlong"] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, n := Varlong(data)
		if n > MaxVarlongLen || n > len(data) || n < -MaxVarlongLen {
			t.Fatalf("Varlong read n=%d from %d bytes", n, len(data))
		}
		if n == 0 && len(data) >= MaxVarlongLen {
			t.Fatalf("reported truncation with %d bytes present", len(data))
		}
		if n > 0 {
			if back, m := Varlong(AppendVarlong(nil, v)); back != v || m != VarlongLen(v) || m > n {
				t.Fatalf("varlong %d re-encoded reads %d after %d bytes (input used %d)", v, back, m, n)
			}
		}
	})
}

func FuzzUvarint(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzUvarint"] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, n := Uvarint(data)
		if n > MaxVarintLen || n > len(data) || n < -MaxVarintLen {
			t.Fatalf("Uvarint read n=%d from %d bytes", n, len(data))
		}
		if n > 0 {
			enc := AppendUvarint(nil, v)
			if back, m := Uvarint(enc); back != v || m != len(enc) || len(enc) > n {
				t.Fatalf("uvarint %d re-encoded as %x reads %d", v, enc, back)
			}
			// Canonical input (no masked bits, no padding) re-encodes to itself.
			if n == len(enc) && data[n-1] < 0x10 && !bytes.Equal(enc, data[:n]) {
				t.Fatalf("canonical uvarint %x re-encoded as %x", data[:n], enc)
			}
		}
	})
}

// sealBatch makes data look like a v2 batch (length and CRC right) so that the
// fuzzer reaches the record parser instead of dying at the CRC.
func sealBatch(data []byte) []byte {
	b := bytes.Clone(data)
	if len(b) < BatchHeaderLen {
		return b
	}
	b[posMagic] = MagicV2
	binary.BigEndian.PutUint32(b[posLength:], uint32(len(b)-LogOverhead))
	binary.BigEndian.PutUint32(b[posCRC:], CRC32C(b[posAttributes:]))
	return b
}

func FuzzReadBatch(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzReadBatch"] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > BatchHeaderLen {
			checkFastMatchesCareful(t, data[BatchHeaderLen:], int32(binary.BigEndian.Uint32(data[posRecordsCount:])))
		}
		for _, in := range [][]byte{data, sealBatch(data)} {
			d := Decoder{MaxDecompressedBytes: fuzzLimit}
			var b RecordBatch
			n, err := d.Decode(in, &b)
			if err != nil {
				var be *BatchError
				if n != 0 || !errors.As(err, &be) {
					t.Fatalf("failed decode returned n=%d and %T %v, want 0 and a *BatchError", n, err, err)
				}
				continue
			}
			checkDecodedBounds(t, in[:n], &b, &d)
			checkReencodes(t, &b)
		}
	})
}

// checkFastMatchesCareful: the fast record decoder and the careful
// recordReader accept the same records section and decode it the same.
func checkFastMatchesCareful(t *testing.T, p []byte, count int32) {
	fast, _, fastErr := decodeRecords(p, count, nil, nil, nil)
	var careful []Record
	var hdrs []Header
	rr := recordReader{p: p}
	for i := int32(0); i < count && rr.err == nil && rr.pos < len(p); i++ {
		careful = append(careful, Record{})
		hdrs = rr.next(&careful[len(careful)-1], hdrs)
	}
	carefulOK := rr.err == nil && rr.pos == len(p) && len(careful) == int(max(count, 0))
	if carefulOK != (fastErr == nil) {
		t.Fatalf("careful reader ok=%v (%v), fast path error %v", carefulOK, rr.err, fastErr)
	}
	if carefulOK {
		if len(careful) == 0 {
			careful = nil
		}
		if len(fast) == 0 {
			fast = nil
		}
		if diff := cmp.Diff(careful, fast); diff != "" {
			t.Fatalf("fast path decodes differently (-careful +fast):\n%s", diff)
		}
	}
}

// checkDecodedBounds: nothing the decoder holds is larger than the bytes it was
// given (or the decompression cap) can justify.
func checkDecodedBounds(t *testing.T, in []byte, b *RecordBatch, d *Decoder) {
	payload := len(in) - BatchHeaderLen
	if b.Attributes.Compression() != CompressionNone {
		if len(d.buf) > fuzzLimit {
			t.Fatalf("decompressed %d bytes past the %d cap", len(d.buf), fuzzLimit)
		}
		payload = len(d.buf)
	}
	if len(b.Records) > payload/minRecordLen || cap(b.Records) > 2*(payload/minRecordLen)+8 {
		t.Fatalf("%d records (cap %d) from %d record bytes", len(b.Records), cap(b.Records), payload)
	}
	if cap(d.headers) > payload+8 {
		t.Fatalf("header slice of cap %d from %d record bytes", cap(d.headers), payload)
	}
	if int(b.NumRecords) != len(b.Records) {
		t.Fatalf("decoded %d records, header says %d", len(b.Records), b.NumRecords)
	}
}

// checkReencodes: a decoded batch encodes to a batch that decodes the same.
func checkReencodes(t *testing.T, b *RecordBatch) {
	enc := b.AppendTo(nil)
	again, n, err := ReadBatch(enc)
	if err != nil || n != len(enc) {
		t.Fatalf("re-encoded batch does not decode: n=%d of %d, %v", n, len(enc), err)
	}
	want := *b
	want.BatchLength, want.CRC = again.BatchLength, again.CRC
	if diff := cmp.Diff(want, again); diff != "" {
		t.Fatalf("decode(encode(decoded)) differs (-want +got):\n%s", diff)
	}
}

// sealLegacy fixes the size and CRC-32/IEEE of a legacy message.
func sealLegacy(data []byte) []byte {
	b := bytes.Clone(data)
	if len(b) < HeaderLenUpToMagic {
		return b
	}
	b[posMagic] &= 1
	binary.BigEndian.PutUint32(b[posLength:], uint32(len(b)-LogOverhead))
	binary.BigEndian.PutUint32(b[LogOverhead:], crc32.ChecksumIEEE(b[posMagic:]))
	return b
}

func FuzzLegacyMessage(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzLegacyMessage"] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, sealLegacy(data)} {
			m, n, err := ReadLegacyMessage(in)
			if err != nil {
				continue
			}
			if n > len(in) || len(m.Key)+len(m.Value) > n {
				t.Fatalf("message of %d bytes with a %d-byte key and %d-byte value from %d bytes", n, len(m.Key), len(m.Value), len(in))
			}
			again, _, err := ReadLegacyMessage(m.AppendTo(nil))
			if err != nil {
				t.Fatalf("re-encoded message does not read: %v", err)
			}
			again.MessageSize, again.CRC = m.MessageSize, m.CRC
			if diff := cmp.Diff(m, again); diff != "" {
				t.Fatalf("read(write(message)) differs (-want +got):\n%s", diff)
			}
			inner, err := DecompressLegacy(&m, nil, fuzzLimit)
			if err == nil && m.Compression() != CompressionNone && len(inner) > fuzzLimit/(LogOverhead+LegacyOverheadV0) {
				t.Fatalf("%d inner messages from at most %d decompressed bytes", len(inner), fuzzLimit)
			}
		}
	})
}

func FuzzBatchIter(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzBatchIter"] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		it := NewBatchIter(data, 100)
		next := int64(100)
		var d Decoder
		d.MaxDecompressedBytes = fuzzLimit
		var b RecordBatch
		for it.Next() {
			e := it.Entry()
			if e.Pos != next || len(e.Bytes) < LogOverhead+LegacyOverheadV0 {
				t.Fatalf("entry at %d of %d bytes, expected one at %d", e.Pos, len(e.Bytes), next)
			}
			next += int64(len(e.Bytes))
			if e.Check() == nil && e.Magic == MagicV2 {
				_, _ = d.Decode(e.Bytes, &b)
			}
		}
		torn, pos, n := it.TornTail()
		switch {
		case it.Err() != nil && torn:
			t.Fatalf("both an error (%v) and a torn tail", it.Err())
		case it.Err() == nil && !torn && next != 100+int64(len(data)):
			t.Fatalf("stopped cleanly at %d of %d bytes", next-100, len(data))
		case torn && (pos != next || pos+int64(n) != 100+int64(len(data))):
			t.Fatalf("torn tail of %d bytes at %d; entries end at %d, input at %d", n, pos, next, 100+len(data))
		}
	})
}

func FuzzControlRecord(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzControlRecord"] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if k, err := ParseControlRecordKey(data); err == nil {
			if k.Type != ControlUnknown {
				if back, _ := ParseControlRecordKey(AppendControlRecordKey(nil, k.Type)); back.Type != k.Type {
					t.Fatalf("control type %v re-encoded reads %v", k.Type, back.Type)
				}
			} else if k.TypeID >= 0 && k.TypeID <= int16(ControlKRaftVoters) {
				t.Fatalf("known type id %d read as UNKNOWN", k.TypeID)
			}
		} else if len(data) >= controlRecordKeyLen && data[0] < 0x80 {
			t.Fatalf("4+ bytes with a non-negative version rejected: %v", err)
		}
		if m, err := ParseEndTxnMarker(data); err == nil {
			if back, _ := ParseEndTxnMarker(m.AppendTo(nil)); back.CoordinatorEpoch != m.CoordinatorEpoch {
				t.Fatalf("marker %+v re-encoded reads %+v", m, back)
			}
		}
	})
}

func FuzzDecompress(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzDecompress"] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		c := Compression(data[0] % 8)
		out, err := Decompress(nil, c, data[1:], fuzzLimit)
		if err != nil {
			if c <= CompressionZstd && c != CompressionNone && !errors.Is(err, ErrInvalidRecord) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("%v: error %v is neither ErrInvalidRecord nor ErrTooLarge", c, err)
			}
			return
		}
		if len(out) > fuzzLimit {
			t.Fatalf("%v produced %d bytes past the %d cap", c, len(out), fuzzLimit)
		}
		enc, err := Compress(nil, c, out)
		require.NoError(t, err)
		back, err := Decompress(nil, c, enc, fuzzLimit)
		if err != nil || !bytes.Equal(back, out) {
			t.Fatalf("%v: round trip of %d bytes gave %d bytes, %v", c, len(out), len(back), err)
		}
	})
}

// fuzzSeeds are the seed inputs of every target: golden batches, real
// fixtures, compressed streams, and their truncations.
func fuzzSeeds(tb testing.TB) map[string][][]byte {
	var batches [][]byte
	for _, tc := range goldenCases() {
		batches = append(batches, tc.batch.AppendTo(nil))
	}
	for _, c := range []Compression{CompressionGzip, CompressionSnappy, CompressionLZ4, CompressionZstd} {
		b := threeRecords(c)
		batches = append(batches, b.AppendTo(nil))
	}
	fixture := func(parts ...string) []byte {
		b, err := os.ReadFile(filepath.Join(append([]string{"testdata", "kafka-real"}, parts...)...))
		require.NoError(tb, err)
		return b
	}
	mixed := fixture("segmentio-kafka-go-fetch", "v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc.records.log")
	snappyRaw := fixture("kafkajs-fetch", "requests_fetch_v4_response_snappy.records.log")
	withHeaders := fixture("kafkajs-fetch", "requests_fetch_v4_response.records.log")
	batches = append(batches, snappyRaw, withHeaders)

	var legacy [][]byte
	it := NewBatchIter(mixed, 0)
	for it.Next() {
		if it.Entry().Magic < MagicV2 && len(legacy) < 4 {
			legacy = append(legacy, it.Entry().Bytes)
		}
	}
	legacy = append(legacy, (&LegacyMessage{Magic: MagicV0, Key: []byte("k"), Value: []byte("v")}).AppendTo(nil))

	var streams [][]byte
	raw := []byte("records records records records")
	for c := CompressionNone; c <= CompressionZstd; c++ {
		enc, err := Compress(nil, c, raw)
		require.NoError(tb, err)
		streams = append(streams, append([]byte{byte(c)}, enc...))
	}
	streams = append(streams, append([]byte{byte(CompressionSnappy)}, snappyRaw[BatchHeaderLen:]...))

	cut := func(in [][]byte) [][]byte {
		out := append([][]byte(nil), in...)
		for _, b := range in {
			out = append(out, b[:len(b)/2], b[:min(len(b), BatchHeaderLen)])
		}
		return out
	}
	return map[string][][]byte{
		"FuzzVarint":        {{0x00}, {0x7f}, {0x80, 0x01}, {0xff, 0xff, 0xff, 0xff, 0x0f}, {0xff, 0xff, 0xff, 0xff, 0x7f}, {0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, {0x80}},
		"FuzzVarlong":       {{0x00}, {0xe0, 0xd4, 0x03}, bytes.Repeat([]byte{0xff}, 11), append(bytes.Repeat([]byte{0xfe}, 1), bytes.Repeat([]byte{0xff}, 8)...)},
		"FuzzUvarint":       {{0x00}, {0xff, 0x3f}, {0xff, 0xff, 0xff, 0xff, 0x0f}, {0x80, 0x80, 0x80, 0x80, 0x08}, {0xff, 0xff, 0xff, 0xff, 0x7f}},
		"FuzzReadBatch":     cut(batches),
		"FuzzLegacyMessage": cut(legacy),
		"FuzzBatchIter":     {mixed, mixed[:len(mixed)-7], withHeaders, batches[0], fixture("donaldy-kafka-2.7.1", "__consumer_offsets-39", "00000000000000000000.log")},
		"FuzzControlRecord": {{0, 0, 0, 1}, {0, 0, 0, 2}, {0, 0, 0, 0, 0, 15}, {0xff, 0xff, 0, 1}, {0, 0, 0x7f, 0xff}},
		"FuzzDecompress":    cut(streams),
	}
}

// TestFuzzSeedCorpus checks that every seed is committed under
// testdata/fuzz/FuzzX/ (so that plain go test runs them and go test -fuzz starts
// from them); -update writes them.
func TestFuzzSeedCorpus(t *testing.T) {
	for target, seeds := range fuzzSeeds(t) {
		dir := filepath.Join("testdata", "fuzz", target)
		for i, s := range seeds {
			path := filepath.Join(dir, fmt.Sprintf("seed-%02d", i))
			want := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
			if *update {
				require.NoError(t, os.MkdirAll(dir, 0o755))
				require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
			}
			got, err := os.ReadFile(path)
			require.NoError(t, err, "seed corpus file (run with -update to write it)")
			if string(got) != want {
				t.Errorf("%s differs from the seed it should hold; run with -update", path)
			}
		}
	}
}
