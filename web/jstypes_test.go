package web

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the page's generated files (static/js/types.js)")

// typesFile is where the page's JSDoc types of the server's JSON live.
const typesFile = "static/js/types.js"

// jsRoots are the values the server encodes for the page, under the names
// the page's modules use for them.
var jsRoots = []struct {
	name string
	v    any
}{
	{"Update", Update{}},
	{"View", View{}},
	{"ScenarioInfo", ScenarioInfo{}},
	{"NoteInfo", NoteInfo{}},
	{"ExecResult", ExecResult{}},
	{"SessionError", sessionError{}},
	{"WireView", WireView{}},
}

// TestJSTypes ties the page's modules to the Go structs the server
// encodes: static/js/types.js holds a JSDoc typedef of each, generated
// here from their JSON encoding (field names, omitempty, nesting) and doc
// comments. A renamed or removed field changes the file, this test fails
// until it is regenerated (go test ./web -run TestJSTypes -update), and the
// type check of the modules (tsc over web/jsconfig.json, in CI) then fails
// on every use of the old name.
func TestJSTypes(t *testing.T) {
	g := newJSTypes(t)
	for _, r := range jsRoots {
		g.add(r.name, reflect.TypeOf(r.v))
	}
	got := g.file()
	if *update {
		require.NoError(t, os.WriteFile(typesFile, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(typesFile)
	require.NoError(t, err)
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s is not what the Go structs encode (-file +structs):\n%s\nrun go test ./web -run TestJSTypes -update, then fix the modules that use the old names (tsc -p web/jsconfig.json)", typesFile, d)
	}
}

// jsTypes writes JSDoc typedefs for Go struct types.
type jsTypes struct {
	t *testing.T
	// names maps each struct type to its typedef's name; defs holds the
	// typedefs written, by name.
	names map[reflect.Type]string
	defs  map[string]string
	// docs are the doc comments of struct fields, by "pkgpath.Type.Field".
	docs map[string]string
	// parsed says which packages' sources were read for docs.
	parsed map[string]bool
}

func newJSTypes(t *testing.T) *jsTypes {
	return &jsTypes{t: t, names: map[reflect.Type]string{}, defs: map[string]string{}, docs: map[string]string{}, parsed: map[string]bool{}}
}

// add writes the typedef of struct type rt under name, and of every
// struct it holds under its Go name.
func (g *jsTypes) add(name string, rt reflect.Type) string {
	if n, ok := g.names[rt]; ok {
		return n
	}
	if other, ok := g.defs[name]; ok && other != "" {
		g.t.Fatalf("two Go types encode as the JS type %s: give one a root name in jsRoots", name)
	}
	g.names[rt] = name
	g.defs[name] = "" // reserved while its fields are written
	g.readDocs(rt.PkgPath())
	var b strings.Builder
	fmt.Fprintf(&b, "/**\n * %s is the JSON of %s.%s.\n * @typedef {object} %s\n", name, filepath.Base(rt.PkgPath()), rt.Name(), name)
	for _, f := range g.fields(rt) {
		b.WriteString(f)
	}
	b.WriteString(" */\n")
	g.defs[name] = b.String()
	return name
}

// fields are the @property lines of struct type rt, embedded structs'
// fields in place as encoding/json writes them.
func (g *jsTypes) fields(rt reflect.Type) []string {
	var out []string
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, g.fields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		typ := g.jsType(f.Type)
		prop := name
		if strings.Contains(","+opts+",", ",omitempty,") {
			prop = "[" + name + "]"
		}
		line := fmt.Sprintf(" * @property {%s} %s", typ, prop)
		if doc := g.docs[rt.PkgPath()+"."+rt.Name()+"."+f.Name]; doc != "" {
			line += " " + doc
		}
		out = append(out, line+"\n")
	}
	return out
}

// jsType is the JS type of Go type rt as encoding/json writes it.
func (g *jsTypes) jsType(rt reflect.Type) string {
	if rt == reflect.TypeFor[time.Time]() {
		return "string" // RFC 3339, as time.Time's MarshalJSON writes it
	}
	switch rt.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Pointer:
		return g.jsType(rt.Elem()) + " | null"
	case reflect.Slice:
		return "Array<" + g.jsType(rt.Elem()) + "> | null"
	case reflect.Array:
		return "Array<" + g.jsType(rt.Elem()) + ">"
	case reflect.Map:
		return "Record<string, " + g.jsType(rt.Elem()) + ">"
	case reflect.Struct:
		name := rt.Name()
		if name != "" && !ast.IsExported(name) {
			name = strings.ToUpper(name[:1]) + name[1:]
		}
		return g.add(name, rt)
	case reflect.Interface:
		return "any"
	}
	g.t.Fatalf("no JS type for the Go type %s", rt)
	return ""
}

// readDocs reads the field doc comments of the package at pkgPath (one of
// this module's) from its sources.
func (g *jsTypes) readDocs(pkgPath string) {
	if g.parsed[pkgPath] {
		return
	}
	g.parsed[pkgPath] = true
	const module = "github.com/kafkalive/kafkalive"
	rel, ok := strings.CutPrefix(pkgPath, module)
	if !ok {
		return
	}
	dir := filepath.Join("..", filepath.FromSlash(strings.TrimPrefix(rel, "/")))
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(g.t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(g.t, err)
		files = append(files, f)
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, fl := range st.Fields.List {
				doc := fl.Doc.Text()
				if doc == "" {
					doc = fl.Comment.Text()
				}
				for _, nm := range fl.Names {
					g.docs[pkgPath+"."+ts.Name.Name+"."+nm.Name] = strings.Join(strings.Fields(doc), " ")
				}
			}
			return false
		})
	}
}

// file is types.js: the typedefs in name order.
func (g *jsTypes) file() string {
	var names []string
	for n := range g.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("// @ts-check\n// Code generated by TestJSTypes (web/jstypes_test.go) from the Go structs the server\n" +
		"// encodes for the page; DO NOT EDIT. Regenerate: go test ./web -run TestJSTypes -update\n\n")
	for _, n := range names {
		b.WriteString(g.defs[n])
		b.WriteString("\n")
	}
	b.WriteString("export {};\n")
	return b.String()
}
