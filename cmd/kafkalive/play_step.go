package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/scenarios"
)

// player plays one scenario in the terminal.
type player struct {
	sc       *scenarios.Scenario
	opts     playOptions
	out      io.Writer
	in       *bufio.Reader
	color    bool // mark changed lines in bold yellow too
	right    int
	asked    int
	mismatch int
}

func (p *player) play(stderr io.Writer) int {
	p.header()
	r, err := scenarios.NewRun(p.sc, p.opts.seed)
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	for {
		if err := p.step(r); err != nil {
			if errors.Is(err, scenarios.ErrDone) {
				break
			}
			fmt.Fprintf(stderr, "kafkalive: %v\n", err)
			return 1
		}
	}
	p.footer()
	if p.mismatch > 0 {
		return 1
	}
	return 0
}

func (p *player) header() {
	sc := p.sc
	fmt.Fprintf(p.out, "%s\n%s\n", sc.Title, strings.Repeat("=", len([]rune(sc.Title))))
	fmt.Fprintf(p.out, "(%s; %s)\n", sc.Source, describeConfig(sc.Config))
	for _, para := range sc.Intro {
		p.para(para)
	}
}

func describeConfig(c cluster.Config) string {
	unclean := "off"
	if c.UncleanLeaderElectionEnable {
		unclean = "on"
	}
	minISR := c.MinInsyncReplicas
	if minISR == 0 {
		minISR = 1
	}
	brokers := c.Brokers
	if brokers == 0 {
		brokers = cluster.DefaultBrokers
	}
	return fmt.Sprintf("rules %s, %d brokers, min.insync.replicas %d, unclean election %s", c.Rules, brokers, minISR, unclean)
}

func (p *player) para(text string) {
	fmt.Fprintln(p.out)
	for _, l := range wrap(text, 78) {
		fmt.Fprintln(p.out, l)
	}
}

// step narrates the next step, asks its question, plays it and shows the
// outcome.
func (p *player) step(r *scenarios.Run) error {
	next, branch := r.Peek()
	if next == nil {
		return scenarios.ErrDone
	}
	if branch != nil {
		with := ""
		if branch.Overrides != "" {
			with = ", now with " + branch.Overrides
		}
		fmt.Fprintf(p.out, "\n*** Branch %s: back to the end of step %s%s ***\n", branch.Name, branch.After, with)
		for _, para := range branch.Intro {
			p.para(para)
		}
	}
	fmt.Fprintf(p.out, "\n--- Step %s: %s ---\n", next.ID, next.Title)
	for _, para := range next.Narration {
		p.para(scenarios.Fill(para, scenarios.DefaultBootstrap))
	}
	guess := p.ask(next.Question)
	o, err := r.Next()
	if err != nil {
		return err
	}
	p.show(o)
	if next.Outcome != "" {
		fmt.Fprintf(p.out, "\n=> %s\n", next.Outcome)
	}
	for _, para := range next.Reveal {
		p.para(scenarios.Fill(para, scenarios.DefaultBootstrap))
	}
	p.judge(next.Question, guess)
	p.reference(o)
	return nil
}

// ask prints the question and reads a guess (0: none).
func (p *player) ask(q *scenarios.Question) int {
	if q == nil {
		return 0
	}
	p.para("Question: " + q.Text)
	for i, c := range q.Choices {
		lines := wrap(c, 72)
		fmt.Fprintf(p.out, "  %d) %s\n", i+1, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(p.out, "     %s\n", l)
		}
	}
	if p.opts.auto {
		return 0
	}
	for {
		fmt.Fprintf(p.out, "Your guess [1-%d]: ", len(q.Choices))
		if f, ok := p.out.(interface{ Flush() error }); ok {
			f.Flush()
		}
		line, err := p.in.ReadString('\n')
		if err != nil && strings.TrimSpace(line) == "" {
			fmt.Fprintln(p.out, "\n(end of input: playing on without questions)")
			p.opts.auto = true
			return 0
		}
		n, convErr := strconv.Atoi(strings.TrimSpace(line))
		if convErr == nil && n >= 1 && n <= len(q.Choices) {
			fmt.Fprintf(p.out, "%d\n", n)
			return n
		}
		fmt.Fprintf(p.out, "%q\nPlease type a number from 1 to %d.\n", strings.TrimSpace(line), len(q.Choices))
	}
}

// show prints what happened and the state, lines that changed marked ">".
func (p *player) show(o scenarios.Outcome) {
	if len(o.Events) > 0 {
		fmt.Fprintln(p.out, "\nWhat happened:")
		for _, l := range o.EventLines() {
			fmt.Fprintf(p.out, "  %s\n", l)
		}
	}
	fmt.Fprintln(p.out, "\nState (> changed):")
	before := map[string]bool{}
	for _, l := range strings.Split(p.sc.StateText(o.Before), "\n") {
		before[l] = true
	}
	for _, l := range strings.Split(strings.TrimRight(p.sc.StateText(o.After), "\n"), "\n") {
		switch {
		case before[l]:
			fmt.Fprintf(p.out, "  %s\n", l)
		case p.color:
			fmt.Fprintf(p.out, "> \x1b[1;33m%s\x1b[0m\n", l)
		default:
			fmt.Fprintf(p.out, "> %s\n", l)
		}
	}
}

func (p *player) judge(q *scenarios.Question, guess int) {
	if q == nil {
		return
	}
	answer := fmt.Sprintf("%d) %s", q.Answer, q.Choices[q.Answer-1])
	switch {
	case guess == 0:
		p.para("Answer: " + answer)
	case guess == q.Answer:
		p.asked++
		p.right++
		p.para("Right: " + answer)
	default:
		p.asked++
		p.para("Not quite. The answer is " + answer)
	}
	p.para("Why: " + scenarios.Fill(q.Why, scenarios.DefaultBootstrap))
}

// reference reports where the simulation and the reference tables differ.
func (p *player) reference(o scenarios.Outcome) {
	for _, c := range o.Checks {
		switch {
		case c.Failed():
			p.mismatch++
			fmt.Fprintf(p.out, "\n! The simulation differs from the reference table here:\n  %s\n", strings.ReplaceAll(c.String(), "\n", "\n  "))
		case c.Fact.Known != "":
			fmt.Fprintf(p.out, "\nNote: the reference table has %s %s; the simulation has %s.\n", c.Fact.Subject, c.Fact.Text, c.Got)
			for _, l := range wrap("Why: "+c.Fact.Known, 76) {
				fmt.Fprintf(p.out, "  %s\n", l)
			}
		}
	}
}

func (p *player) footer() {
	fmt.Fprintln(p.out, "\n--- The end ---")
	if p.sc.Lesson != "" {
		p.para(p.sc.Lesson)
	}
	if p.asked > 0 {
		fmt.Fprintf(p.out, "You answered %d of %d questions right.\n", p.right, p.asked)
	}
	if p.mismatch > 0 {
		fmt.Fprintf(p.out, "%d fact(s) of the reference tables were not reached by the simulation.\n", p.mismatch)
	}
}
