package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recordedKitRun is go test -json ./exercises/... recorded on a copy of the
// repository where ch01/varint and ch03/retention hold the solutions,
// ch01/batch a CRC-32/IEEE mistake, ch02/index the untouched stub and
// ch04/recovery a line that does not compile (rapid's draws and timings
// trimmed; M/ stands for the module path).
const recordedKitRun = `{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch", "Output": "=== RUN   TestBatch\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "=== RUN   TestBatch/known_answers\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "    batch.go:115: [B6 CRC-32C over [21, end)] Encoding golden batch G1 (one record, key \"k\", value \"v\"), DefaultRecordBatch.java: the crc field must be the CRC-32C (Castagnoli) of bytes [21, 70): 0xe99b8dd8, not 0xcac42c5f.\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            batch: baseOffset 0, partitionLeaderEpoch 0, attributes 0x0000, lastOffsetDelta 0, baseTimestamp 1700000000000, maxTimestamp 1700000000000, producerId -1, producerEpoch -1, baseSequence -1, 1 record(s)\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "              record 0: timestampDelta 0, offsetDelta 0, key \"k\", value \"v\"\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            first wrong byte at position 17, in field crc\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            your bytes:\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            00000000  00 00 00 00 00 00 00 00  00 00 00 3a 00 00 00 00  |...........:....|\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            00000010  02 ca c4 2c 5f 00 00 00  00 00 00 00 00 01 8b cf  |...,_...........|\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "                         ^^ first wrong byte, position 17\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            00000020  e5 68 00 00 00 01 8b cf  e5 68 00 ff ff ff ff ff  |.h.......h......|\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            00000030  ff ff ff ff ff ff ff ff  ff 00 00 00 01 10 00 00  |................|\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            00000040  ... (70 bytes in all)\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            this looks like: CRC-32/IEEE (crc32.ChecksumIEEE) instead of CRC-32C (Castagnoli)\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            read: notes/01-records-on-disk.md#the-crc-covers-bytes-21-to-the-end\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "            replay: go test ./exercises/ch01/batch -run '^TestBatch$/^known_answers$'\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers", "Output": "--- FAIL: TestBatch/known_answers (0.00s)\n"}
{"Action": "fail", "Package": "M/exercises/ch01/batch", "Test": "TestBatch/known_answers"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Test": "TestBatch", "Output": "--- FAIL: TestBatch (0.00s)\n"}
{"Action": "fail", "Package": "M/exercises/ch01/batch", "Test": "TestBatch"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Output": "FAIL\n"}
{"Action": "output", "Package": "M/exercises/ch01/batch", "Output": "FAIL\tM/exercises/ch01/batch\t0.022s\n"}
{"Action": "fail", "Package": "M/exercises/ch01/batch"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Test": "TestVarint", "Output": "=== RUN   TestVarint\n"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Test": "TestVarint/known_answers", "Output": "=== RUN   TestVarint/known_answers\n"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Test": "TestVarint/known_answers", "Output": "--- PASS: TestVarint/known_answers (0.00s)\n"}
{"Action": "pass", "Package": "M/exercises/ch01/varint", "Test": "TestVarint/known_answers"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Test": "TestVarint/properties", "Output": "=== RUN   TestVarint/properties\n"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Test": "TestVarint/properties", "Output": "    varint.go:100: [rapid] OK, passed 100 tests (8.415508ms)\n"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Test": "TestVarint/properties", "Output": "--- PASS: TestVarint/properties (0.01s)\n"}
{"Action": "pass", "Package": "M/exercises/ch01/varint", "Test": "TestVarint/properties"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Test": "TestVarint", "Output": "--- PASS: TestVarint (0.01s)\n"}
{"Action": "pass", "Package": "M/exercises/ch01/varint", "Test": "TestVarint"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Output": "PASS\n"}
{"Action": "output", "Package": "M/exercises/ch01/varint", "Output": "ok  \tM/exercises/ch01/varint\t(cached)\n"}
{"Action": "pass", "Package": "M/exercises/ch01/varint"}
{"ImportPath": "M/exercises/ch04/recovery [M/exercises/ch04/recovery.test]", "Action": "build-output", "Output": "# M/exercises/ch04/recovery [M/exercises/ch04/recovery.test]\n"}
{"ImportPath": "M/exercises/ch04/recovery [M/exercises/ch04/recovery.test]", "Action": "build-output", "Output": "exercises/ch04/recovery/recovery.go:26:17: undefined: x\n"}
{"ImportPath": "M/exercises/ch04/recovery [M/exercises/ch04/recovery.test]", "Action": "build-fail"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Test": "TestRetention", "Output": "=== RUN   TestRetention\n"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Test": "TestRetention/known_answers", "Output": "=== RUN   TestRetention/known_answers\n"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Test": "TestRetention/known_answers", "Output": "--- PASS: TestRetention/known_answers (0.00s)\n"}
{"Action": "pass", "Package": "M/exercises/ch03/retention", "Test": "TestRetention/known_answers"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Test": "TestRetention/state_machine", "Output": "=== RUN   TestRetention/state_machine\n"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Test": "TestRetention/state_machine", "Output": "    retention.go:87: [rapid] OK, passed 100 tests (9.934092ms)\n"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Test": "TestRetention/state_machine", "Output": "--- PASS: TestRetention/state_machine (0.01s)\n"}
{"Action": "pass", "Package": "M/exercises/ch03/retention", "Test": "TestRetention/state_machine"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Test": "TestRetention", "Output": "--- PASS: TestRetention (0.01s)\n"}
{"Action": "pass", "Package": "M/exercises/ch03/retention", "Test": "TestRetention"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Output": "PASS\n"}
{"Action": "output", "Package": "M/exercises/ch03/retention", "Output": "ok  \tM/exercises/ch03/retention\t(cached)\n"}
{"Action": "pass", "Package": "M/exercises/ch03/retention"}
{"Action": "output", "Package": "M/exercises/ch04/recovery", "Output": "FAIL\tM/exercises/ch04/recovery [build failed]\n"}
{"Action": "fail", "Package": "M/exercises/ch04/recovery", "FailedBuild": "M/exercises/ch04/recovery [M/exercises/ch04/recovery.test]"}
{"Action": "output", "Package": "M/exercises/todo", "Output": "?   \tM/exercises/todo\t[no test files]\n"}
{"Action": "skip", "Package": "M/exercises/todo"}
{"Action": "output", "Package": "M/exercises/ch02/index", "Test": "TestIndex", "Output": "=== RUN   TestIndex\n"}
{"Action": "output", "Package": "M/exercises/ch02/index", "Test": "TestIndex", "Output": "    index_test.go:10: not started: read notes/02-offsets-and-the-index.md#the-sparse-index, then write LookupIndex in exercises/ch02/index/index.go\n"}
{"Action": "output", "Package": "M/exercises/ch02/index", "Test": "TestIndex", "Output": "--- FAIL: TestIndex (0.00s)\n"}
{"Action": "fail", "Package": "M/exercises/ch02/index", "Test": "TestIndex"}
{"Action": "output", "Package": "M/exercises/ch02/index", "Output": "FAIL\n"}
{"Action": "output", "Package": "M/exercises/ch02/index", "Output": "FAIL\tM/exercises/ch02/index\t0.017s\n"}
{"Action": "fail", "Package": "M/exercises/ch02/index"}
`

