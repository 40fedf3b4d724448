package solutions

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// killSeed is the rapid seed the kill matrix runs under by default. Any seed
// should kill every mutant; this one makes the verdicts reproducible.
const killSeed = "20261129"

// subject is one implementation of an exercise, seen through its suite.
type subject struct {
	name  string
	check func() error
	props func(*rapid.T)
}

// bank is everything the kill test needs about one exercise.
type bank struct {
	exercise string // "ch01/varint"
	solution subject
	stub     subject
	// stubTest runs the suite's Test entry point on the stub (in a helper process).
	stubTest func(t *testing.T)
	mutants  []subject
}

// banks lists the exercises, in chapter order.
func banks() []bank {
	return []bank{varintBank(), batchBank(), indexBank(), retentionBank(), recoveryBank(), truncationBank(), cooperativeBank()}
}

// stubTODO is what an untouched exercise stub panics with, built here the way
// exercises/todo builds it (the root module cannot import the exercises module).
type stubTODO struct{}

func (stubTODO) NotStarted() bool { return true }

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
	for _, b := range banks() {
		start := time.Now()
		if err := b.solution.check(); err != nil {
			t.Errorf("%s: the suite's fixed cases reject the reference solution:\n%v", b.exercise, err)
		}
		mid := time.Now()
		if rec := kit.Observe("solution-"+b.exercise, b.solution.props); rec.Failed() {
			t.Errorf("%s: the suite's properties reject the reference solution:\n%s", b.exercise, rec.Text())
		}
		t.Logf("%-15s suite on the solution: known answers %v, properties %v", b.exercise,
			mid.Sub(start).Round(time.Millisecond), time.Since(mid).Round(time.Millisecond))
	}
}

