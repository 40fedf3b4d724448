package web

import (
	"fmt"
	"html"
	"path"
	"regexp"
	"strings"
	"unicode"
)

// The notes are Markdown; this is the small subset they use, rendered to
// HTML without a dependency: ATX headings, paragraphs, fenced code, lists,
// block quotes, pipe tables, and inline code, bold, italics and links.
//
// Links are rewritten for the page ([RenderNote]):
//
//   - another note, NAME.md or NAME.md#SECTION, becomes a link inside the
//     page, #note/NAME or #note/NAME/SECTION;
//   - a section of the same note, #SECTION, becomes #note/THIS/SECTION;
//   - a web link (http, https) opens in a new tab (target=_blank
//     rel=noopener), so the live page stays open;
//   - another file of the repository (../kafkalog/index.go) becomes a link
//     to it on GitHub ([RepositoryURL]), in a new tab.
//
// Every heading gets an id: #note/THIS/SECTION (or SECTION alone outside a
// note), SECTION being GitHub's anchor for the heading (lower case, spaces
// as hyphens, punctuation dropped, "-1", "-2" after a repeated one), so
// that the links written for GitHub work in the page too.

// RepositoryURL is where a note's link to another file of the repository
// points: the file on GitHub, path relative to the repository's root.
const RepositoryURL = "https://github.com/kafkalive/kafkalive/blob/main/"

// RenderMarkdown renders src to HTML outside any note (heading ids and
// section links are SECTION alone). Every piece of text is escaped.
func RenderMarkdown(src string) string { return RenderNote("", src) }

// RenderNote renders the note called name (notes/NAME.md) to HTML for the
// page, its links rewritten as the package comment of this file says.
func RenderNote(name, src string) string {
	var b strings.Builder
	r := &mdRenderer{note: name, slugs: map[string]int{}}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); {
		i = r.renderBlock(&b, lines, i)
	}
	return b.String()
}

// mdRenderer renders one note: its name and the section anchors given so
// far.
type mdRenderer struct {
	note  string
	slugs map[string]int
}

// anchor returns the id of the heading text: GitHub's anchor for it,
// inside the note.
func (r *mdRenderer) anchor(text string) string {
	s := Slug(text)
	n := r.slugs[s]
	r.slugs[s] = n + 1
	if n > 0 {
		s = fmt.Sprintf("%s-%d", s, n)
	}
	return r.section(r.note, s)
}

// section is the page's fragment (without #) for section s of note name.
func (r *mdRenderer) section(name, s string) string {
	if name == "" {
		return s
	}
	if s == "" {
		return "note/" + name
	}
	return "note/" + name + "/" + s
}

// Slug returns GitHub's anchor for a heading's Markdown text: its words
// lower-cased, markup and punctuation other than hyphens and underscores
// dropped, spaces turned into hyphens.
func Slug(text string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(text) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c):
			b.WriteRune(c)
		}
	}
	return b.String()
}

// renderBlock renders the block starting at line i and returns the index
// of the line after it.
func (r *mdRenderer) renderBlock(b *strings.Builder, lines []string, i int) int {
	l := lines[i]
	t := strings.TrimSpace(l)
	switch {
	case t == "" || strings.HasPrefix(t, "<!--"):
		return i + 1
	case strings.HasPrefix(t, "```"):
		return renderFence(b, lines, i)
	case strings.HasPrefix(t, "#"):
		n := len(t) - len(strings.TrimLeft(t, "#"))
		if n > 6 {
			n = 6
		}
		text := strings.TrimSpace(t[n:])
		h := string(rune('0' + n))
		b.WriteString("<h" + h + ` id="` + html.EscapeString(r.anchor(text)) + `">` + r.inline(text) + "</h" + h + ">\n")
		return i + 1
	case strings.HasPrefix(t, "|"):
		return r.renderTable(b, lines, i)
	case strings.HasPrefix(t, ">"):
		j, body := collect(lines, i, func(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), ">") })
		for k := range body {
			body[k] = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(body[k]), ">"), " ")
		}
		b.WriteString("<blockquote>")
		for k := 0; k < len(body); {
			k = r.renderBlock(b, body, k)
		}
		b.WriteString("</blockquote>\n")
		return j
	case listItem.MatchString(l):
		return r.renderList(b, lines, i)
	}
	j, body := collect(lines, i, func(s string) bool {
		t := strings.TrimSpace(s)
		return t != "" && !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "<!--") && !strings.HasPrefix(t, "|") && !listStart.MatchString(s)
	})
	if j == i {
		j, body = i+1, []string{l}
	}
	b.WriteString("<p>" + r.inline(strings.Join(body, " ")) + "</p>\n")
	return j
}

