package kafkatools

import (
	"errors"
	"flag"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func TestSplitLineQuotesAsAShellDoes(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`produce checkout "hello world"`, []string{"produce", "checkout", "hello world"}},
		{`produce checkout 'hello world' --key alice`, []string{"produce", "checkout", "hello world", "--key", "alice"}},
		{"  kill \t 2  ", []string{"kill", "2"}},
		{`produce p hello\ world`, []string{"produce", "p", "hello world"}},
		{`produce p 'it'\''s'`, []string{"produce", "p", "it's"}},
		{`produce p "say \"hi\" \\ \$x \a"`, []string{"produce", "p", `say "hi" \ $x \a`}},
		{`produce p '\n "x"'`, []string{"produce", "p", `\n "x"`}},
		{`produce p ''`, []string{"produce", "p", ""}},
		{`produce p a""b''c`, []string{"produce", "p", "abc"}},
		{`produce p x\`, []string{"produce", "p", `x\`}},
		{"produce p a\\\nb", []string{"produce", "p", "ab"}},
		{"", nil},
	} {
		got, err := SplitLine(c.line)
		require.NoError(t, err, c.line)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("SplitLine(%q) (-want +got):\n%s", c.line, diff)
		}
	}
	for line, want := range map[string]string{
		`produce p "hello`:  `unclosed quote: the " at column 11 is never closed`,
		`produce p 'hello`:  `unclosed quote: the ' at column 11 is never closed`,
		`produce p "a\"`:    `unclosed quote: the " at column 11 is never closed`,
		`produce p 'a' "b'`: `unclosed quote: the " at column 15 is never closed`,
	} {
		_, err := SplitLine(line)
		if !errors.Is(err, ErrUnclosedQuote) || err.Error() != want {
			t.Errorf("SplitLine(%q): %v, want %q", line, err, want)
		}
	}
}

var (
	quoteN    = flag.Int("quote.n", 300, "random lines TestSplitLineAgreesWithSh compares")
	quoteSeed = flag.Uint64("quote.seed", 0, "seed of TestSplitLineAgreesWithSh (0: a new one)")
)

// TestSplitLineAgreesWithSh draws lines of quotes, backslashes, blanks and
// letters and compares SplitLine with /bin/sh's own splitting (printf of
// "$@"), and checks that JoinWords quotes words so that they split back.
func TestSplitLineAgreesWithSh(t *testing.T) {
	seed := *quoteSeed
	if seed == 0 {
		seed = rand.Uint64()
	}
	rnd := rand.New(rand.NewPCG(seed, 1))
	defer func() {
		if t.Failed() {
			t.Logf("replay: go test ./internal/kafkatools -run TestSplitLineAgreesWithSh -quote.seed=%d", seed)
		}
	}()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Logf("no sh: comparing only the round trip")
	}
	const alphabet = `ab '"\ $` + "\t"
	for i := 0; i < *quoteN; i++ {
		var b strings.Builder
		for n := rnd.IntN(12); n > 0; n-- {
			b.WriteByte(alphabet[rnd.IntN(len(alphabet))])
		}
		line := b.String()
		got, err := SplitLine(line)
		if sh != "" {
			// set -f: no globbing; escapeDollars: no expansion, so that
			// sh splits the line as SplitLine does
			script := `set -f; eval "set -- $1" && for w; do printf '%s\0' "$w"; done`
			out, shErr := exec.Command(sh, "-c", script, "sh", escapeDollars(line)).Output()
			if (shErr != nil) != (err != nil) {
				t.Fatalf("line %q: SplitLine error %v, sh error %v", line, err, shErr)
			}
			if err == nil {
				var words []string
				if len(out) > 0 {
					words = strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
				}
				if diff := cmp.Diff(words, got); diff != "" {
					t.Fatalf("line %q (-sh +SplitLine):\n%s", line, diff)
				}
			}
		}
		if err != nil {
			continue
		}
		back, err := SplitLine(JoinWords(got))
		require.NoError(t, err)
		if diff := cmp.Diff(got, back); diff != "" {
			t.Fatalf("line %q: JoinWords gives %q, which splits (-want +got):\n%s", line, JoinWords(got), diff)
		}
	}
}

// escapeDollars puts a backslash before every $ outside single quotes, so
// that sh expands nothing and splits as SplitLine does.
func escapeDollars(line string) string {
	var b strings.Builder
	inSingle, inDouble := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && !inSingle && i+1 < len(line):
			b.WriteByte(c)
			i++
			b.WriteByte(line[i])
			continue
		case c == '\'' && !inDouble:
			inSingle = !inSingle
		case c == '"' && !inSingle:
			inDouble = !inDouble
		case c == '$' && !inSingle:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}