func TestStubsFailWithTheirMessage(t *testing.T) {
	for _, b := range banks() {
		err := b.stub.check()
		want := "not started: read notes/"
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "exercises/"+b.exercise+"/") {
			t.Errorf("%s: Check on the untouched stub returned %v, want an error starting %q naming exercises/%s/", b.exercise, err, want, b.exercise)
		}
		out, failed := runStubHelper(t, b.exercise)
		if !failed || !strings.Contains(out, err.Error()) || strings.Contains(out, "panic") {
			t.Errorf("%s: the suite's Test on the untouched stub must fail with exactly %q and no panic; it printed:\n%s", b.exercise, err, out)
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
	exercise := os.Getenv("KIT_STUB_EXERCISE")
	if exercise == "" {
		t.Skip("helper process for TestStubsFailWithTheirMessage")
	}
	for _, b := range banks() {
		if b.exercise == exercise {
			b.stubTest(t)
		}
	}
}

// verdict is one row of the kill matrix.
type verdict struct {
	exercise, mutant     string
	checkRule, propsRule string // rule IDs that caught it, "-" if it survived
	checkHint, propsHint hint
	breaks               string // the rules it breaks, as listed in ruleBroken ("" if not listed)
	took                 time.Duration
}

// hint is what a failure's "this looks like" said about a mutant.
type hint int

const (
	hintAbsent hint = iota // no "this looks like" line
	hintRight              // it names this mutant's mistake
	hintWrong              // it names another mistake
)

func (h hint) String() string { return [...]string{"absent", "right", "WRONG"}[h] }

// ruleBroken lists, per mutant, the rules whose breaking it is: a failure
// must name one of them, from the fixed cases and from the properties alike.
// A mistake breaks one decision, and the rule named must be that decision's,
// not the first check that happened to see a consequence of it (a record
// mistake also changes the length and the CRC). Several rules are listed
// where the decision shows as more than one rule depending on the input
// (forgetting zigzag gives a wrong length for -1 and a wrong value for 5).
var ruleBroken = map[string]string{
	"ch01/varint/forgotzigzag":         "V3 V4",
	"ch01/varint/lastbytecontinuation": "V2",
	"ch01/varint/signedshift":          "V2 V3",
	"ch01/varint/logicalsignmask":      "V3 V4",
	"ch01/varint/signmagnitude":        "V4",
	"ch01/varint/bigendiangroups":      "V4",
	"ch01/varint/eightbitshift":        "V3 V4",
	"ch01/varint/fourbytes":            "V3",
	"ch01/varint/overwritesdst":        "V1",

	"ch01/batch/crcheaderonly":            "B6",
	"ch01/batch/crcieee":                  "B6",
	"ch01/batch/crcincludesepoch":         "B6",
	"ch01/batch/crcrecordsonly":           "B6",
	"ch01/batch/crcwholebatch":            "B6",
	"ch01/batch/lengthafterbaseoffset":    "B5",
	"ch01/batch/lengthrecordsonly":        "B5",
	"ch01/batch/lengthwholebatch":         "B5",
	"ch01/batch/littleendian":             "B3",
	"ch01/batch/nullasempty":              "B1",
	"ch01/batch/offsetdeltacounter":       "B4",
	"ch01/batch/recordlengthcountsitself": "B1",
	"ch01/batch/timestampdeltavarint":     "B1",
	"ch01/batch/lastdeltafromrecords":     "B3",
	"ch01/batch/maxtimestampfromrecords":  "B3",

	"ch02/index/absoluteoffsets":     "I3",
	"ch02/index/firstentrybelow":     "I2",
	"ch02/index/nextentry":           "I1",
	"ch02/index/returnsbatchend":     "I5",
	"ch02/index/scanbaseoffset":      "I5",
	"ch02/index/scanstrictlygreater": "I5",
	"ch02/index/skipwithoutoverhead": "I5",
	"ch02/index/stopsoneearly":       "I1",
	"ch02/index/strictlyless":        "I1",
	"ch02/index/swappedfields":       "I1",
	"ch02/index/trustszeropadding":   "I4",
	"ch02/index/lastfromcount":       "I5",
	"ch02/index/skipsempty":          "I5",
	"ch02/index/skipscontrol":        "I5",

	"ch03/retention/byteslate":            "R2",
	"ch03/retention/bytesoneearly":        "R2",
	"ch03/retention/deletesemptyactive":   "R5",
	"ch03/retention/firstruleonly":        "R1 R2 R3",
	"ch03/retention/firsttimestamp":       "R1",
	"ch03/retention/ignoreshighwatermark": "R4",
	"ch03/retention/ignorespolicy":        "R6",
	"ch03/retention/notaprefix":           "R7",
	"ch03/retention/startoffsetownbase":   "R3",
	"ch03/retention/timenotstrict":        "R1",

	"ch04/recovery/crcwrongrange":       "C3 C6",
	"ch04/recovery/cutatlastindexentry": "C6",
	"ch04/recovery/indexabsolute":       "C7",
	"ch04/recovery/indexatleast":        "C7",
	"ch04/recovery/indexbaseoffset":     "C7",
	"ch04/recovery/keepstorntail":       "C1",
	"ch04/recovery/keepszeropadding":    "C2",
	"ch04/recovery/nocrc":               "C3",
	"ch04/recovery/noindex":             "C7",
	"ch04/recovery/nomagic":             "C4",
	"ch04/recovery/nooffsetcheck":       "C5",
	"ch04/recovery/skipsbadbatch":       "C3 C4 C5 C6",
	"ch04/recovery/trustslength":        "C2 C8",
	"ch04/recovery/lastfromcount":       "C5 C6 C7",
	"ch04/recovery/stopsatempty":        "C6",

	"ch05/truncation/asksonce":           "T1 T4",
	"ch05/truncation/endoffsetplusone":   "T1",
	"ch05/truncation/exactepoch":         "T1 T4",
	"ch05/truncation/forgetstrim":        "T5 T6",
	"ch05/truncation/ignoresleaderepoch": "T1 T7",
	"ch05/truncation/keepshw":            "T6",
	"ch05/truncation/keepsownleo":        "T1",
	"ch05/truncation/neveranotherround":  "T4",
	"ch05/truncation/neweranotherround":  "T9",
	"ch05/truncation/newerkeepslog":      "T9",
	"ch05/truncation/toleaderend":        "T1 T3",
	"ch05/truncation/truncatestohw":      "T1 T2 T7",
	"ch05/truncation/undefinedtohw":      "T7",

	"ch06/cooperative/doubleassigns":     "G1 G5",
	"ch06/cooperative/flooronly":         "G3 G4",
	"ch06/cooperative/forgetsnewmembers": "G7",
	"ch06/cooperative/handsoutrevoked":   "G2",
	"ch06/cooperative/ignoresowned":      "G3 G9",
	"ch06/cooperative/inputorder":        "G6",
	"ch06/cooperative/keepseverything":   "G4",
	"ch06/cooperative/maxforall":         "G4",
	"ch06/cooperative/revokeseverything": "G3",
	"ch06/cooperative/freezesonrevoke":   "G5",
	"ch06/cooperative/keepsdeleted":      "G1",
}

// shards is how many processes judge the mutants: the test binary and
// shards-1 copies of itself, each with its own kit state (a call that hangs
// in one must not make another's calls time out). Each judges every
// shards-th mutant; the verdicts do not depend on who judged them.
var shards = flag.Int("kit.shards", min(runtime.NumCPU(), 4), "processes judging the kill matrix (1: this one only)")

// shardEnv names the shard a helper process judges ("1/2").
const shardEnv = "KIT_KILL_SHARD"

type bankMutant struct {
	exercise string
	m        subject
}

func TestMutantsAreKilled(t *testing.T) {
	var all []bankMutant
	for _, b := range banks() {
		if len(b.mutants) < 8 {
			t.Errorf("%s: the bank holds %d mistakes, want at least 8", b.exercise, len(b.mutants))
		}
		for _, m := range b.mutants {
			all = append(all, bankMutant{b.exercise, m})
		}
	}
	if shard := os.Getenv(shardEnv); shard != "" {
		judgeShard(t, all, shard)
		return
	}
	rows := judgeAll(t, all)
	survivors := 0
	for _, r := range rows {
		if r.checkRule == "-" || r.propsRule == "-" {
			survivors++
			t.Errorf("%s: mutant %s survived (fixed cases: %s, properties: %s)", r.exercise, r.mutant, r.checkRule, r.propsRule)
		}
		if r.checkHint == hintWrong || r.propsHint == hintWrong {
			t.Errorf("%s: mutant %s got a hint that names another mistake (fixed cases: %s, properties: %s)", r.exercise, r.mutant, r.checkHint, r.propsHint)
		}
		if !r.attributed(r.checkRule) || !r.attributed(r.propsRule) {
			t.Errorf("%s: mutant %s breaks %s, but the failures name %s (fixed cases) and %s (properties)", r.exercise, r.mutant, r.breaks, r.checkRule, r.propsRule)
		}
	}
	t.Log("\n" + matrix(rows))
	fmt.Println(summary(rows, survivors))
}

// attributed reports whether rule is one the mutant breaks (true when the
// mutant is not listed in ruleBroken: a new mistake is judged once listed).
func (v verdict) attributed(rule string) bool {
	return v.breaks == "" || slices.Contains(strings.Fields(v.breaks), rule)
}

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
		cmd := exec.Command(os.Args[0], "-test.run=^TestMutantsAreKilled$", "-test.count=1",
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
		rows[k], judged[k] = judge(all[k].exercise, all[k].m), true
	}
	for i, c := range children {
		<-c.done
		for _, line := range strings.Split(string(c.out), "\n") {
			k, v, ok := parseRow(line)
			if ok && k < len(all) && k%n == i+1 {
				v.exercise, v.mutant, v.breaks = all[k].exercise, all[k].m.name, ruleBroken[all[k].exercise+"/"+all[k].m.name]
				rows[k], judged[k] = v, true
			}
		}
		if c.err != nil {
			t.Errorf("kill matrix shard %d/%d: %v\n%s", i+1, n, c.err, c.out)
		}
	}
	for k, ok := range judged {
		if !ok {
			t.Fatalf("kill matrix: no verdict for %s/%s from its shard", all[k].exercise, all[k].m.name)
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
		v := judge(all[k].exercise, all[k].m)
		fmt.Printf("killrow\t%d\t%s\t%s\t%d\t%d\t%d\n", k, v.checkRule, v.propsRule, v.checkHint, v.propsHint, v.took)
	}
}

// parseRow reads a verdict judgeShard printed.
func parseRow(line string) (int, verdict, bool) {
	f := strings.Split(strings.TrimSpace(line), "\t")
	if len(f) != 7 || f[0] != "killrow" {
		return 0, verdict{}, false
	}
	k, err1 := strconv.Atoi(f[1])
	ch, err2 := strconv.Atoi(f[4])
	ph, err3 := strconv.Atoi(f[5])
	took, err4 := strconv.ParseInt(f[6], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return 0, verdict{}, false
	}
	return k, verdict{checkRule: f[2], propsRule: f[3], checkHint: hint(ch), propsHint: hint(ph), took: time.Duration(took)}, true
}

func judge(exercise string, m subject) verdict {
	start := time.Now()
	v := verdict{exercise: exercise, mutant: m.name, checkRule: "-", propsRule: "-", breaks: ruleBroken[exercise+"/"+m.name]}
	if err := m.check(); err != nil {
		if id, _ := kit.RuleIn(err.Error()); id != "" {
			v.checkRule = id
		}
		v.checkHint = hintFor(m.name, err.Error())
	}
	rec := kit.Observe("mutant-"+exercise+"-"+m.name, m.props)
	if rec.Failed() {
		if id, _ := kit.RuleIn(rec.Text()); id != "" {
			v.propsRule = id
		} else {
			v.propsRule = "panic"
		}
		v.propsHint = hintFor(m.name, rec.Text())
	}
	v.took = time.Since(start)
	return v
}

// hintFor reads the "this looks like" lines of a failure's text and says
// whether they name the mistake called name.
func hintFor(name, text string) hint {
	h := hintAbsent
	for _, line := range strings.Split(text, "\n") {
		_, says, ok := strings.Cut(line, "this looks like: ")
		if !ok {
			continue
		}
		if !slices.Contains(kit.MistakesSaying(says), name) {
			return hintWrong
		}
		h = hintRight
	}
	return h
}

func matrix(rows []verdict) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-18s %-26s %-6s %-10s %-12s %-9s %s\n", "exercise", "mistake", "check", "properties", "looks like", "breaks", "time")
	for _, r := range rows {
		fmt.Fprintf(&sb, "%-18s %-26s %-6s %-10s %-12s %-9s %v\n", r.exercise, r.mutant, r.checkRule, r.propsRule,
			r.checkHint.String()+"/"+r.propsHint.String(), r.breaks, r.took.Round(time.Millisecond))
	}
	sb.WriteString("\nper exercise (a hint counts per block: fixed cases, properties):\n")
	fmt.Fprintf(&sb, "%-18s %8s %7s %6s %6s %6s %11s\n", "exercise", "mistakes", "caught", "right", "absent", "wrong", "rule right")
	for _, e := range perExercise(rows) {
		fmt.Fprintf(&sb, "%-18s %8d %7d %6d %6d %6d %6d of %2d\n", e.name, e.mistakes, e.caught, e.hints[hintRight], e.hints[hintAbsent], e.hints[hintWrong], e.ruleRight, e.ruled)
	}
	return sb.String()
}

type exerciseTally struct {
	name                               string
	mistakes, caught, ruleRight, ruled int
	hints                              [3]int
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
		e.hints[r.checkHint]++
		e.hints[r.propsHint]++
		for _, rule := range []string{r.checkRule, r.propsRule} {
			if r.breaks != "" {
				e.ruled++
				if r.attributed(rule) {
					e.ruleRight++
				}
			}
		}
	}
	return out
}

func summary(rows []verdict, survivors int) string {
	var hints [3]int
	for _, r := range rows {
		hints[r.checkHint]++
		hints[r.propsHint]++
	}
	return fmt.Sprintf("kit kill matrix: %d exercises, %d mistakes, %d survivors; hints (fixed cases and properties): %d right, %d absent, %d wrong",
		len(perExercise(rows)), len(rows), survivors, hints[hintRight], hints[hintAbsent], hints[hintWrong])
}
