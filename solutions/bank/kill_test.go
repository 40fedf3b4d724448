package bank

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kafkalive/kafkalive/group/groupkit"
	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/replica/replicakit"
)

// killSeed is the rapid seed the kill matrix runs under by default. Any seed
// should kill every mutant; this one makes the verdicts reproducible.
const killSeed = "20261129"

func TestMain(m *testing.M) {
	flag.Parse()
	// Mutants fail on purpose; they must not leave rapid fail files behind.
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	// The verdicts must not depend on the run: pin rapid's seed unless one is
	// given (-rapid.seed=N runs the whole matrix under another seed).
	if f := flag.Lookup("rapid.seed"); f != nil && f.Value.String() == "0" {
		if err := flag.Set("rapid.seed", killSeed); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

func TestSolutionsPass(t *testing.T) {
	for _, e := range exercises() {
		start := time.Now()
		if err := e.solution.check(); err != nil {
			t.Errorf("%s: the suite's fixed cases reject the reference solution:\n%v", e.name, err)
		}
		mid := time.Now()
		if rec := kit.Observe("solution-"+e.name, e.solution.props); rec.Failed() {
			t.Errorf("%s: the suite's properties reject the reference solution:\n%s", e.name, rec.Text())
		}
		t.Logf("%-16s suite on the solution: known answers %v, properties %v", e.name,
			mid.Sub(start).Round(time.Millisecond), time.Since(mid).Round(time.Millisecond))
	}
}

func TestStubsFailWithTheirMessage(t *testing.T) {
	for _, e := range exercises() {
		err := e.stub.check()
		want := "not started: read notes/"
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "exercises/"+e.name+"/") {
			t.Errorf("%s: Check on the untouched stub returned %v, want an error starting %q naming exercises/%s/", e.name, err, want, e.name)
		}
		out, failed := runStubHelper(t, e.name)
		if !failed || !strings.Contains(out, err.Error()) || strings.Contains(out, "panic") {
			t.Errorf("%s: the suite's Test on the untouched stub must fail with exactly %q and no panic; it printed:\n%s", e.name, err, out)
		}
	}
}

// runStubHelper runs TestStubHelper in a child process for one exercise, since
// the suite's Test entry point fails a real *testing.T.
func runStubHelper(t *testing.T, exercise string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStubHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "KIT_STUB_EXERCISE="+exercise)
	out, err := cmd.CombinedOutput()
	return string(out), err != nil
}

func TestStubHelper(t *testing.T) {
	name := os.Getenv("KIT_STUB_EXERCISE")
	if name == "" {
		t.Skip("helper process for TestStubsFailWithTheirMessage")
	}
	for _, e := range exercises() {
		if e.name == name {
			e.stubTest(t)
		}
	}
}

// TestEveryMistakeIsDescribed checks what the mutants' package comments say:
// a "Mistake:" paragraph of their own (two mutants saying the same thing
// could not be told apart in a hint), and a "Breaks:" line naming rules of
// their exercise's suite by their IDs and names.
func TestEveryMistakeIsDescribed(t *testing.T) {
	rules := map[string]kit.Rule{}
	for _, r := range allRules() {
		rules[r.ID] = r
	}
	for _, e := range exercises() {
		said := map[string]string{}
		for _, m := range e.mutants {
			if other, ok := said[m.says]; ok {
				t.Errorf("%s: mutants %s and %s say the same thing: %q", e.name, other, m.name, m.says)
			}
			said[m.says] = m.name
			for _, id := range m.breaks {
				if _, ok := rules[id]; !ok || !strings.HasPrefix(id, e.rules) {
					t.Errorf("%s: mutant %s breaks %s, which is not a rule of its suite (%s...)", e.name, m.name, id, e.rules)
				}
			}
		}
	}
}

// verdict is one row of the kill matrix.
type verdict struct {
	exercise, mutant     string
	breaks               []string // the rules the mutant breaks (its Breaks: line)
	checkRule, propsRule string   // rule IDs that caught it, "-" if it survived
	// checkMatches and propsMatches are the known mistakes each failure
	// found consistent with every answer the mutant gave.
	checkMatches, propsMatches []string
	took                       time.Duration
}

