package scenarios

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
)

//go:embed data/*.txt
var files embed.FS

// Groups lists the scenario groups in the order the web page shows them.
var Groups = []string{"basics", "durability", "kip101", "consumers", "keys"}

// GroupTitles are the groups' headings on the web page.
var GroupTitles = map[string]string{
	"basics": "basics", "durability": "durability", "kip101": "KIP-101",
	"consumers": "consumer groups", "keys": "keys and the log",
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
