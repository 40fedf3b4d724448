package dumplog

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

// dumpBytes runs dump-log over one file holding b, in a MemFS.
func dumpBytes(t *testing.T, name string, b []byte, opts dumpOptions) (string, bool) {
	t.Helper()
	fsys := vfs.NewMem()
	f, err := fsys.Create(name)
	require.NoError(t, err)
	_, err = f.WriteAt(b, 0)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	var out, errw bytes.Buffer
	w := bufio.NewWriter(&out)
	d := &dumper{fsys: fsys, opts: opts, out: w, errw: &errw, idxMismatch: map[string][]offsetPair{}, nonConsecutive: map[string][]offsetPair{}}
	d.dumpFile(name)
	d.printSummaries()
	require.NoError(t, w.Flush())
	return out.String() + errw.String(), d.failed
}

// The seeds are the command's golden cases' files.
const (
	cmdTestdata = "../../cmd/kafkalive/testdata"
	cleaned     = cmdTestdata + "/sample/__consumer_offsets-39/00000000000000000000.log"
	gzipSample  = cmdTestdata + "/sample/gzip-topic-0/00000000000000000000.log"
	realDir     = "../../kafkalog/testdata/kafka-real"
	dumpCases   = cmdTestdata + "/dumplog"
)

func fuzzSeeds(f *testing.F, files ...string) {
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// FuzzDumpLog feeds arbitrary bytes to dump-log as a segment: it must print
// what it can and never panic or hang.
func FuzzDumpLog(f *testing.F) {
	fuzzSeeds(f, cleaned, gzipSample, dumpCases+"/torn/00000000000000000000.log", dumpCases+"/corrupt-crc/00000000000000000000.log",
		realDir+"/segmentio-kafka-go-fetch/v2bc-v1-v1c.records.log", realDir+"/kafkajs-fetch/requests_fetch_v4_response_snappy.records.log")
	f.Fuzz(func(t *testing.T, b []byte) {
		out, failed := dumpBytes(t, "00000000000000000000.log", b, dumpOptions{deep: true, printData: true, maxBytes: 1<<31 - 1, maxMessageSize: defaultMaxMessageSize})
		if len(b) > 0 && !failed && bytes.Contains([]byte(out), []byte("invalid bytes")) {
			t.Fatalf("reported invalid bytes but did not fail:\n%s", out)
		}
	})
}

// FuzzDumpOffsetsDecoder feeds arbitrary keys and values to the
// __consumer_offsets decoder.
func FuzzDumpOffsetsDecoder(f *testing.F) {
	f.Add([]byte("\x00\x01\x00\x05group\x00\x05topic\x00\x00\x00\x01"), []byte("\x00\x03\x00\x00\x00\x00\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x84\x84\x84\x84\x84"))
	f.Add([]byte("\x00\x02\x00\x01g"), []byte("\x00\x04\x09consumer\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00"))
	f.Add([]byte("\x00\x02\x00\x01g"), []byte(nil))
	f.Fuzz(func(t *testing.T, key, value []byte) {
		k, _, _, err := decodeOffsetsRecord(7, key, value)
		if err == nil && k == "" {
			t.Fatalf("a decoded key printed as nothing")
		}
	})
}

// TestDumpLogBoundedMemory dumps a 32 MiB segment and checks that the dump
// allocates far less than the file: it reads batch by batch into one buffer.
func TestDumpLogBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 32 MiB file")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, kafkalog.SegmentFileName(0, kafkalog.LogSuffix))
	f, err := os.Create(path)
	require.NoError(t, err)
	value := bytes.Repeat([]byte("v"), 16<<10)
	var size int64
	var buf []byte
	for off := int64(0); size < 32<<20; off++ {
		b := kafkalog.RecordBatch{}
		b.BaseOffset = off
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1
		b.AppendRecord(off, 1700000000000, nil, value)
		buf = b.AppendTo(buf[:0])
		_, err := f.Write(buf)
		require.NoError(t, err)
		size += int64(len(buf))
	}
	require.NoError(t, f.Close())

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code := Run(vfs.Default, []string{"--files", path, "--deep-iteration"}, io.Discard, io.Discard)
	runtime.ReadMemStats(&after)
	require.Equal(t, 0, code)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("dumped %d bytes allocating %d bytes in total", size, allocated)
	if allocated > uint64(size)/8 {
		t.Fatalf("dumping a %d-byte segment allocated %d bytes: it must stream, not load the file", size, allocated)
	}
}
