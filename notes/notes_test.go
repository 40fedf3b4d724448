// The notes package holds the kit's chapters (Markdown) and this test, which keeps
// every byte dump and example output in them true: each block between
// "<!-- generated: NAME -->" and "<!-- end generated -->" is produced by a
// generator below from the library, the suites or the solutions. Run
//
//	go test ./notes/ -update
//
// to rewrite the blocks after a change; without -update a block that differs
// from what its generator prints fails the test.
package notes

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
)

var update = flag.Bool("update", false, "rewrite the generated blocks of the notes")

var blockRE = regexp.MustCompile("(?s)<!-- generated: ([a-z0-9-]+) -->\n.*?<!-- end generated -->")

func noteFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no notes found: %v", err)
	}
	return files
}

func TestGeneratedBlocks(t *testing.T) {
	used := map[string]bool{}
	for _, file := range noteFiles(t) {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var missing []string
		out := blockRE.ReplaceAllStringFunc(string(raw), func(block string) string {
			name := blockRE.FindStringSubmatch(block)[1]
			gen, ok := generators[name]
			if !ok {
				missing = append(missing, name)
				return block
			}
			used[name] = true
			return fmt.Sprintf("<!-- generated: %s -->\n```text\n%s\n```\n<!-- end generated -->", name, strings.TrimRight(gen(), "\n"))
		})
		if len(missing) > 0 {
			t.Errorf("%s: no generator for block(s) %v", file, missing)
		}
		if out == string(raw) {
			continue
		}
		if *update {
			if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: generated blocks are stale; run go test ./notes/ -update (-old +new):\n%s", file, cmp.Diff(string(raw), out))
	}
	for name := range generators {
		if !used[name] {
			t.Errorf("generator %q is used by no note", name)
		}
	}
}

// githubSlug is the anchor a code host gives a heading: lower case, every
// character but letters, digits, spaces, hyphens and underscores dropped,
// spaces turned into hyphens.
func githubSlug(heading string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			sb.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func anchors(t *testing.T, file string) []string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v", err)
	}
	var out []string
	inFence := false
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(line, "#") {
			out = append(out, githubSlug(strings.TrimLeft(line, "# ")))
		}
	}
	return out
}

// TestRuleLinksExist checks that every note section a suite's failure links
// to exists, so a learner never follows a dead link.
func TestRuleLinksExist(t *testing.T) {
	for _, r := range kafkalogkit.Rules() {
		file, anchor, ok := strings.Cut(r.Note, "#")
		if !ok || !strings.HasPrefix(file, "notes/") {
			t.Errorf("rule %s links %q, want notes/FILE.md#anchor", r.ID, r.Note)
			continue
		}
		if !slices.Contains(anchors(t, strings.TrimPrefix(file, "notes/")), anchor) {
			t.Errorf("rule %s (%s) links %s, but %s has no heading with anchor #%s", r.ID, r.Name, r.Note, file, anchor)
		}
	}
}

// TestNoteLinksExist checks the links between notes and into the repository.
func TestNoteLinksExist(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#\s]+)?(#[^)\s]+)?\)`)
	for _, file := range noteFiles(t) {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(raw), -1) {
			target, anchor := m[1], strings.TrimPrefix(m[2], "#")
			if strings.HasPrefix(target, "http") {
				continue
			}
			if target == "" {
				target = file
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links %s, which does not exist", file, target)
				continue
			}
			if anchor != "" && strings.HasSuffix(target, ".md") && !slices.Contains(anchors(t, target), anchor) {
				t.Errorf("%s links %s#%s, but there is no such heading", file, target, anchor)
			}
		}
	}
}

// TestEveryChapterEnds checks the three closing sections every chapter has.
func TestEveryChapterEnds(t *testing.T) {
	for _, file := range noteFiles(t) {
		if !regexp.MustCompile(`^0[0-9]-`).MatchString(file) {
			continue
		}
		as := anchors(t, file)
		for _, want := range []string{"you-write", "see-it-live", "further-reading"} {
			if !slices.Contains(as, want) {
				t.Errorf("%s has no %q section", file, want)
			}
		}
	}
}