func recorded() string {
	return strings.ReplaceAll(recordedKitRun, "M/", "github.com/kafkalive/kafkalive/")
}

func TestSummariseKitRecordedRun(t *testing.T) {
	p, err := summariseKit(strings.NewReader(recorded()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p.render(&out)
	want := `ch01  records on disk                    failing          varint: done; batch: failing on [B6 CRC-32C over [21, end)]
ch02  offsets and the index              not started      index: not started
ch03  segments and retention             done             retention: done
ch04  the page cache and crash recovery  does not compile recovery: does not compile
ch05  leader epochs and truncation       not run          truncation: not run
ch06  cooperative rebalancing            not run          cooperative: not run
ch07  transactions and read_committed    not run          readcommitted: not run

2 of 8 exercises done
next: ch01 (exercises/ch01/batch): read notes/01-records-on-disk.md#the-crc-covers-bytes-21-to-the-end
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("kit summary (-want +got):\n%s", diff)
	}
}

func TestSummariseKitStates(t *testing.T) {
	p, err := summariseKit(strings.NewReader(recorded()))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for ex, r := range p.exercises {
		got[ex] = r.state.String() + " | " + r.next
	}
	want := map[string]string{
		"ch01/varint":    "done | ",
		"ch01/batch":     "failing | read notes/01-records-on-disk.md#the-crc-covers-bytes-21-to-the-end",
		"ch02/index":     "not started | read notes/02-offsets-and-the-index.md#the-sparse-index, then write LookupIndex in exercises/ch02/index/index.go",
		"ch03/retention": "done | ",
		"ch04/recovery":  "does not compile | it does not compile: exercises/ch04/recovery/recovery.go:26:17: undefined: x",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exercise states (-want +got):\n%s", diff)
	}
}

func TestSummariseKitAllDone(t *testing.T) {
	var in strings.Builder
	for _, ch := range kitChapters {
		for _, ex := range ch.exercises {
			in.WriteString(`{"Action":"pass","Package":"github.com/kafkalive/kafkalive/exercises/` + ex + `"}` + "\n")
		}
	}
	p, err := summariseKit(strings.NewReader(in.String()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p.render(&out)
	if !strings.Contains(out.String(), fmt.Sprintf("%d of %d exercises done", len(p.exercises), len(p.exercises))) || !strings.Contains(out.String(), "every chapter is done") {
		t.Errorf("all exercises pass, but the summary says:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "next: every chapter is done; run your code in the live cluster: go run ./exercises/live") {
		t.Errorf("when every exercise passes, next must point at the live cluster:\n%s", out.String())
	}
}

// A call that never returned is said so, with the deadline it missed:
// the suite's (kit.Deadline) or go test's own -timeout.
func TestSummariseKitHang(t *testing.T) {
	for _, c := range []struct{ output, want string }{
		{`[I1 largest entry <= target] LookupIndex(index of 32 bytes, entries=4, baseOffset=45, target=47) did not return within 5s: every call must end, whatever the input (an endless loop?).\n    read: notes/02-offsets-and-the-index.md#every-call-returns\n`,
			"index: failing on [I1 largest entry <= target], a call did not return within 5 s"},
		{`panic: test timed out after 2m0s\n`, "index: failing, a call did not return within 120 s (go test's -timeout)"},
	} {
		run := `{"Action":"output","Package":"github.com/kafkalive/kafkalive/exercises/ch02/index","Test":"TestIndex","Output":"` + c.output + `"}` + "\n" +
			`{"Action":"fail","Package":"github.com/kafkalive/kafkalive/exercises/ch02/index"}` + "\n"
		p, err := summariseKit(strings.NewReader(run))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		p.render(&out)
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("a hang must say %q; the summary says:\n%s", c.want, out.String())
		}
	}
}

