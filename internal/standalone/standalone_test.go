package standalone

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// dangling are the shapes of a reference to something outside the
// repository, each with what to write instead.
var dangling = []struct {
	re   *regexp.Regexp
	hint string
}{
	{regexp.MustCompile(`\b(storage|scenarios|replication-rules|design|kits|performance|seed-page|storage-known-answers|aesthetics)\.md\b`),
		"a document outside the repository: cite the project's own doc or Kafka's source by name"},
	{regexp.MustCompile(`(?i)\bissues? #?[0-9]+\b|\(issue [0-9]+\)`), "an issue number: say what it is about"},
	{regexp.MustCompile(`\.\./shared\b`), "a path outside the repository"},
	{regexp.MustCompile(`§ ?[0-9]`), "a section of a document outside the repository"},
	{regexp.MustCompile(`\bR[0-9]+\.[0-9]+[a-z]?\b`), "a rule id of a document outside the repository: name the rule (and Kafka's source)"},
	// Scenario ids (S7, S10 branch C). Segments are labelled S0, S1... in
	// some texts, so only the forms a segment label never takes count.
	{regexp.MustCompile(`(?i:scenarios?|builds|replays?|covers?) S[0-9]{1,2}[a-d]?\b|\(S[0-9]{1,2}[a-d]?[),:]|\bS[0-9]{1,2}[a-d]?( table| branch| of |-S[0-9])|^\s*(#|//)\s*S[0-9]{1,2}[a-d]?[.:]`),
		"a scenario id of a document outside the repository: name the scenario (kafkalive play NAME)"},
	{regexp.MustCompile(`(?i)\b(this|next|previous|earlier|last) session\b`), "talk of sessions: the repository speaks of itself"},
}

// checked reports whether a file's text is read: everything a reader sees.
func checked(path string) bool {
	switch filepath.Ext(path) {
	case ".go", ".md", ".txt", ".golden", ".js", ".html", ".css", ".sh", ".mod":
		return true
	}
	switch filepath.Base(path) {
	case "NOTICE", "README", "LICENSE":
		return true
	}
	return strings.HasPrefix(path, ".ci/")
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the repository root %s: %v", dir, err)
	}
	return dir
}

// files lists the repository's text files, relative to its root, leaving out
// what git ignores by convention here (rapid's failure files, build output).
func files(t *testing.T, top string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "rapid":
				return filepath.SkipDir
			}
			return nil
		}
		if checked(rel) && rel != "internal/standalone/standalone_test.go" {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNoDanglingReferences(t *testing.T) {
	top := root(t)
	var bad []string
	for _, rel := range files(t, top) {
		f, err := os.Open(filepath.Join(top, rel))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			for _, d := range dangling {
				if m := d.re.FindString(line); m != "" {
					bad = append(bad, fmt.Sprintf("%s:%d: %q is %s", rel, n, m, d.hint))
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d references to what a reader of the repository does not have:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestMarkdownLinksResolve checks every relative link of every Markdown file:
// the file exists, and a #fragment names one of its headings.
func TestMarkdownLinksResolve(t *testing.T) {
	top := root(t)
	var bad []string
	for _, rel := range files(t, top) {
		if filepath.Ext(rel) != ".md" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(top, rel))
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(src), "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, frag, _ := strings.Cut(target, "#")
				path := filepath.Join(top, filepath.Dir(rel), file)
				if file == "" {
					path = filepath.Join(top, rel)
				}
				st, err := os.Stat(path)
				if err != nil {
					bad = append(bad, fmt.Sprintf("%s:%d: %s: no such file", rel, n+1, target))
					continue
				}
				if frag != "" && !st.IsDir() && strings.HasSuffix(path, ".md") && !hasAnchor(t, path, frag) {
					bad = append(bad, fmt.Sprintf("%s:%d: %s: no heading with that anchor", rel, n+1, target))
				}
			}
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d broken links:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

// hasAnchor reports whether the Markdown file at path has a heading whose
// GitHub-style anchor is frag.
func hasAnchor(t *testing.T, path, frag string) bool {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inCode := false
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		if Anchor(strings.TrimLeft(line, "# ")) == frag {
			return true
		}
	}
	return false
}

// Anchor is GitHub's anchor for a heading: lower case, spaces to hyphens,
// punctuation other than hyphens and underscores dropped.
func Anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"The 61-byte batch header":           "the-61-byte-batch-header",
		"The CRC covers bytes 21 to the end": "the-crc-covers-bytes-21-to-the-end",
		"Varints: 7 bits at a time":          "varints-7-bits-at-a-time",
		"Cooperative: never two owners":      "cooperative-never-two-owners",
		"`kafka-topics --describe`":          "kafka-topics---describe",
	} {
		if got := Anchor(heading); got != want {
			t.Errorf("Anchor(%q) = %q, want %q", heading, got, want)
		}
	}
}
