package web

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRenderMarkdown(t *testing.T) {
	for _, tc := range []struct{ name, md, want string }{
		{"heading and paragraph", "# Title\n\nSome *words* and **bold**\nwrapped.\n",
			"<h1>Title</h1>\n<p>Some <em>words</em> and <strong>bold</strong> wrapped.</p>\n"},
		{"escapes html", "a <script> & `x<y`\n", "<p>a &lt;script&gt; &amp; <code>x&lt;y</code></p>\n"},
		{"fence", "```go\nif a < b {}\n```\n", "<pre><code class=\"lang-go\">if a &lt; b {}</code></pre>\n"},
		{"list", "- one\n  more\n- two\n", "<ul>\n<li>one more</li>\n<li>two</li>\n</ul>\n"},
		{"ordered", "1. a\n2. b\n", "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"},
		{"note link", "see [the index](02-offsets-and-the-index.md)\n", "<p>see <a href=\"#note/02-offsets-and-the-index\">the index</a></p>\n"},
		{"web link", "[Kafka](https://kafka.apache.org/)\n", "<p><a href=\"https://kafka.apache.org/\">Kafka</a></p>\n"},
		{"table", "| a | b |\n|---|---|\n| 1 | `2` |\n", "<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>1</td><td><code>2</code></td></tr>\n</table>\n"},
		{"quote", "> careful\n", "<blockquote><p>careful</p>\n</blockquote>\n"},
		{"generated markers", "<!-- generated: x -->\ntext\n<!-- end generated -->\n", "<p>text</p>\n"},
		{"unclosed fence", "```\nabc", "<pre><code>abc</code></pre>\n"},
		{"a number wrapped to the line start", "the largest offset <=\n217. Then more.\n", "<p>the largest offset &lt;= 217. Then more.</p>\n"},
		{"snake_case stays", "log_start_offset and a_b\n", "<p>log_start_offset and a_b</p>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, RenderMarkdown(tc.md)); diff != "" {
				t.Errorf("RenderMarkdown(%q) (-want +got):\n%s", tc.md, diff)
			}
		})
	}
}

func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{"# a\n", "```\n", "| a |\n|--|\n", "- x\n  y\n", "[a](b.md) `c` **d** _e_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = RenderMarkdown(s) // must not panic
	})
}
