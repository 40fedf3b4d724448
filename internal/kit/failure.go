package kit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Rule is one of Kafka's rules that a suite checks, with the note section that
// explains it.
type Rule struct {
	// ID is short and stable ("V1", "B4"); failure messages start with it in
	// brackets, and the kill matrix and "kafkalive kit" key on it.
	ID string
	// Name says the rule in a few words ("zigzag", "CRC-32C over [21, end)").
	Name string
	// Note is the repository path and anchor of the section that explains it,
	// e.g. "notes/01-records-on-disk.md#varints-7-bits-at-a-time".
	Note string
}

// Failure is what a learner reads when their code breaks a rule. Its Error
// method lays it out; every field but Rule and What is optional.
type Failure struct {
	Rule Rule
	// What is one sentence in Kafka's terms: what should have happened.
	What string
	// Details are extra lines (want/got values, the action script...).
	Details []string
	// Got are the learner's bytes; when set they are hexdumped, with the first
	// byte that differs from Want marked.
	Got []byte
	// Want are the right bytes, if known.
	Want []byte
	// From is where to start looking for the first wrong byte, so that the mark
	// lands in the field the rule is about (a wrong record also changes the CRC
	// before it).
	From int
	// Field names the field at a byte position of Got (for example "crc" for
	// position 17 of a batch), to say which field is wrong.
	Field func(pos int) string
	// Hint, if set, returns the known mistakes whose behaviour the
	// counterexample matches; the failure names them when they are one, or
	// two the cases tried cannot tell apart (see kit.Hint). It runs once, when
	// the failure is printed or Matches is called: recognising a mistake runs
	// the known mistakes, which is wasted on the many failing cases rapid
	// tries while shrinking.
	Hint func() []Match
	// Replay is the command that runs this check again.
	Replay string
	// Also is a second note section to read, after the rule's: the section on
	// termination for a call that did not return.
	Also string
	// TimedOut is true when the learner's function did not return within
	// Deadline while the rule was being checked.
	TimedOut bool

	hintOnce sync.Once
	matches  []Match
}

// Matches returns the known mistakes the failure matches (see Hint), computed
// once.
func (f *Failure) Matches() []Match {
	f.hintOnce.Do(func() {
		if f.Hint != nil {
			f.matches = f.Hint()
		}
	})
	return f.matches
}

// Timeout returns the failure for a call that did not return within the
// deadline: the rule being checked, the call with its input, the extra details
// (the rest of the input) and the note section on termination.
func Timeout(r Rule, call, termination string, details ...string) *Failure {
	return &Failure{
		Rule: r, TimedOut: true, Also: termination, Details: details,
		What: fmt.Sprintf("%s did not return within %v: every call must end, whatever the input (an endless loop?).", call, Deadline),
	}
}

// Headline is the failure's first line: the rule and what should have happened.
func (f *Failure) Headline() string {
	return fmt.Sprintf("[%s %s] %s", f.Rule.ID, f.Rule.Name, f.What)
}

// Error formats the failure:
//
//	[V1 zigzag] AppendVarint(-1) must append Kafka's bytes 01.
//	    want  01
//	    got   fe ff ff ff 0f
//	    00000000  fe ff ff ff 0f      |.....|
//	              ^^ first wrong byte, position 0
//	    this looks like: ...
//	    read: notes/01-records-on-disk.md#...
//	    replay: go test ...
func (f *Failure) Error() string {
	var sb strings.Builder
	sb.WriteString(f.Headline())
	line := func(s string) { sb.WriteString("\n    " + strings.ReplaceAll(s, "\n", "\n    ")) }
	for _, d := range f.Details {
		line(d)
	}
	if f.Got != nil || f.Want != nil {
		mark := -1
		if f.Want != nil {
			mark = FirstDiff(f.Want[min(f.From, len(f.Want)):], f.Got[min(f.From, len(f.Got)):])
			if mark >= 0 {
				mark += min(f.From, len(f.Want), len(f.Got))
			}
		}
		if mark >= 0 && f.Field != nil {
			line(fmt.Sprintf("first wrong byte at position %d, in field %s", mark, f.Field(mark)))
		}
		line("your bytes:")
		line(Hexdump(f.Got, mark))
	}
	for _, l := range formatHint(Hint(f.Matches())) {
		line(l)
	}
	if f.Rule.Note != "" {
		line("read: " + f.Rule.Note)
	}
	if f.Also != "" {
		line("read: " + f.Also)
	}
	if f.Replay != "" {
		line("replay: " + f.Replay)
	}
	return sb.String()
}

var ruleTag = regexp.MustCompile(`\[([A-Z][0-9]+) ([^\]]*)\]`)

// RuleIn returns the ID and name of the first rule tag ("[V1 zigzag]") found in
// text, the output of a failed check, or "" if there is none.
func RuleIn(text string) (id, name string) {
	m := ruleTag.FindStringSubmatch(text)
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}

// ShrinkLimit is how many smaller cases Shrink tries at most.
const ShrinkLimit = 400

// Shrink looks for a smaller case that fails as in does: it tries the cases
// smaller proposes for the current one, in order, moves to the first whose
// check fails, and stops when none does (or after ShrinkLimit checks). The
// rule may change on the way, as it does when rapid shrinks: the smallest
// case shows the mistake where it is easiest to see. It returns the smallest case found and its
// failure; in and f when none is smaller. A failure for a call that did not
// return is not shrunk: once a call hangs, the calls after it are not made.
func Shrink[In any](in In, f *Failure, smaller func(In) []In, check func(In) *Failure) (In, *Failure) {
	if f == nil || f.TimedOut {
		return in, f
	}
	tries := 0
	for {
		moved := false
		for _, c := range smaller(in) {
			if tries++; tries > ShrinkLimit {
				return in, f
			}
			if g := check(c); g != nil && !g.TimedOut {
				in, f, moved = c, g, true
				break
			}
		}
		if !moved {
			return in, f
		}
	}
}

// ShrunkFrom notes on f, the failure of a case Shrink found, the known answer
// it was shrunk from and how that failed, so that the learner sees the
// smallest case beside the known answer.
func (f *Failure) ShrunkFrom(known string, orig *Failure) {
	if f == orig {
		return
	}
	f.Details = append(f.Details, "the known answer this case was shrunk from, "+known+": "+orig.What)
}

// KnownAnswer is one fixed case of a suite: what Kafka's tests or a
// scenario call it, and its input.
type KnownAnswer[In any] struct {
	Name string
	In   In
}

// CheckKnown checks the known answers in order and returns the first
// failure, shrunk to the smallest case that fails (Shrink, with smaller)
// and shown beside its known answer, with replay set; nil if all pass.
func CheckKnown[In any](cases []KnownAnswer[In], check func(In) *Failure, smaller func(In) []In, replay string) *Failure {
	for _, c := range cases {
		f := check(c.In)
		if f == nil {
			continue
		}
		_, g := Shrink(c.In, f, smaller, check)
		if g == f {
			f.Details = append([]string{"known answer: " + c.Name}, f.Details...)
		}
		g.ShrunkFrom(c.Name, f)
		g.Replay = replay
		return g
	}
	return nil
}
