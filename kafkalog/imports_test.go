package kafkalog

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// kafkalog owns bytes on disk and the partition log's rules. It reaches files
// only through vfs, takes time as an argument, and knows nothing of replicas,
// groups or the simulated cluster.
func TestImportsStayWithinTheLog(t *testing.T) {
	forbidden := map[string]string{
		"os":                                     "files go through vfs",
		"net":                                    "the log knows no network",
		"time":                                   "time comes in as an argument (nowMs)",
		"math/rand":                              "no global randomness",
		"math/rand/v2":                           "no global randomness",
		"crypto/rand":                            "no global randomness",
		"github.com/kafkalive/kafkalive/replica": "the log knows no replicas",
		"github.com/kafkalive/kafkalive/group":   "the log knows no groups",
		"github.com/kafkalive/kafkalive/cluster": "the log knows no cluster",
	}
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatalf("reading the package's imports: %v", err)
	}
	if len(pkg.GoFiles) == 0 {
		t.Fatalf("found no Go files; the check is reading the wrong directory")
	}
	for _, imp := range pkg.Imports {
		if why, bad := forbidden[imp]; bad {
			t.Errorf("package kafkalog imports %q: %s", imp, why)
		}
	}
	// sync is allowed for sync.Pool (reusing buffers) and nothing else: no
	// mutexes, no goroutine coordination.
	fset := token.NewFileSet()
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(pkg.Dir, name), nil, 0)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				t.Errorf("%s: kafkalog starts a goroutine; the log is driven by its caller", fset.Position(n.Pos()))
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "sync" && n.Sel.Name != "Pool" {
					t.Errorf("%s: kafkalog uses sync.%s; only sync.Pool is allowed", fset.Position(n.Pos()), n.Sel.Name)
				}
			}
			return true
		})
	}
}
