package scenarios

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// ErrSyntax means a scenario file could not be read; it is wrapped with the
// file and line.
var ErrSyntax = errors.New("scenarios: syntax error")

// parser reads a scenario file line by line. Each line starts with a
// keyword; an indented line continues the text of the line before.
type parser struct {
	sc     *Scenario
	branch *Branch
	step   *Step
	last   *string         // the text an indented line continues
	names  map[string]bool // producers and consumers
	topics map[string]bool
}

// Parse reads one scenario file (see format.md). name is used in errors.
func Parse(name, text string) (*Scenario, error) {
	p := &parser{sc: &Scenario{Config: cluster.Config{Seed: 1, Rules: replica.Modern}}, names: map[string]bool{}, topics: map[string]bool{}}
	for i, line := range strings.Split(text, "\n") {
		if err := p.line(line); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		if p.step != nil && p.step.Line == 0 {
			p.step.Line = i + 1
		}
	}
	if err := p.finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p.sc, nil
}

func (p *parser) line(line string) error {
	trimmed := strings.TrimSpace(line)
	if trimmed == "" || strings.HasPrefix(trimmed, "#") {
		return nil
	}
	if line[0] == ' ' || line[0] == '\t' {
		if p.last == nil {
			return fmt.Errorf("%w: indented line continues nothing", ErrSyntax)
		}
		*p.last += " " + trimmed
		return nil
	}
	key, rest, _ := strings.Cut(trimmed, " ")
	return p.keyword(key, strings.TrimSpace(rest))
}

func (p *parser) keyword(key, rest string) error {
	p.last = nil
	switch key {
	case "name", "group", "title", "summary", "lesson", "source", "cluster", "partition", "marks", "view", "events", "intro":
		return p.header(key, rest)
	case "branch":
		return p.startBranch(rest)
	case "step":
		return p.startStep(rest)
	}
	if p.step == nil {
		return fmt.Errorf("%w: %q outside a step", ErrSyntax, key)
	}
	return p.stepLine(key, rest)
}

func (p *parser) header(key, rest string) error {
	if key == "intro" {
		return p.addIntro(rest)
	}
	if p.step != nil || p.branch != nil {
		return fmt.Errorf("%w: %q after the first step", ErrSyntax, key)
	}
	sc := p.sc
	switch key {
	case "name":
		sc.Name = rest
	case "group":
		sc.Group = rest
	case "title":
		sc.Title, p.last = rest, &sc.Title
	case "summary":
		sc.Summary, p.last = rest, &sc.Summary
	case "lesson":
		sc.Lesson, p.last = rest, &sc.Lesson
	case "source":
		sc.Source = rest
	case "cluster":
		return applyConfig(&sc.Config, rest)
	case "partition":
		return p.partition(rest)
	case "marks":
		if rest != "page-cache" && rest != "none" {
			return fmt.Errorf("%w: marks is page-cache or none", ErrSyntax)
		}
		sc.PageCacheMarks = rest == "page-cache"
	case "view":
		if rest != ViewLogs && rest != ViewGroups {
			return fmt.Errorf("%w: view is logs or groups", ErrSyntax)
		}
		sc.View = rest
	case "events":
		for _, k := range splitList(rest) {
			sc.Events = append(sc.Events, cluster.EventKind(k))
		}
	}
	return nil
}

func (p *parser) addIntro(rest string) error {
	intro := &p.sc.Intro
	if p.branch != nil {
		intro = &p.branch.Intro
	}
	if p.step != nil {
		return fmt.Errorf("%w: intro inside a step (use narrate)", ErrSyntax)
	}
	*intro = append(*intro, rest)
	p.last = &(*intro)[len(*intro)-1]
	return nil
}

// partition reads "kip101-0".
func (p *parser) partition(s string) error {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 {
		return fmt.Errorf("%w: partition %q is not topic-N", ErrSyntax, s)
	}
	n, err := strconv.ParseInt(s[i+1:], 10, 32)
	if err != nil {
		return fmt.Errorf("%w: partition %q is not topic-N", ErrSyntax, s)
	}
	p.sc.Topic, p.sc.Partition = s[:i], int32(n)
	return nil
}

