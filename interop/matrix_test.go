package interop

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// matrix is the client x operation x result table TestMain prints.
var matrix = struct {
	sync.Mutex
	rows map[string]map[string]string // client -> operation -> pass | fail | skip: reason
	ops  []string                     // operations in first-seen order
}{rows: map[string]map[string]string{}}

// skipReasons holds the reason a running operation skips, by test name.
var skipReasons sync.Map

func record(client, op, result string) {
	matrix.Lock()
	defer matrix.Unlock()
	if matrix.rows[client] == nil {
		matrix.rows[client] = map[string]string{}
	}
	matrix.rows[client][op] = result
	if !slices.Contains(matrix.ops, op) {
		matrix.ops = append(matrix.ops, op)
	}
}

// op runs fn as the subtest op of client's test t and records its result
// in the matrix.
func op(t *testing.T, client, name string, fn func(t *testing.T)) bool {
	t.Helper()
	result := "fail"
	ok := t.Run(name, func(t *testing.T) {
		defer func() {
			r, na := skipReasons.Load(t.Name())
			switch {
			case na && !t.Skipped() && !t.Failed():
				result = fmt.Sprintf("n/a: %v", r)
			case t.Skipped():
				r, _ := skipReasons.Load(t.Name())
				result = fmt.Sprintf("skip: %v", r)
			case !t.Failed():
				result = "pass"
			}
		}()
		fn(t)
	})
	record(client, name, result)
	return ok
}

// notApplicable ends the running operation as one the client does not
// have (n/a in the matrix, with the reason; the test passes). The caller
// returns after it.
func notApplicable(t *testing.T, format string, args ...any) {
	t.Helper()
	reason := fmt.Sprintf(format, args...)
	skipReasons.Store(t.Name(), reason)
	t.Log("n/a: " + reason)
}

// missing skips the test t of client (or fails it when clients are
// required) because what is not installed; every operation of the client
// is in the matrix as skipped.
func missing(t *testing.T, client, what string, ops []string) {
	t.Helper()
	if requireClients {
		for _, o := range ops {
			record(client, o, "fail")
		}
		t.Fatalf("%s is not installed and KAFKALIVE_REQUIRE_CLIENTS=1", what)
	}
	for _, o := range ops {
		record(client, o, "skip: "+what+" is not installed")
	}
	t.Skipf("%s is not installed (KAFKALIVE_REQUIRE_CLIENTS=1 makes this a failure)", what)
}

// printMatrix writes the matrix as a table.
func printMatrix() string {
	matrix.Lock()
	defer matrix.Unlock()
	if len(matrix.rows) == 0 {
		return ""
	}
	clients := make([]string, 0, len(matrix.rows))
	for c := range matrix.rows {
		clients = append(clients, c)
	}
	slices.Sort(clients)
	var b strings.Builder
	fmt.Fprintf(&b, "\nclient matrix (client x operation):\n")
	width := 0
	for _, o := range matrix.ops {
		width = max(width, len(o))
	}
	fmt.Fprintf(&b, "%-*s", width+2, "")
	for _, c := range clients {
		fmt.Fprintf(&b, " %-16s", c)
	}
	b.WriteString("\n")
	var notes []string
	fails := 0
	for _, o := range matrix.ops {
		fmt.Fprintf(&b, "%-*s", width+2, o)
		for _, c := range clients {
			r, ok := matrix.rows[c][o]
			cell := "-"
			switch {
			case !ok:
			case r == "pass" || r == "fail":
				cell = r
				if r == "fail" {
					fails++
				}
			case strings.HasPrefix(r, "n/a: "):
				cell = "n/a"
				notes = append(notes, fmt.Sprintf("  %s / %s: n/a, %s", c, o, strings.TrimPrefix(r, "n/a: ")))
			default:
				cell = "skip"
				notes = append(notes, fmt.Sprintf("  %s / %s: %s", c, o, strings.TrimPrefix(r, "skip: ")))
			}
			fmt.Fprintf(&b, " %-16s", cell)
		}
		b.WriteString("\n")
	}
	if len(notes) > 0 {
		b.WriteString("not run:\n" + strings.Join(slices.Compact(notes), "\n") + "\n")
	}
	fmt.Fprintf(&b, "%d failed\n", fails)
	return b.String()
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if s := printMatrix(); s != "" {
		fmt.Print(s)
		if path := os.Getenv("KAFKALIVE_MATRIX"); path != "" {
			_ = os.WriteFile(path, []byte(s), 0o644)
		}
	}
	os.Exit(code)
}
