package bench

import (
	"hash/crc32"
	"runtime"
	"strconv"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// warmupOps is how many untimed operations run before an implementation's
// timing starts: they fill reused buffers and caches.
const warmupOps = 3

// start prepares an implementation's run the way bench/README.md's method asks: a
// GC, so that the previous implementation's garbage is not collected on this
// one's clock, bytes per op for MB/s, and allocation counts. It returns the
// started CPU clock, to report after the loop.
func start(b *testing.B, bytes int) *cpuClock {
	b.Helper()
	runtime.GC()
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	c := &cpuClock{}
	c.start()
	return c
}

// codecFixture is one workload, ready in every implementation's input form.
type codecFixture struct {
	batch   *kafkalog.RecordBatch
	kh      kmsg.RecordBatch
	krecs   []kmsg.Record
	encoded []byte
	dst     []byte
}

func newCodecFixture(w Workload) *codecFixture {
	f := &codecFixture{batch: w.Batch()}
	f.kh, f.krecs = KmsgFromBatch(f.batch)
	f.encoded = f.batch.AppendTo(nil)
	f.dst = Prewarm(2 * len(f.encoded))
	return f
}

// forEachWorkload runs bench for every workload as
// <name>/records=N/value=V/impl=..., the implementations of one workload back to back.
func forEachWorkload(b *testing.B, bench func(b *testing.B, f *codecFixture)) {
	for _, n := range recordCounts(Workloads()) {
		b.Run("records="+strconv.Itoa(n), func(b *testing.B) {
			for _, w := range Workloads() {
				if w.Records == n {
					f := newCodecFixture(w)
					b.Run("value="+strconv.Itoa(w.ValueBytes), func(b *testing.B) { bench(b, f) })
				}
			}
		})
	}
}

// recordCounts returns the distinct record counts of ws, in order.
func recordCounts(ws []Workload) []int {
	var ns []int
	for _, w := range ws {
		if len(ns) == 0 || ns[len(ns)-1] != w.Records {
			ns = append(ns, w.Records)
		}
	}
	return ns
}

// BenchmarkEncode appends one batch to a reused buffer: kafkalog's
// RecordBatch.AppendTo, kmsg driven as kgo's producer drives it (record lengths
// computed, header, records, length and CRC patched), and the floor
// limit-copycrc (copy every key and value, CRC the result).
func BenchmarkEncode(b *testing.B) {
	forEachWorkload(b, func(b *testing.B, f *codecFixture) {
		b.Run("impl=kafkalog", f.encodeKafkalog)
		b.Run("impl=kmsg", f.encodeKmsg)
		b.Run("impl=limit-copycrc", f.encodeFloor)
	})
}

func (f *codecFixture) encodeKafkalog(b *testing.B) {
	dst := f.dst
	for range warmupOps {
		dst = f.batch.AppendTo(dst[:0])
	}
	clk := start(b, len(f.encoded))
	for b.Loop() {
		dst = f.batch.AppendTo(dst[:0])
	}
	clk.report(b)
	f.dst = dst
}

func (f *codecFixture) encodeKmsg(b *testing.B) {
	dst := f.dst
	for range warmupOps {
		dst = KmsgAppendBatch(dst[:0], f.kh, f.krecs)
	}
	clk := start(b, len(f.encoded))
	for b.Loop() {
		dst = KmsgAppendBatch(dst[:0], f.kh, f.krecs)
	}
	clk.report(b)
	f.dst = dst
}

func (f *codecFixture) encodeFloor(b *testing.B) {
	dst := f.dst
	for range warmupOps {
		dst = AppendCopyCRC(dst[:0], f.batch.Records)
	}
	clk := start(b, len(f.encoded))
	for b.Loop() {
		dst = AppendCopyCRC(dst[:0], f.batch.Records)
	}
	clk.report(b)
	f.dst = dst
}

// BenchmarkDecode validates (length, magic, CRC-32C) and decodes one batch
// into a reused record slice: kafkalog's Decoder, kmsg as kgo's consumer reads
// it, and the floor limit-crc (CRC the batch, nothing else).
func BenchmarkDecode(b *testing.B) {
	forEachWorkload(b, func(b *testing.B, f *codecFixture) {
		b.Run("impl=kafkalog", f.decodeKafkalog)
		b.Run("impl=kmsg", f.decodeKmsg)
		b.Run("impl=limit-crc", f.decodeFloor)
	})
}

func (f *codecFixture) decodeKafkalog(b *testing.B) {
	var d kafkalog.Decoder
	var rb kafkalog.RecordBatch
	for range warmupOps {
		if _, err := d.Decode(f.encoded, &rb); err != nil {
			b.Fatal(err)
		}
	}
	clk := start(b, len(f.encoded))
	for b.Loop() {
		if _, err := d.Decode(f.encoded, &rb); err != nil {
			b.Fatal(err)
		}
	}
	clk.report(b)
}

func (f *codecFixture) decodeKmsg(b *testing.B) {
	var d KmsgDecoder
	for range warmupOps {
		if err := d.Decode(f.encoded); err != nil {
			b.Fatal(err)
		}
	}
	clk := start(b, len(f.encoded))
	for b.Loop() {
		if err := d.Decode(f.encoded); err != nil {
			b.Fatal(err)
		}
	}
	clk.report(b)
}

func (f *codecFixture) decodeFloor(b *testing.B) {
	for range warmupOps {
		if err := CheckCRC(f.encoded); err != nil {
			b.Fatal(err)
		}
	}
	clk := start(b, len(f.encoded))
	for b.Loop() {
		if err := CheckCRC(f.encoded); err != nil {
			b.Fatal(err)
		}
	}
	clk.report(b)
}

// BenchmarkCRC32C runs kafkalog.CRC32C over 1 KiB and 1 MiB in cache, beside
// hash/crc32 called directly (the wrapper must cost nothing) and the floor
// limit-memcpy (copying the same bytes; a 1 MiB CRC-32C takes about 1.47x a 1 MiB copy).
func BenchmarkCRC32C(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1KiB", 1 << 10}, {"1MiB", 1 << 20}} {
		src := Prewarm(size.n)[:size.n]
		dst := Prewarm(size.n)[:size.n]
		var sink uint32
		b.Run("size="+size.name, func(b *testing.B) {
			b.Run("impl=kafkalog", func(b *testing.B) {
				clk := start(b, size.n)
				for b.Loop() {
					sink += kafkalog.CRC32C(src)
				}
				clk.report(b)
			})
			b.Run("impl=hash-crc32", func(b *testing.B) {
				clk := start(b, size.n)
				for b.Loop() {
					sink += crc32.Checksum(src, castagnoli)
				}
				clk.report(b)
			})
			b.Run("impl=limit-memcpy", func(b *testing.B) {
				clk := start(b, size.n)
				for b.Loop() {
					copy(dst, src)
				}
				clk.report(b)
			})
		})
		_ = sink
	}
}