// startBranch reads "branch A after=5 unclean=false".
func (p *parser) startBranch(rest string) error {
	if err := p.closeStep(); err != nil {
		return err
	}
	name, opts, _ := strings.Cut(rest, " ")
	a := parseArgs(opts)
	b := Branch{Name: name, After: a.named["after"], Config: p.sc.Config}
	delete(a.named, "after")
	var over []string
	for _, k := range a.order {
		if k != "after" {
			over = append(over, k+"="+a.named[k])
		}
	}
	over = append(over, a.words...)
	b.Overrides = strings.Join(over, " ")
	if name == "" || b.After == "" {
		return fmt.Errorf("%w: branch needs a name and after=STEP", ErrSyntax)
	}
	if err := applyConfig(&b.Config, b.Overrides); err != nil {
		return err
	}
	p.sc.Branches = append(p.sc.Branches, b)
	p.branch = &p.sc.Branches[len(p.sc.Branches)-1]
	return nil
}

// startStep reads "step 6B b3 restarts".
func (p *parser) startStep(rest string) error {
	if err := p.closeStep(); err != nil {
		return err
	}
	id, title, _ := strings.Cut(rest, " ")
	if id == "" {
		return fmt.Errorf("%w: step needs an id", ErrSyntax)
	}
	p.step = &Step{ID: id, Title: strings.TrimSpace(title)}
	p.last = &p.step.Title
	return nil
}

func (p *parser) stepLine(key, rest string) error {
	s := p.step
	switch key {
	case "narrate":
		s.Narration = append(s.Narration, rest)
		p.last = &s.Narration[len(s.Narration)-1]
	case "outcome":
		s.Outcome, p.last = rest, &s.Outcome
	case "reveal":
		s.Reveal = append(s.Reveal, rest)
		p.last = &s.Reveal[len(s.Reveal)-1]
	case "do":
		return p.action(rest)
	case "question":
		s.Question = &Question{Text: rest}
		p.last = &s.Question.Text
	case "choice", "answer", "why":
		return p.questionLine(key, rest)
	case "expect", "shows":
		f, err := parseFact(rest, p.names, p.topics)
		if err != nil {
			return err
		}
		if key == "shows" && (s.Question == nil || s.Question.Answer == 0) {
			return fmt.Errorf("%w: shows backs an answer: it comes after the question's answer", ErrSyntax)
		}
		f.Shows = key == "shows"
		if f.Kind == FactLog && !p.sc.PageCacheMarks && strings.Contains(f.parts.records, "*") {
			return fmt.Errorf("%w: records marked * in a scenario without page-cache marks", ErrSyntax)
		}
		s.Expect = append(s.Expect, f)
	case "wait":
		return p.wait(rest)
	case "standin":
		if s.Wait == nil {
			return fmt.Errorf("%w: standin without a wait before it", ErrSyntax)
		}
		do := s.Actions
		s.Actions = nil
		err := p.action(rest)
		s.Wait.StandIn, s.Actions = append(s.Wait.StandIn, s.Actions...), do
		return err
	case "known":
		if len(s.Expect) == 0 {
			return fmt.Errorf("%w: known without an expect before it", ErrSyntax)
		}
		f := &s.Expect[len(s.Expect)-1]
		if f.Shows {
			return fmt.Errorf("%w: a fact that shows the answer cannot be a known divergence", ErrSyntax)
		}
		f.Known, p.last = rest, &f.Known
	default:
		return fmt.Errorf("%w: unknown keyword %q", ErrSyntax, key)
	}
	return nil
}

func (p *parser) action(rest string) error {
	if strings.HasPrefix(rest, "produce-many ") {
		acts, err := produceMany(rest)
		p.step.Actions = append(p.step.Actions, acts...)
		return err
	}
	a, err := parseAction(rest)
	if err != nil {
		return err
	}
	switch a.Kind {
	case cluster.ActAddProducer:
		p.names[a.Producer.Name] = true
	case cluster.ActAddConsumer:
		p.names[a.Consumer.Name] = true
	case cluster.ActCreateTopic:
		p.topics[a.Topic.Name] = true
	}
	p.step.Actions = append(p.step.Actions, a)
	return nil
}