var listItem = regexp.MustCompile(`^\s{0,3}([-*]|\d+\.) `)

// listStart is a list item that may interrupt a paragraph (CommonMark: a
// bullet, or an ordered item numbered 1), so that "217." wrapped to the
// start of a line stays text.
var listStart = regexp.MustCompile(`^\s{0,3}([-*]|1\.) `)

// collect gathers lines from i while keep holds.
func collect(lines []string, i int, keep func(string) bool) (int, []string) {
	var body []string
	for i < len(lines) && keep(lines[i]) {
		body = append(body, lines[i])
		i++
	}
	return i, body
}

func renderFence(b *strings.Builder, lines []string, i int) int {
	lang := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), "```"))
	j := i + 1
	var body []string
	for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
		body = append(body, lines[j])
		j++
	}
	class := ""
	if lang != "" {
		class = ` class="lang-` + html.EscapeString(lang) + `"`
	}
	b.WriteString("<pre><code" + class + ">" + html.EscapeString(strings.Join(body, "\n")) + "</code></pre>\n")
	return j + 1
}

func (r *mdRenderer) renderList(b *strings.Builder, lines []string, i int) int {
	ordered := !strings.HasPrefix(strings.TrimSpace(lines[i]), "-") && !strings.HasPrefix(strings.TrimSpace(lines[i]), "*")
	tag := "ul"
	if ordered {
		tag = "ol"
	}
	b.WriteString("<" + tag + ">\n")
	var item []string
	flush := func() {
		if item != nil {
			b.WriteString("<li>" + r.inline(strings.Join(item, " ")) + "</li>\n")
		}
		item = nil
	}
	for i < len(lines) {
		l := lines[i]
		if m := listItem.FindString(l); m != "" {
			flush()
			item = []string{strings.TrimSpace(l[len(m):])}
		} else if strings.TrimSpace(l) != "" && strings.HasPrefix(l, " ") {
			item = append(item, strings.TrimSpace(l))
		} else {
			break
		}
		i++
	}
	flush()
	b.WriteString("</" + tag + ">\n")
	return i
}

func (r *mdRenderer) renderTable(b *strings.Builder, lines []string, i int) int {
	j, rows := collect(lines, i, func(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), "|") })
	b.WriteString("<table>\n")
	for k, row := range rows {
		cells := strings.Split(strings.Trim(strings.TrimSpace(row), "|"), "|")
		if k == 1 && strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue
		}
		tag := "td"
		if k == 0 {
			tag = "th"
		}
		b.WriteString("<tr>")
		for _, c := range cells {
			b.WriteString("<" + tag + ">" + r.inline(strings.TrimSpace(c)) + "</" + tag + ">")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	return j
}

var (
	inlineCode = regexp.MustCompile("`([^`]+)`")
	bold       = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	italic     = regexp.MustCompile(`(^|[\s(])[*_]([^*_\s][^*_]*)[*_]`)
	link       = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
)

// inline renders code spans, bold, italics and links in escaped text.
func (r *mdRenderer) inline(s string) string {
	var codes []string
	s = inlineCode.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00" + string(rune('A'+len(codes)-1)) + "\x00"
	})
	s = html.EscapeString(s)
	s = link.ReplaceAllStringFunc(s, func(m string) string {
		p := link.FindStringSubmatch(m)
		href, blank := r.href(html.UnescapeString(p[2]))
		attrs := `href="` + html.EscapeString(href) + `"`
		if blank {
			attrs += ` target="_blank" rel="noopener"`
		}
		return "<a " + attrs + ">" + p[1] + "</a>"
	})
	s = bold.ReplaceAllString(s, "<strong>$1</strong>")
	s = italic.ReplaceAllString(s, "$1<em>$2</em>")
	for k, c := range codes {
		s = strings.Replace(s, "\x00"+string(rune('A'+k))+"\x00", c, 1)
	}
	return s
}

// href rewrites a link's target for the page, and says whether it opens in
// a new tab.
func (r *mdRenderer) href(target string) (string, bool) {
	switch {
	case strings.HasPrefix(target, "#"):
		return "#" + r.section(r.note, target[1:]), false
	case strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:"):
		return target, true
	}
	file, frag, _ := strings.Cut(target, "#")
	if name, ok := strings.CutSuffix(file, ".md"); ok && !strings.Contains(name, "/") {
		return "#" + r.section(name, frag), false
	}
	// another file of the repository: the notes live in notes/
	p := path.Clean(path.Join("notes", file))
	if strings.HasPrefix(p, "../") || p == ".." {
		return target, false // outside the repository: left as written
	}
	if frag != "" {
		p += "#" + frag
	}
	return RepositoryURL + p, true
}