func TestMutantsAreKilled(t *testing.T) {
	var all []bankMutant
	for _, e := range exercises() {
		if *only != "" && e.name != *only {
			continue
		}
		if len(e.mutants) < 8 {
			t.Errorf("%s: the bank holds %d mistakes, want at least 8", e.name, len(e.mutants))
		}
		for _, m := range e.mutants {
			all = append(all, bankMutant{e, m})
		}
	}
	if shard := os.Getenv(shardEnv); shard != "" {
		judgeShard(t, all, shard)
		return
	}
	rows := killMatrix(t)
	survivors := 0
	for _, r := range rows {
		if r.checkRule == "-" || r.propsRule == "-" {
			survivors++
			t.Errorf("%s: mutant %s survived (fixed cases: %s, properties: %s)", r.exercise, r.mutant, r.checkRule, r.propsRule)
		}
		if h, p := hintOf(r.mutant, r.checkMatches), hintOf(r.mutant, r.propsMatches); h == hintWrong || p == hintWrong {
			t.Errorf("%s: mutant %s got a hint that names another mistake (fixed cases: %s, properties: %s)", r.exercise, r.mutant, h, p)
		}
		if !r.attributed(r.checkRule) || !r.attributed(r.propsRule) {
			t.Errorf("%s: mutant %s breaks %s, but the failures name %s (fixed cases) and %s (properties): the first rule a learner's code breaks must be the one named",
				r.exercise, r.mutant, strings.Join(r.breaks, " "), r.checkRule, r.propsRule)
		}
	}
	t.Log("\n" + matrix(rows))
	fmt.Println(summary(rows, survivors))
}

// attributed reports whether rule is one the mutant breaks.
func (v verdict) attributed(rule string) bool { return slices.Contains(v.breaks, rule) }

var killed struct {
	sync.Once
	rows []verdict
}

// killMatrix judges every mutant of the bank, once per test binary.
func killMatrix(t *testing.T) []verdict {
	killed.Do(func() {
		var all []bankMutant
		for _, e := range exercises() {
			if *only != "" && e.name != *only {
				continue
			}
			for _, m := range e.mutants {
				all = append(all, bankMutant{e, m})
			}
		}
		killed.rows = judgeAll(t, all)
	})
	if killed.rows == nil {
		t.Fatal("the kill matrix could not be judged (see the first test that asked for it)")
	}
	return killed.rows
}

type bankMutant struct {
	e exercise
	m subject
}

// shards is how many processes judge the mutants: the test binary and
// shards-1 copies of itself, each with its own kit state (a call that hangs
// in one must not make another's calls time out). Each judges every
// shards-th mutant; the verdicts do not depend on who judged them.
var shards = flag.Int("kit.shards", min(runtime.NumCPU(), 4), "processes judging the kill matrix (1: this one only)")

// only judges the mutants of one exercise ("ch01/varint"), while a suite is
// being worked on.
var only = flag.String("kit.only", "", "judge the mutants of this exercise only (ch01/varint)")

// shardEnv names the shard a helper process judges ("1/2").
const shardEnv = "KIT_KILL_SHARD"