// wait reads "wait external topic=clicks records=5".
func (p *parser) wait(rest string) error {
	if p.step.Wait != nil || len(p.step.Actions) > 0 {
		return fmt.Errorf("%w: a step waits once, before its actions", ErrSyntax)
	}
	kind, opts, _ := strings.Cut(rest, " ")
	a := parseArgs(opts)
	n, err := strconv.ParseInt(a.named["records"], 10, 64)
	if kind != "external" || a.named["topic"] == "" || err != nil || n < 1 || len(a.words) > 0 || len(a.named) != 2 {
		return fmt.Errorf("%w: wait external topic=T records=N (N >= 1): %q", ErrSyntax, rest)
	}
	if !p.topics[a.named["topic"]] {
		return fmt.Errorf("%w: wait for topic %s, which no create-topic before it creates", ErrSyntax, a.named["topic"])
	}
	p.step.Wait = &Wait{Topic: a.named["topic"], Records: n}
	return nil
}

func (p *parser) questionLine(key, rest string) error {
	q := p.step.Question
	if q == nil {
		return fmt.Errorf("%w: %s before question", ErrSyntax, key)
	}
	switch key {
	case "choice":
		q.Choices = append(q.Choices, rest)
		p.last = &q.Choices[len(q.Choices)-1]
	case "answer":
		n, err := strconv.Atoi(rest)
		if err != nil {
			return fmt.Errorf("%w: answer %q is not a choice number", ErrSyntax, rest)
		}
		q.Answer = n
	case "why":
		q.Why, p.last = rest, &q.Why
	}
	return nil
}

// closeStep checks the step being read and files it under the main line or
// the current branch.
func (p *parser) closeStep() error {
	s := p.step
	if s == nil {
		return nil
	}
	p.step = nil
	if q := s.Question; q != nil && !q.complete() {
		return fmt.Errorf("%w: step %s: a question needs a text, two or more choices, an answer among them and a why", ErrSyntax, s.ID)
	}
	if s.Wait != nil && len(s.Wait.StandIn) == 0 {
		return fmt.Errorf("%w: step %s: a wait needs standin actions, played when no client is there", ErrSyntax, s.ID)
	}
	if s.Question != nil && !slices.ContainsFunc(s.Expect, func(f Fact) bool { return f.Shows }) {
		return fmt.Errorf("%w: step %s: a question needs a shows line, a fact that backs its answer", ErrSyntax, s.ID)
	}
	if p.branch != nil {
		p.branch.Steps = append(p.branch.Steps, *s)
	} else {
		p.sc.Steps = append(p.sc.Steps, *s)
	}
	return nil
}

func (p *parser) finish() error {
	if err := p.closeStep(); err != nil {
		return err
	}
	sc := p.sc
	if sc.Name == "" || sc.Group == "" || sc.Title == "" || sc.Summary == "" {
		return fmt.Errorf("%w: name, group, title and summary are required", ErrSyntax)
	}
	if len(sc.Steps) == 0 {
		return fmt.Errorf("%w: at least one step is required", ErrSyntax)
	}
	if sc.Topic == "" && usesOwnPartition(sc) {
		return fmt.Errorf("%w: b<N> and ctl facts need a partition line", ErrSyntax)
	}
	seen := map[string]bool{}
	for _, s := range sc.Steps {
		if seen[s.ID] {
			return fmt.Errorf("%w: step %s twice", ErrSyntax, s.ID)
		}
		seen[s.ID] = true
	}
	for _, b := range sc.Branches {
		if !seen[b.After] {
			return fmt.Errorf("%w: branch %s after unknown step %s", ErrSyntax, b.Name, b.After)
		}
	}
	return nil
}

// usesOwnPartition reports whether a fact talks about the scenario's
// partition (b<N> or ctl).
func usesOwnPartition(sc *Scenario) bool {
	steps := sc.Steps
	for _, b := range sc.Branches {
		steps = append(steps[:len(steps):len(steps)], b.Steps...)
	}
	for _, s := range steps {
		for _, f := range s.Expect {
			if f.Kind == FactLog || f.Kind == FactController {
				return true
			}
		}
	}
	return false
}

// complete reports whether a question can be asked: text, two or more
// non-empty choices, an answer among them and a why.
func (q *Question) complete() bool {
	for _, c := range q.Choices {
		if c == "" {
			return false
		}
	}
	return q.Text != "" && len(q.Choices) >= 2 && q.Answer >= 1 && q.Answer <= len(q.Choices) && q.Why != ""
}
