package cluster

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsStayDeterministic reads the non-test files of the package and
// of every room under it (cluster/internal/..., cluster/explore,
// cluster/defaultworld): no goroutine plumbing, clock, files, network or
// global randomness, and no reflection. The one rand use allowed is
// building and handing on the world's generator from its seed.
func TestImportsStayDeterministic(t *testing.T) {
	forbidden := map[string]bool{"os": true, "net": true, "sync": true, "sync/atomic": true, "time": true,
		"math/rand": true, "crypto/rand": true, "unsafe": true, "reflect": true}
	allowedRand := map[string]bool{"Rand": true, "New": true, "NewPCG": true, "PCG": true}
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("listing the packages' files: %v (%d files)", err, len(files))
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		checked++
		randName := ""
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if forbidden[path] && !(driver(name) && path == "sync") {
				t.Errorf("%s imports %q: the simulation must not use goroutines, the clock, I/O or global randomness", name, path)
			}
			if path == "math/rand/v2" {
				randName = "rand"
				if imp.Name != nil {
					randName = imp.Name.Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.GoStmt); ok && !driver(name) {
				t.Errorf("%s: a go statement at %v; the world runs on one goroutine", name, fset.Position(n.Pos()))
			}
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || randName == "" {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == randName && !allowedRand[sel.Sel.Name] {
				t.Errorf("%s: %s.%s at %v uses the global random source; draw from the world's *rand.Rand", name, randName, sel.Sel.Name, fset.Position(sel.Pos()))
			}
			return true
		})
	}
	if checked < 60 {
		t.Fatalf("checked only %d files; the test is reading the wrong directory", checked)
	}
}

// driver reports whether file name belongs to the explorers, which run
// many worlds side by side (each world on one goroutine, none shared).
func driver(name string) bool { return strings.HasPrefix(filepath.ToSlash(name), "explore/") }
