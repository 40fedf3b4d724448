// Package shortcut keeps an exercise honest: it fails the exercise's test when
// the learner's code calls the library function that already is the answer
// (the batch exercise calling (*kafkalog.RecordBatch).AppendTo, say). Such
// code passes every check and teaches nothing, so the test says so instead.
package shortcut

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Refuse fails t if a non-test .go file in the current directory (the
// exercise's package, where go test runs) names one of the selectors in
// refused: a key is "pkg.Name" for a package-level name (matched on the
// import's last path element, e.g. "binary.AppendVarint") or ".Name" for a
// method or field of any value (e.g. ".AppendTo"); the value says why.
func Refuse(t testing.TB, refused map[string]string) {
	t.Helper()
	for _, f := range Find(".", refused) {
		t.Errorf("%s: %s\n\t%s\n\tWrite it yourself: the suite cannot tell your code from the library's, so this proves nothing.", f.Pos, f.Name, f.Why)
	}
}

// Finding is one refused selector in the learner's code.
type Finding struct {
	Pos  string // file:line
	Name string // the selector as written, e.g. "b.AppendTo"
	Why  string
}

// Find returns every use of a refused selector in the non-test .go files of dir.
func Find(dir string, refused map[string]string) []Finding {
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(names)
	var out []Finding
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			continue // the compiler reports it
		}
		imports := map[string]string{} // local name -> last path element
		for _, im := range f.Imports {
			path := strings.Trim(im.Path.Value, `"`)
			last := path[strings.LastIndex(path, "/")+1:]
			local := last
			if im.Name != nil {
				local = im.Name.Name
			}
			imports[local] = last
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			key := "." + sel.Sel.Name
			if id, ok := sel.X.(*ast.Ident); ok {
				if pkg, ok := imports[id.Name]; ok {
					key = pkg + "." + sel.Sel.Name
				}
			}
			if why, ok := refused[key]; ok {
				p := fset.Position(sel.Pos())
				out = append(out, Finding{Pos: filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line), Name: exprString(sel), Why: why})
			}
			return true
		})
	}
	return out
}

func exprString(sel *ast.SelectorExpr) string {
	if id, ok := sel.X.(*ast.Ident); ok {
		return id.Name + "." + sel.Sel.Name
	}
	return "(...)." + sel.Sel.Name
}