// judgeAll judges every mutant, spread over the shards, and returns the
// verdicts in bank order.
func judgeAll(t *testing.T, all []bankMutant) []verdict {
	n := max(*shards, 1)
	type child struct {
		out  []byte
		err  error
		done chan struct{}
	}
	var children []*child
	for i := 1; i < n; i++ {
		c := &child{done: make(chan struct{})}
		children = append(children, c)
		cmd := exec.Command(os.Args[0], "-test.run=^TestMutantsAreKilled$", "-test.count=1", "-kit.only="+*only,
			"-rapid.seed="+flag.Lookup("rapid.seed").Value.String(),
			"-rapid.checks="+flag.Lookup("rapid.checks").Value.String(),
			"-rapid.steps="+flag.Lookup("rapid.steps").Value.String())
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d/%d", shardEnv, i, n))
		go func() {
			defer close(c.done)
			c.out, c.err = cmd.CombinedOutput()
		}()
	}
	rows := make([]verdict, len(all))
	judged := make([]bool, len(all))
	for k := 0; k < len(all); k += n {
		rows[k], judged[k] = judge(all[k].e.name, all[k].m), true
	}
	for i, c := range children {
		<-c.done
		for _, line := range strings.Split(string(c.out), "\n") {
			k, v, ok := parseRow(line)
			if ok && k < len(all) && k%n == i+1 {
				v.exercise, v.mutant, v.breaks = all[k].e.name, all[k].m.name, all[k].m.breaks
				rows[k], judged[k] = v, true
			}
		}
		if c.err != nil {
			t.Errorf("kill matrix shard %d/%d: %v\n%s", i+1, n, c.err, c.out)
		}
	}
	for k, ok := range judged {
		if !ok {
			t.Fatalf("kill matrix: no verdict for %s/%s from its shard", all[k].e.name, all[k].m.name)
		}
	}
	return rows
}

// judgeShard judges the mutants of one shard ("i/n") and prints their
// verdicts for the process that started this one.
func judgeShard(t *testing.T, all []bankMutant, shard string) {
	i, n, ok := strings.Cut(shard, "/")
	si, err1 := strconv.Atoi(i)
	sn, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || sn < 1 {
		t.Fatalf("%s=%q: want i/n", shardEnv, shard)
	}
	for k := si; k < len(all); k += sn {
		v := judge(all[k].e.name, all[k].m)
		fmt.Printf("killrow\t%d\t%s\t%s\t%s\t%s\t%d\n", k, v.checkRule, v.propsRule, names(v.checkMatches), names(v.propsMatches), v.took)
	}
}

func names(ns []string) string {
	if len(ns) == 0 {
		return "-"
	}
	return strings.Join(ns, ",")
}

func unnames(s string) []string {
	if s == "-" {
		return nil
	}
	return strings.Split(s, ",")
}

// parseRow reads a verdict judgeShard printed.
func parseRow(line string) (int, verdict, bool) {
	f := strings.Split(strings.TrimSpace(line), "\t")
	if len(f) != 7 || f[0] != "killrow" {
		return 0, verdict{}, false
	}
	k, err1 := strconv.Atoi(f[1])
	took, err2 := strconv.ParseInt(f[6], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, verdict{}, false
	}
	return k, verdict{checkRule: f[2], propsRule: f[3], checkMatches: unnames(f[4]), propsMatches: unnames(f[5]), took: time.Duration(took)}, true
}

// judge runs a mutant through its suite's known answers and properties.
func judge(exercise string, m subject) verdict {
	start := time.Now()
	v := verdict{exercise: exercise, mutant: m.name, breaks: m.breaks, checkRule: "-", propsRule: "-"}
	if err := m.check(); err != nil {
		if id, _ := kit.RuleIn(err.Error()); id != "" {
			v.checkRule = id
		}
		var f *kit.Failure
		if errors.As(err, &f) {
			v.checkMatches = matchNames(f.Matches())
		}
	}
	rec := kit.Observe("mutant-"+exercise+"-"+m.name, m.props)
	if rec.Failed() {
		if id, _ := kit.RuleIn(rec.Text()); id != "" {
			v.propsRule = id
		} else {
			v.propsRule = "panic"
		}
		if f := rec.Failure(); f != nil {
			v.propsMatches = matchNames(f.Matches())
		}
	}
	v.took = time.Since(start)
	return v
}