func TestSummariseKitIgnoresNoise(t *testing.T) {
	in := "not json\n{\"Action\":\"pass\",\"Package\":\"github.com/kafkalive/kafkalive/kafkalog\"}\n"
	p, err := summariseKit(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.exercises) != 0 {
		t.Errorf("non-exercise packages and non-JSON lines must be ignored, got %v", p.exercises)
	}
}

// FuzzSummariseKit feeds arbitrary go test output to the summariser: whatever
// go test prints, kafkalive kit must not crash.
func FuzzSummariseKit(f *testing.F) {
	f.Add(recorded())
	f.Add(`{"Action":"output","Package":"x/exercises/ch01/varint","Output":"not started: "}`)
	f.Fuzz(func(t *testing.T, s string) {
		p, _ := summariseKit(strings.NewReader(s))
		p.render(io.Discard)
	})
}

// The live section lists each part as exercises/live --list prints it, and
// counts the parts that run the learner's code.
func TestRenderLiveParts(t *testing.T) {
	out := "ch01/varint        your code  the producers' record varints\n" +
		"ch02/index         reference  every consumer fetch (not written yet (the stub panics with TODO))\n" +
		"live: the cluster on your code is at http://127.0.0.1:7071/\n"
	var b strings.Builder
	renderLiveParts(&b, parseLiveParts(out), nil)
	want := "\nin the live cluster (go run ./exercises/live):\n" +
		"  ch01/varint        your code  the producers' record varints\n" +
		"  ch02/index         reference  every consumer fetch (not written yet (the stub panics with TODO))\n" +
		"  1 of 2 parts run your code\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b.Reset()
	renderLiveParts(&b, nil, errors.New("exit status 1: undefined: AppendVarint"))
	if diff := cmp.Diff("\nin the live cluster (go run ./exercises/live):\n  cannot tell: exit status 1: undefined: AppendVarint\n", b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
