package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/kafkalive/kafkalive/internal/kit"
)

// kitChapter is one chapter of the kit: its note and the exercises in order.
type kitChapter struct {
	id, title, note string
	exercises       []string // package directories under exercises/
}

var kitChapters = []kitChapter{
	{"ch01", "records on disk", "notes/01-records-on-disk.md", []string{"ch01/varint", "ch01/batch"}},
	{"ch02", "offsets and the index", "notes/02-offsets-and-the-index.md", []string{"ch02/index"}},
	{"ch03", "segments and retention", "notes/03-segments-and-retention.md", []string{"ch03/retention"}},
	{"ch04", "the page cache and crash recovery", "notes/04-page-cache-and-recovery.md", []string{"ch04/recovery"}},
	{"ch05", "leader epochs and truncation", "notes/05-leader-epochs.md", []string{"ch05/truncation"}},
	{"ch06", "cooperative rebalancing", "notes/06-cooperative-rebalancing.md", []string{"ch06/cooperative"}},
	{"ch07", "transactions and read_committed", "notes/07-transactions.md", []string{"ch07/readcommitted"}},
}

// exerciseState is what go test said about one exercise package.
type exerciseState int

const (
	stateNotStarted exerciseState = iota
	stateFailing
	stateBroken // does not compile
	stateDone
	stateMissing // go test said nothing about it
)

// exerciseResult is the summary of one exercise package.
type exerciseResult struct {
	state  exerciseState
	rule   string // "[B6 CRC-32C over [21, end)]" when failing on a rule
	hang   string // "did not return within 5 s" when a call never returned
	next   string // what to read or do next, from the suite's message
	output []string
}

// kitProgress is the summary of a whole go test -json run.
type kitProgress struct {
	exercises map[string]*exerciseResult // by "ch01/varint"
}

// testEvent is one line of go test -json (cmd/test2json).
type testEvent struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	FailedBuild string
}

var (
	exercisePkg  = regexp.MustCompile(`/exercises/(ch[0-9]+/[a-z0-9]+)$`)
	compileError = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: .*$`)
	// A call the suite gave up on (kit.Timeout), or a test binary go test
	// stopped after its -timeout.
	didNotReturn = regexp.MustCompile(`did not return within (\S+?):|panic: test timed out after (\S+)`)
)

// summariseKit reads go test -json output and sums it up per exercise.
func summariseKit(r io.Reader) (kitProgress, error) {
	p := kitProgress{exercises: map[string]*exerciseResult{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e testEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue // not an event (go vet output, a build message)
		}
		pkg := e.Package
		if pkg == "" {
			pkg = e.ImportPath
		}
		if f := strings.Fields(pkg); len(f) > 0 {
			pkg = f[0] // build events say "pkg [pkg.test]"
		}
		m := exercisePkg.FindStringSubmatch(pkg)
		if m == nil {
			continue
		}
		res := p.exercises[m[1]]
		if res == nil {
			res = &exerciseResult{state: stateFailing}
			p.exercises[m[1]] = res
		}
		res.apply(e)
	}
	for _, res := range p.exercises {
		res.conclude()
	}
	return p, sc.Err()
}

func (r *exerciseResult) apply(e testEvent) {
	switch {
	case e.Action == "output" || e.Action == "build-output":
		r.output = append(r.output, e.Output)
	case e.Action == "build-fail" || (e.Action == "fail" && e.FailedBuild != ""):
		r.state = stateBroken
	case e.Action == "pass" && e.Test == "" && r.state != stateBroken:
		r.state = stateDone
	}
}

// conclude reads the output of a failed exercise for the suite's messages.
func (r *exerciseResult) conclude() {
	text := strings.Join(r.output, "")
	if strings.Contains(text, "[build failed]") || strings.Contains(text, "[setup failed]") {
		r.state = stateBroken
	}
	if r.state == stateBroken {
		r.next = "it does not compile"
		if m := compileError.FindString(text); m != "" {
			r.next += ": " + strings.TrimSpace(m)
		}
		return
	}
	if r.state != stateFailing {
		return
	}
	if i := strings.Index(text, kit.ErrNotStarted.Error()+": "); i >= 0 {
		r.state = stateNotStarted
		r.next = firstLine(text[i+len(kit.ErrNotStarted.Error())+2:])
		return
	}
	if id, name := kit.RuleIn(text); id != "" {
		r.rule = fmt.Sprintf("[%s %s]", id, name)
	}
	if i := strings.Index(text, "read: "); i >= 0 {
		r.next = "read " + firstLine(text[i+len("read: "):])
	}
	if m := didNotReturn.FindStringSubmatch(text); m != nil {
		after := m[1] + m[2]
		if d, err := time.ParseDuration(after); err == nil {
			after = fmt.Sprintf("%g s", d.Seconds())
		}
		r.hang = "a call did not return within " + after
		if m[2] != "" {
			r.hang += " (go test's -timeout)"
			r.next = "find the loop that never ends: run go test -v on the exercise and read the goroutine stacks it prints"
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

func (s exerciseState) String() string {
	return [...]string{stateNotStarted: "not started", stateFailing: "failing", stateBroken: "does not compile", stateDone: "done", stateMissing: "not run"}[s]
}

// render prints one line per chapter and what to do next.
func (p kitProgress) render(w io.Writer) {
	done, total := 0, 0
	var next string
	for _, ch := range kitChapters {
		var parts []string
		status := "done"
		for _, ex := range ch.exercises {
			total++
			res, ok := p.exercises[ex]
			if !ok {
				res = &exerciseResult{state: stateMissing, next: "go test did not report on it: is exercises/" + ex + " there?"}
			}
			name := ex[strings.Index(ex, "/")+1:]
			part := name + ": " + res.state.String()
			if res.rule != "" {
				part += " on " + res.rule
			}
			if res.hang != "" {
				part += ", " + res.hang
			}
			parts = append(parts, part)
			if res.state == stateDone {
				done++
				continue
			}
			if status == "done" {
				status = res.state.String()
			}
			if next == "" {
				next = fmt.Sprintf("%s (exercises/%s): %s", ch.id, ex, res.next)
			}
		}
		fmt.Fprintf(w, "%s  %-34s %-16s %s\n", ch.id, ch.title, status, strings.Join(parts, "; "))
	}
	fmt.Fprintf(w, "\n%d of %d exercises done", done, total)
	if extra := p.unknown(); len(extra) > 0 {
		fmt.Fprintf(w, " (also ran: %s)", strings.Join(extra, ", "))
	}
	fmt.Fprintln(w)
	if next == "" {
		fmt.Fprintln(w, "next: every chapter is done; run your code in the live cluster: go run ./exercises/live")
		return
	}
	fmt.Fprintln(w, "next: "+next)
}

// unknown lists exercise packages that no chapter lists.
func (p kitProgress) unknown() []string {
	known := map[string]bool{}
	for _, ch := range kitChapters {
		for _, ex := range ch.exercises {
			known[ex] = true
		}
	}
	var out []string
	for ex := range p.exercises {
		if !known[ex] {
			out = append(out, ex)
		}
	}
	sort.Strings(out)
	return out
}