func matchNames(ms []kit.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

// hint is what a failure's "this looks like" says about a mutant.
type hint int

const (
	hintAbsent     hint = iota // no "this looks like" line
	hintRight                  // it names this mutant's mistake, alone
	hintRightOfTwo             // it names this mutant's mistake and one the cases cannot tell from it
	hintWrong                  // it names other mistakes only
)

func (h hint) String() string { return [...]string{"absent", "right", "right of 2", "WRONG"}[h] }

// hintOf says what the hint of a failure whose consistent mistakes are
// matches (names, each with its own Mistake: line) says about mutant.
func hintOf(mutant string, matches []string) hint {
	switch {
	case len(matches) == 0 || len(matches) > kit.MaxNamed:
		return hintAbsent
	case !slices.Contains(matches, mutant):
		return hintWrong
	case len(matches) == 1:
		return hintRight
	}
	return hintRightOfTwo
}

// unseenHint is the hint a failure would give if mutant were not in the bank
// (the learner made a mistake nobody wrote down): the other mistakes it
// matches, named when they are one or two.
func unseenHint(mutant string, matches []string) []string {
	others := slices.DeleteFunc(slices.Clone(matches), func(n string) bool { return n == mutant })
	if len(others) > kit.MaxNamed {
		return nil
	}
	return others
}

func matrix(rows []verdict) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-17s %-26s %-6s %-10s %-23s %-9s %s\n", "exercise", "mistake", "check", "properties", "looks like", "breaks", "time")
	for _, r := range rows {
		fmt.Fprintf(&sb, "%-17s %-26s %-6s %-10s %-23s %-9s %v\n", r.exercise, r.mutant, r.checkRule, r.propsRule,
			hintOf(r.mutant, r.checkMatches).String()+"/"+hintOf(r.mutant, r.propsMatches).String(), strings.Join(r.breaks, " "), r.took.Round(time.Millisecond))
	}
	sb.WriteString("\nper exercise (a hint counts per block: fixed cases, properties; \"unseen\": hints that would name\nanother mistake if this one were not in the bank):\n")
	fmt.Fprintf(&sb, "%-17s %8s %7s %6s %10s %6s %6s %7s %11s\n", "exercise", "mistakes", "caught", "right", "right of 2", "absent", "wrong", "unseen", "rule right")
	for _, e := range perExercise(rows) {
		fmt.Fprintf(&sb, "%-17s %8d %7d %6d %10d %6d %6d %7d %6d of %2d\n", e.name, e.mistakes, e.caught,
			e.hints[hintRight], e.hints[hintRightOfTwo], e.hints[hintAbsent], e.hints[hintWrong], e.unseen, e.ruleRight, e.ruled)
	}
	return sb.String()
}

type exerciseTally struct {
	name                                       string
	mistakes, caught, ruleRight, ruled, unseen int
	hints                                      [4]int
}

func perExercise(rows []verdict) []exerciseTally {
	var out []exerciseTally
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].name != r.exercise {
			out = append(out, exerciseTally{name: r.exercise})
		}
		e := &out[len(out)-1]
		e.mistakes++
		if r.checkRule != "-" && r.propsRule != "-" {
			e.caught++
		}
		for _, ms := range [][]string{r.checkMatches, r.propsMatches} {
			e.hints[hintOf(r.mutant, ms)]++
			if len(unseenHint(r.mutant, ms)) > 0 {
				e.unseen++
			}
		}
		for _, rule := range []string{r.checkRule, r.propsRule} {
			e.ruled++
			if r.attributed(rule) {
				e.ruleRight++
			}
		}
	}
	return out
}

func summary(rows []verdict, survivors int) string {
	var t exerciseTally
	for _, e := range perExercise(rows) {
		for h := range t.hints {
			t.hints[h] += e.hints[h]
		}
		t.unseen += e.unseen
		t.ruleRight += e.ruleRight
		t.ruled += e.ruled
	}
	return fmt.Sprintf("kit kill matrix: %d exercises, %d mistakes, %d survivors; rule named right %d of %d; hints (fixed cases and properties): %d right, %d right of two, %d absent, %d wrong; %d would name another mistake were the mutant unseen",
		len(perExercise(rows)), len(rows), survivors, t.ruleRight, t.ruled, t.hints[hintRight], t.hints[hintRightOfTwo], t.hints[hintAbsent], t.hints[hintWrong], t.unseen)
}

// allRules returns every suite's rules.
func allRules() []kit.Rule {
	return slices.Concat(kafkalogkit.Rules(), replicakit.Rules(), groupkit.Rules())
}
