package scenarios

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
)

//go:embed data/*.txt data/groups
var files embed.FS

// Groups lists the scenario groups in the order the web page and
// kafkalive play list them (data/groups).
var Groups []string

// GroupTitles are the groups' headings (data/groups).
var GroupTitles = map[string]string{}

func init() {
	b, err := files.ReadFile("data/groups")
	if err != nil {
		panic(fmt.Sprintf("scenarios: data/groups: %v", err))
	}
	groups, titles, err := parseGroups(string(b))
	if err != nil {
		panic(fmt.Sprintf("scenarios: data/groups: %v", err)) // embedded: a test reads it first
	}
	Groups, GroupTitles = groups, titles
}

// parseGroups reads the groups file: a line per group, its name then its
// heading; # starts a comment.
func parseGroups(text string) ([]string, map[string]string, error) {
	var names []string
	titles := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, title, _ := strings.Cut(line, " ")
		title = strings.TrimSpace(title)
		if title == "" || titles[name] != "" {
			return nil, nil, fmt.Errorf("%w: line %d: want a new group's name and its heading: %q", ErrSyntax, i+1, line)
		}
		names, titles[name] = append(names, name), title
	}
	return names, titles, nil
}

// All parses every embedded scenario and returns them ordered by group,
// then by the order within the group given by their file names.
func All() ([]*Scenario, error) {
	entries, err := files.ReadDir("data")
	if err != nil {
		return nil, fmt.Errorf("scenarios: %w", err)
	}
	var out []*Scenario
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		b, err := files.ReadFile(path.Join("data", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("scenarios: %w", err)
		}
		sc, err := Parse(e.Name(), string(b))
		if err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(e.Name()[strings.IndexByte(e.Name(), '-')+1:], ".txt"); sc.Name != want {
			return nil, fmt.Errorf("%s: %w: name %q, file says %q", e.Name(), ErrSyntax, sc.Name, want)
		}
		sc.File = e.Name()
		out = append(out, sc)
	}
	sort.SliceStable(out, func(i, j int) bool { return groupIndex(out[i].Group) < groupIndex(out[j].Group) })
	return out, nil
}

func groupIndex(g string) int {
	for i, name := range Groups {
		if name == g {
			return i
		}
	}
	return len(Groups)
}

// ErrUnknown means no scenario has the name asked for.
var ErrUnknown = fmt.Errorf("scenarios: unknown scenario")

// Get returns the scenario called name.
func Get(name string) (*Scenario, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	for _, sc := range all {
		if sc.Name == name {
			return sc, nil
		}
	}
	return nil, fmt.Errorf("%w %q", ErrUnknown, name)
}
