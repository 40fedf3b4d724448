package web

import (
	"html"
	"regexp"
	"strings"
)

// The notes are Markdown; this is the small subset they use, rendered to
// HTML without a dependency: ATX headings, paragraphs, fenced code, lists,
// block quotes, pipe tables, and inline code, bold, italics and links.
// Links to another note (NAME.md) become links inside the page (#note/NAME).

// RenderMarkdown renders src to HTML. Every piece of text is escaped.
func RenderMarkdown(src string) string {
	var b strings.Builder
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); {
		i = renderBlock(&b, lines, i)
	}
	return b.String()
}

// renderBlock renders the block starting at line i and returns the index
// of the line after it.
func renderBlock(b *strings.Builder, lines []string, i int) int {
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
		b.WriteString("<h" + string(rune('0'+n)) + ">" + inline(text) + "</h" + string(rune('0'+n)) + ">\n")
		return i + 1
	case strings.HasPrefix(t, "|"):
		return renderTable(b, lines, i)
	case strings.HasPrefix(t, ">"):
		j, body := collect(lines, i, func(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), ">") })
		for k := range body {
			body[k] = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(body[k]), ">"), " ")
		}
		b.WriteString("<blockquote>" + RenderMarkdown(strings.Join(body, "\n")) + "</blockquote>\n")
		return j
	case listItem.MatchString(l):
		return renderList(b, lines, i)
	}
	j, body := collect(lines, i, func(s string) bool {
		t := strings.TrimSpace(s)
		return t != "" && !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "<!--") && !strings.HasPrefix(t, "|") && !listStart.MatchString(s)
	})
	if j == i {
		j, body = i+1, []string{l}
	}
	b.WriteString("<p>" + inline(strings.Join(body, " ")) + "</p>\n")
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

func renderList(b *strings.Builder, lines []string, i int) int {
	ordered := !strings.HasPrefix(strings.TrimSpace(lines[i]), "-") && !strings.HasPrefix(strings.TrimSpace(lines[i]), "*")
	tag := "ul"
	if ordered {
		tag = "ol"
	}
	b.WriteString("<" + tag + ">\n")
	var item []string
	flush := func() {
		if item != nil {
			b.WriteString("<li>" + inline(strings.Join(item, " ")) + "</li>\n")
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

func renderTable(b *strings.Builder, lines []string, i int) int {
	j, rows := collect(lines, i, func(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), "|") })
	b.WriteString("<table>\n")
	for k, r := range rows {
		cells := strings.Split(strings.Trim(strings.TrimSpace(r), "|"), "|")
		if k == 1 && strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue
		}
		tag := "td"
		if k == 0 {
			tag = "th"
		}
		b.WriteString("<tr>")
		for _, c := range cells {
			b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(c)) + "</" + tag + ">")
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
func inline(s string) string {
	var codes []string
	s = inlineCode.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00" + string(rune('A'+len(codes)-1)) + "\x00"
	})
	s = html.EscapeString(s)
	s = link.ReplaceAllStringFunc(s, func(m string) string {
		p := link.FindStringSubmatch(m)
		href := p[2]
		if name, ok := strings.CutSuffix(href, ".md"); ok && !strings.Contains(name, "/") {
			href = "#note/" + name
		}
		return `<a href="` + href + `">` + p[1] + "</a>"
	})
	s = bold.ReplaceAllString(s, "<strong>$1</strong>")
	s = italic.ReplaceAllString(s, "$1<em>$2</em>")
	for k, c := range codes {
		s = strings.Replace(s, "\x00"+string(rune('A'+k))+"\x00", c, 1)
	}
	return s
}
