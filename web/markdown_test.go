package web

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRenderMarkdown(t *testing.T) {
	for _, tc := range []struct{ name, md, want string }{
		{"heading and paragraph", "# Title\n\nSome *words* and **bold**\nwrapped.\n",
			"<h1 id=\"title\">Title</h1>\n<p>Some <em>words</em> and <strong>bold</strong> wrapped.</p>\n"},
		{"escapes html", "a <script> & `x<y`\n", "<p>a &lt;script&gt; &amp; <code>x&lt;y</code></p>\n"},
		{"fence", "```go\nif a < b {}\n```\n", "<pre><code class=\"lang-go\">if a &lt; b {}</code></pre>\n"},
		{"list", "- one\n  more\n- two\n", "<ul>\n<li>one more</li>\n<li>two</li>\n</ul>\n"},
		{"ordered", "1. a\n2. b\n", "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"},
		{"note link", "see [the index](02-offsets-and-the-index.md)\n", "<p>see <a href=\"#note/02-offsets-and-the-index\">the index</a></p>\n"},
		{"web link", "[Kafka](https://kafka.apache.org/)\n", "<p><a href=\"https://kafka.apache.org/\" target=\"_blank\" rel=\"noopener\">Kafka</a></p>\n"},
		{"note section link", "see [the rule](03-segments-and-retention.md#never-past-the-high-watermark)\n",
			"<p>see <a href=\"#note/03-segments-and-retention/never-past-the-high-watermark\">the rule</a></p>\n"},
		{"repository file", "[the index](../kafkalog/index.go)\n",
			"<p><a href=\"" + RepositoryURL + "kafkalog/index.go\" target=\"_blank\" rel=\"noopener\">the index</a></p>\n"},
		{"heading anchors like GitHub's", "## `retention.ms`: the largest timestamp\n## An epoch newer than the follower's\n## A\n## A\n",
			"<h2 id=\"retentionms-the-largest-timestamp\"><code>retention.ms</code>: the largest timestamp</h2>\n" +
				"<h2 id=\"an-epoch-newer-than-the-followers\">An epoch newer than the follower&#39;s</h2>\n" +
				"<h2 id=\"a\">A</h2>\n<h2 id=\"a-1\">A</h2>\n"},
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

// Inside a note, headings and links to a section of the same note carry the
// note's name, as the page's fragments do.
func TestRenderNoteSections(t *testing.T) {
	got := RenderNote("05-leader-epochs", "## When the leader has no answer\nsee [below](#when-the-leader-has-no-answer) and [ch 3](03-segments-and-retention.md)\n")
	want := "<h2 id=\"note/05-leader-epochs/when-the-leader-has-no-answer\">When the leader has no answer</h2>\n" +
		"<p>see <a href=\"#note/05-leader-epochs/when-the-leader-has-no-answer\">below</a> and <a href=\"#note/03-segments-and-retention\">ch 3</a></p>\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RenderNote (-want +got):\n%s", diff)
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
