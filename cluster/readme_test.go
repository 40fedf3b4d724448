package cluster

import (
	"os"
	"strings"
	"testing"
)

// The README documents the JSON state; it must say exactly what doc.go says.
func TestREADMEDocumentsTheJSON(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skipf("no README beside the package: %v", err)
	}
	lines := strings.Split(string(doc), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "//\t{") && start < 0 && i > 0 && strings.Contains(strings.Join(lines[max(0, i-6):i], "\n"), "The state as JSON") {
			start = i
		}
	}
	if start < 0 {
		t.Fatal("doc.go has no JSON block after its \"The state as JSON\" heading")
	}
	var block []string
	for _, l := range lines[start:] {
		if !strings.HasPrefix(l, "//\t") {
			break
		}
		block = append(block, strings.TrimPrefix(l, "//\t"))
	}
	if want := "```\n" + strings.Join(block, "\n") + "\n```"; !strings.Contains(string(readme), want) {
		t.Errorf("README.md's JSON block differs from cluster/doc.go's; copy it again. doc.go says:\n%s", want)
	}
}
