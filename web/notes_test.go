package web

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The notes' links, as the page renders them: a link to a note or a section
// leads to one that exists, a link to a file of the repository names a file
// that exists, and a web link opens in a new tab.
func TestNoteLinksResolve(t *testing.T) {
	notes := os.DirFS("../notes")
	list, err := listNotes(notes)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) < 5 {
		t.Fatalf("listNotes found %d notes in ../notes", len(list))
	}
	rendered := map[string]string{}
	for _, n := range list {
		b, err := os.ReadFile(filepath.Join("../notes", n.Name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		rendered[n.Name] = RenderNote(n.Name, string(b))
	}
	ids := map[string]bool{}
	idRe := regexp.MustCompile(` id="([^"]+)"`)
	for _, h := range rendered {
		for _, m := range idRe.FindAllStringSubmatch(h, -1) {
			ids[m[1]] = true
		}
	}
	aRe := regexp.MustCompile(`<a ([^>]*)>`)
	hrefRe := regexp.MustCompile(`href="([^"]*)"`)
	checked := 0
	for name, h := range rendered {
		for _, m := range aRe.FindAllStringSubmatch(h, -1) {
			attrs := m[1]
			hm := hrefRe.FindStringSubmatch(attrs)
			if hm == nil {
				t.Errorf("note %s: a link without href: <a %s>", name, attrs)
				continue
			}
			href := strings.ReplaceAll(hm[1], "&amp;", "&")
			checked++
			blank := strings.Contains(attrs, `target="_blank"`) && strings.Contains(attrs, `rel="noopener"`)
			switch {
			case strings.HasPrefix(href, "#note/"):
				parts := strings.SplitN(strings.TrimPrefix(href, "#note/"), "/", 2)
				if _, ok := rendered[parts[0]]; !ok {
					t.Errorf("note %s links to %s: there is no note %s", name, href, parts[0])
				} else if len(parts) == 2 && !ids[href[1:]] {
					t.Errorf("note %s links to %s: note %s has no such section", name, href, parts[0])
				}
				if blank {
					t.Errorf("note %s: the link to %s leaves the page for a new tab", name, href)
				}
			case strings.HasPrefix(href, RepositoryURL):
				file, _, _ := strings.Cut(strings.TrimPrefix(href, RepositoryURL), "#")
				if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(file))); err != nil {
					t.Errorf("note %s links to %s: no such file in the repository", name, file)
				}
				if !blank {
					t.Errorf("note %s: the link to %s opens in the page's tab", name, href)
				}
			case strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "http://"):
				if !blank {
					t.Errorf("note %s: the web link %s opens in the page's tab (want target=_blank rel=noopener)", name, href)
				}
			default:
				t.Errorf("note %s: the link %q leads nowhere the page serves", name, href)
			}
		}
	}
	t.Logf("%d links in %d notes checked", checked, len(rendered))
}

// Every note in the list has a title and one line on what it is about.
func TestNotesListHasALineEach(t *testing.T) {
	list, err := listNotes(os.DirFS("../notes"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range list {
		if n.Title == "" || n.Summary == "" || len(n.Summary) > 300 {
			t.Errorf("note %s is listed as %q with the line %q (want a title and one line of at most 300 bytes)", n.Name, n.Title, n.Summary)
		}
	}
	for name := range noteCards {
		found := false
		for _, n := range list {
			found = found || n.Name == name
		}
		if !found {
			t.Errorf("noteCards names %s, which is not a note", name)
		}
	}
}

func TestFirstSentence(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"# T\n\nA **log** is `x`. And more.\n", "A log is x."},
		{"# T\n\nRead [the index](02.md)\nfirst: it helps.\n\nlater\n", "Read the index first: it helps."},
		{"# T\n## S\n", ""},
	} {
		if diff := cmp.Diff(tc.want, firstSentence(tc.md)); diff != "" {
			t.Errorf("firstSentence(%q) (-want +got):\n%s", tc.md, diff)
		}
	}
}
