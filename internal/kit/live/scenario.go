package live

import (
	"embed"
	"errors"
	"fmt"
	"hash/crc32"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/scenarios"
	"github.com/kafkalive/kafkalive/vfs"
)

//go:embed scenarios/*.txt
var files embed.FS

// Guided is one of the kit's guided scenarios on a learner's code: the chapter's
// part it plays.
type Guided struct {
	*scenarios.Scenario
	// Part is the exercise whose code the scenario plays, e.g. "ch04/recovery".
	Part string
}

// partOfGroup maps a scenario file's group line to its part.
var partOfGroup = map[string]string{
	"ch01-varint": PartVarint, "ch01-batch": PartBatch, "ch02": PartIndex, "ch03": PartRetention,
	"ch04": PartRecovery, "ch05": PartTruncation, "ch06": PartCooperative, "ch07": PartReadCommitted,
}

// Group is the web page's heading of the guided scenarios on a learner's code.
const Group = "your code"

// Scenarios parses the embedded scenarios, in chapter order.
func Scenarios() ([]Guided, error) {
	entries, err := files.ReadDir("scenarios")
	if err != nil {
		return nil, fmt.Errorf("learner: %w", err)
	}
	var out []Guided
	for _, e := range entries {
		b, err := files.ReadFile(path.Join("scenarios", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("learner: %w", err)
		}
		sc, err := scenarios.Parse(e.Name(), string(b))
		if err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(e.Name()[strings.IndexByte(e.Name(), '-')+1:], ".txt"); sc.Name != want {
			return nil, fmt.Errorf("learner: %s: name %q, file says %q", e.Name(), sc.Name, want)
		}
		part, ok := partOfGroup[sc.Group]
		if !ok {
			return nil, fmt.Errorf("learner: %s: group %q names no part", e.Name(), sc.Group)
		}
		sc.File, sc.Group = e.Name(), Group
		out = append(out, Guided{Scenario: sc, Part: part})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

// GetScenario returns the scenario called name.
func GetScenario(name string) (Guided, error) {
	all, err := Scenarios()
	if err != nil {
		return Guided{}, err
	}
	for _, g := range all {
		if g.Name == name {
			return g, nil
		}
	}
	return Guided{}, fmt.Errorf("%w: %q", ErrNoScenario, name)
}

// ErrNoScenario means no guided scenario has the name asked for.
var ErrNoScenario = errors.New("learner: no such scenario")

// On returns g's scenario with its cluster running parts (its branches too).
func (g Guided) On(parts cluster.Parts) *scenarios.Scenario {
	sc := *g.Scenario
	sc.Config.Parts = parts
	sc.Branches = append([]scenarios.Branch(nil), g.Branches...)
	for i := range sc.Branches {
		sc.Branches[i].Config.Parts = parts
	}
	return &sc
}

// StepOutcome is what one step of a scenario left, as lines compared between
// the learner's code and the reference.
type StepOutcome struct {
	// ID and Title are the step's.
	ID    string `json:"id"`
	Title string `json:"title"`
	// Lines are the state after the step (the scenario's view), the events of
	// the step, every broker's files (name, size, CRC-32 of the bytes, and what
	// is not a batch in a .log, as kafka-dump-log reports it), the brokers'
	// lines of the state (their byte counters), their consumers' fetch reads and
	// what those reads' scans walked past, and the faults.
	Lines []string `json:"lines"`
}

// Outcome plays run to its end and returns each step's outcome; faults, when not
// nil, gives the faults recorded so far (a learner's Live), listed in the step
// during which they happened.
func Outcome(run *scenarios.Run, faults func() []Fault) ([]StepOutcome, error) {
	var out []StepOutcome
	for {
		st, _ := run.Peek()
		if st == nil {
			return out, nil
		}
		before := 0
		if faults != nil {
			before = len(faults())
		}
		o, err := run.Next()
		if errors.Is(err, scenarios.ErrDone) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		so := StepOutcome{ID: o.Step.ID, Title: o.Step.Title}
		// The brokers' byte counters come after the events and the files: they
		// follow from what happened, and the first difference should name it.
		var counters []string
		for _, line := range strings.Split(strings.TrimRight(run.Scenario().StateText(o.After), "\n"), "\n") {
			if brokerLine.MatchString(line) {
				counters = append(counters, line)
				continue
			}
			so.Lines = append(so.Lines, line)
		}
		for _, e := range o.Events {
			// A deletion names the rule that made it; the part's is one rule.
			so.Lines = append(so.Lines, "event: "+retentionReason.ReplaceAllString(e.Text, "retention deleted"))
		}
		so.Lines = append(so.Lines, fileLines(run.World())...)
		so.Lines = append(so.Lines, counters...)
		so.Lines = append(so.Lines, fetchLines(o.After)...)
		if faults != nil {
			for _, f := range faults()[before:] {
				so.Lines = append(so.Lines, "fault: "+f.String())
			}
		}
		out = append(out, so)
	}
}

// fetchLines gives, for each broker that served consumers' fetches, how many reads
// it made for them and what their scans walked past from the offset index entry:
// what the index lookup and the scan decide, when both find the right batch.
func fetchLines(st cluster.State) []string {
	var out []string
	for _, b := range st.Brokers {
		if b.FetchReads > 0 {
			out = append(out, fmt.Sprintf("fetch: b%d reads=%d scanned=%d scanned-bytes=%d last-fetch=%d first-batch=%d",
				b.ID, b.FetchReads, b.FetchScannedBatches, b.FetchScannedBytes, b.LastFetchOffset, b.LastFetchFirstBatch))
		}
	}
	return out
}

// fileLines describes every broker's partition files.
func fileLines(w *cluster.World) []string {
	var out []string
	for id := int32(1); ; id++ {
		fsys, err := w.BrokerFS(id)
		if err != nil {
			return out
		}
		dirs, _ := fsys.List(cluster.LogDir)
		for _, d := range dirs {
			if strings.HasPrefix(d, cluster.OffsetsTopic) {
				continue
			}
			dir := fsys.PathJoin(cluster.LogDir, d)
			names, err := fsys.List(dir)
			if err != nil {
				continue
			}
			for _, n := range names {
				if !strings.HasSuffix(n, kafkalog.LogSuffix) && !strings.HasSuffix(n, kafkalog.IndexSuffix) {
					continue
				}
				b, err := readFile(fsys, fsys.PathJoin(dir, n))
				if err != nil {
					continue
				}
				line := fmt.Sprintf("file: b%d %s/%s %d bytes crc %08x", id, d, n, len(b), crc32.ChecksumIEEE(b))
				if strings.HasSuffix(n, kafkalog.LogSuffix) {
					if bad := notABatch(b); bad != "" {
						line += ": " + bad
					}
				}
				out = append(out, line)
			}
		}
	}
}

func readFile(fsys vfs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return nil, err
	}
	b := make([]byte, size)
	if _, err := f.ReadAt(b, 0); err != nil && size > 0 {
		return nil, err
	}
	return b, nil
}

// notABatch says where the bytes of a .log stop being whole valid batches, as
// kafka-dump-log reports it, or "" when they are.
func notABatch(b []byte) string {
	for pos := 0; pos < len(b); {
		_, n, err := kafkalog.CheckBatch(b[pos:])
		if err != nil {
			return fmt.Sprintf("%d bytes at position %d are not a valid batch (%v)", len(b)-pos, pos, err)
		}
		pos += n
	}
	return ""
}

var retentionReason = regexp.MustCompile(`retention \([^)]*\) deleted`)

// brokerLine is a broker's line of the state: its state and byte counters.
var brokerLine = regexp.MustCompile(`^b[0-9]+ (running|stopped|crashed|off) `)

// Difference is where a scenario on a learner's code first left another outcome
// than on the reference.
type Difference struct {
	// Step is the step's ID, Title its title.
	Step  string `json:"step"`
	Title string `json:"title"`
	// Reference and YourCode are the first lines that differ ("" where one run
	// has fewer lines).
	Reference string `json:"reference"`
	YourCode  string `json:"your_code"`
}

// String prints the difference on one line.
func (d Difference) String() string {
	return fmt.Sprintf("step %s (%s): reference %q, your code %q", d.Step, d.Title, d.Reference, d.YourCode)
}

// FirstDifference compares two runs' outcomes step by step and returns the
// first difference, nil when they are the same.
func FirstDifference(ref, yours []StepOutcome) *Difference {
	for i := 0; i < max(len(ref), len(yours)); i++ {
		var r, y StepOutcome
		if i < len(ref) {
			r = ref[i]
		}
		if i < len(yours) {
			y = yours[i]
		}
		step, title := r.ID, r.Title
		if step == "" {
			step, title = y.ID, y.Title
		}
		for j := 0; j < max(len(r.Lines), len(y.Lines)); j++ {
			var a, b string
			if j < len(r.Lines) {
				a = r.Lines[j]
			}
			if j < len(y.Lines) {
				b = y.Lines[j]
			}
			if a != b {
				return &Difference{Step: step, Title: title, Reference: a, YourCode: b}
			}
		}
	}
	return nil
}

// Comparison is a scenario played on a learner's code and on the reference.
type Comparison struct {
	// Scenario is its name, Part the exercise it plays.
	Scenario string `json:"scenario"`
	Part     string `json:"part"`
	// Runs says what ran the part: YourCode or Reference.
	Runs string `json:"runs"`
	// Matches says the outcomes are the same at every step; Difference is the
	// first that is not.
	Matches    bool        `json:"matches"`
	Difference *Difference `json:"difference,omitempty"`
	// Faults are the learner's faults during the run.
	Faults []Fault `json:"faults,omitempty"`
}

// Compare plays g on code and on the reference, to the end, and compares them.
func Compare(g Guided, code Code) (Comparison, error) {
	ref, err := ReferenceOutcome(g)
	if err != nil {
		return Comparison{}, err
	}
	return CompareAgainst(g, ref, code)
}

// ReferenceOutcome plays g on the reference to the end.
func ReferenceOutcome(g Guided) ([]StepOutcome, error) {
	ref, err := playAll(g, ReferenceParts(), nil)
	if err != nil {
		return nil, fmt.Errorf("learner: %s on the reference: %w", g.Name, err)
	}
	return ref, nil
}

// CompareAgainst plays g on code and compares it with ref, g's ReferenceOutcome.
func CompareAgainst(g Guided, ref []StepOutcome, code Code) (Comparison, error) {
	live := New(code)
	runs := Reference
	if live.Runs(g.Part) {
		runs = YourCode
	}
	yours, err := playAll(g, live.ClusterParts(), live.Faults)
	if err != nil {
		// An action the world refused because of what the learner's code did
		// (a consumer still running that should have left) ends the run: it
		// is the outcome of the step it stopped in.
		st := StepOutcome{ID: "?", Title: "the scenario stopped"}
		if len(yours) < len(ref) {
			st.ID, st.Title = ref[len(yours)].ID, ref[len(yours)].Title
		}
		st.Lines = []string{"the scenario stopped: " + err.Error()}
		yours = append(yours, st)
	}
	c := Comparison{Scenario: g.Name, Part: g.Part, Runs: runs, Faults: live.Faults()}
	c.Difference = FirstDifference(ref, yours)
	c.Matches = c.Difference == nil
	return c, nil
}

func playAll(g Guided, parts cluster.Parts, faults func() []Fault) ([]StepOutcome, error) {
	run, err := scenarios.NewRun(g.On(parts), 0)
	if err != nil {
		return nil, err
	}
	return Outcome(run, faults)
}
