package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
	"github.com/kafkalive/kafkalive/web"
)

// static writes the page as a static site that runs the world in the
// browser (package web/tab): any static file server serves it, with no
// kafkalive process behind it.

func init() {
	register(command{
		name:    "static",
		summary: "write the page as a static site that runs the live cluster in the browser",
		run:     runStatic,
	})
}

var staticUsage = cli.Usage{Synopsis: "static --out DIR", About: `Writes the page as a static site in DIR: index.html, the page's scripts and
styles, the world built for the browser (kafkalive.wasm, a WebAssembly build of
cmd/kafkalive-wasm made with the Go toolchain that runs this command), Go's
wasm_exec.js from the same toolchain, the Web Worker that runs the world and a
service worker that keeps the site for offline use after the first visit.

Any static file server serves it, with no kafkalive process behind it:
  python3 -m http.server -d DIR 8000     then open http://localhost:8000/
Publishing is copying DIR to a static host (GitHub Pages, a bucket, nginx); a
service worker needs https, or localhost.

Run it in a checkout of kafkalive (go run ./cmd/kafkalive static --out DIR):
it builds the WebAssembly from the sources there. In the browser the brokers
have no Kafka listeners and the kit's exercises do not run: the local build
does both (go run ./cmd/kafkalive, go run ./exercises/live).`}

// Site names the files of the static site that are not the page's own.
const (
	// wasmName is the world built for the browser.
	wasmName = "kafkalive.wasm"
	// wasmExecName is Go's JavaScript support for it.
	wasmExecName = "wasm_exec.js"
	// serviceWorkerName is the service worker, written with the list of
	// files it keeps for offline use.
	serviceWorkerName = "sw.js"
	// wasmPackage is the main package built into wasmName.
	wasmPackage = "github.com/kafkalive/kafkalive/cmd/kafkalive-wasm"
)

// noInline is the packages the WebAssembly world is built without
// inlining in (buildWasm): what runs on a learner's command, not on the
// world's clock.
var noInline = []string{
	"github.com/kafkalive/kafkalive/internal/kafkatools/...",
	"github.com/kafkalive/kafkalive/scenarios",
	"github.com/kafkalive/kafkalive/notes",
	// the views: built at most ten times a second, of what changed
	"github.com/kafkalive/kafkalive/web",
}

// typeOnly are the page's files that only the type checker reads (JSDoc
// typedefs, imported in comments): no module imports them, so a browser
// never asks for them and the site leaves them out.
var typeOnly = []string{"js/types.js"}

// MaxSiteGzipBytes is the most the static site may weigh, gzipped, in all:
// what a visitor downloads on a first visit.
const MaxSiteGzipBytes = 4 << 20

// tabMarker is the line written into the static site's index.html that
// makes the page talk to the Web Worker instead of a server.
const tabMarker = `<meta name="kafkalive-world" content="tab">`

func runStatic(args []string, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("static")
	out := fset.String("out", "", "REQUIRED: the directory `DIR` to write the site to (created if missing; the site's files in it are replaced)")
	if code, ok := staticUsage.Parse(fset, args, stdout, stderr); !ok {
		return code
	}
	if *out == "" || fset.NArg() > 0 {
		fmt.Fprintln(stderr, "kafkalive static: want --out DIR and no other argument")
		staticUsage.Print(stderr, fset)
		return 2
	}
	size, err := writeSite(*out, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive static: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "kafkalive: wrote the static site to %s: %d files, %.1f MiB, %.2f MiB gzipped\n",
		*out, size.Files, float64(size.Bytes)/(1<<20), float64(size.GzipBytes)/(1<<20))
	fmt.Fprintf(stdout, "kafkalive: serve it with any static file server, e.g. python3 -m http.server -d %s 8000, and open http://localhost:8000/\n", *out)
	if size.GzipBytes > MaxSiteGzipBytes {
		fmt.Fprintf(stderr, "kafkalive static: warning: the site is %d bytes gzipped, over the %d it may weigh\n", size.GzipBytes, MaxSiteGzipBytes)
	}
	return 0
}

// site is a static site being written: its directory and the files
// written to it so far (slash-separated paths).
type site struct {
	dir   string
	files []string
}

// writeSite writes the static site to dir: the page's files, the
// WebAssembly world, wasm_exec.js and, last, the service worker with the
// list of the others.
func writeSite(dir string, stderr io.Writer) (siteSize, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return siteSize{}, fmt.Errorf("no go command on PATH: the static site's WebAssembly is built with the Go toolchain (%v)", err)
	}
	s := &site{dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return siteSize{}, err
	}
	if err := s.writePage(); err != nil {
		return siteSize{}, err
	}
	if err := s.buildWasm(goBin, stderr); err != nil {
		return siteSize{}, err
	}
	if err := s.copyWasmExec(goBin); err != nil {
		return siteSize{}, err
	}
	if err := s.writeServiceWorker(); err != nil {
		return siteSize{}, err
	}
	return measureSite(dir, s.files)
}

// writePage copies the page's files (web.StaticFS) into the site, with
// index.html marked to run the world in the Web Worker.
func (s *site) writePage() error {
	return fs.WalkDir(web.StaticFS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == serviceWorkerName || slices.Contains(typeOnly, p) {
			return err
		}
		b, err := fs.ReadFile(web.StaticFS(), p)
		if err != nil {
			return err
		}
		if p == "index.html" {
			if b, err = markTab(b); err != nil {
				return err
			}
		}
		return s.write(p, b)
	})
}

// markTab adds tabMarker to index.html's head, after its charset.
func markTab(index []byte) ([]byte, error) {
	const charset = `<meta charset="utf-8">`
	i := bytes.Index(index, []byte(charset))
	if i < 0 {
		return nil, fmt.Errorf("index.html has no %s to put the site's marker after", charset)
	}
	i += len(charset)
	return slices.Concat(index[:i], []byte("\n"+tabMarker), index[i:]), nil
}

// write writes b as the site's file p (slash-separated), making its
// directory.
func (s *site) write(p string, b []byte) error {
	full := filepath.Join(s.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(full, b, 0o644); err != nil {
		return err
	}
	s.files = append(s.files, p)
	return nil
}

// buildWasm builds the world for the browser into the site: GOOS=js
// GOARCH=wasm, without the paths of the machine that built it and without
// the symbol table and debug information, which a browser does not use.
// The packages that run only when the learner asks (Kafka's tools in the
// terminal, the scenarios' scripts, the notes) are compiled without
// inlining (noInline): about 19 KB less to download gzipped, at no cost to
// the world's ticks, which never call them.
func (s *site) buildWasm(goBin string, stderr io.Writer) error {
	out, err := filepath.Abs(filepath.Join(s.dir, wasmName))
	if err != nil {
		return err
	}
	args := []string{"build", "-trimpath", "-ldflags=-s -w"}
	for _, p := range noInline {
		args = append(args, "-gcflags="+p+"=-l")
	}
	cmd := exec.Command(goBin, append(args, "-o", out, wasmPackage)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the WebAssembly world (GOOS=js GOARCH=wasm go build %s): %v\n%s(run kafkalive static in a checkout of kafkalive: go run ./cmd/kafkalive static --out DIR)", wasmPackage, err, msg.String())
	}
	s.files = append(s.files, wasmName)
	return nil
}

// copyWasmExec copies the toolchain's wasm_exec.js into the site: it is
// in lib/wasm since Go 1.24, misc/wasm before.
func (s *site) copyWasmExec(goBin string) error {
	out, err := exec.Command(goBin, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	root := strings.TrimSpace(string(out))
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(sub), wasmExecName)); err == nil {
			return s.write(wasmExecName, b)
		}
	}
	return fmt.Errorf("no %s in the Go toolchain at %s (lib/wasm, misc/wasm)", wasmExecName, root)
}

// siteManifest is what the service worker keeps: the site's files, and a
// version that changes whenever one of them does, so that a visit after
// the site changed installs the new files and drops the old.
type siteManifest struct {
	Version string   `json:"version"`
	Files   []string `json:"files"`
}

// writeServiceWorker writes sw.js: the manifest of the files written so
// far, then the service worker's code (web/static/sw.js).
func (s *site) writeServiceWorker() error {
	m, err := s.manifest()
	if err != nil {
		return err
	}
	code, err := fs.ReadFile(web.StaticFS(), serviceWorkerName)
	if err != nil {
		return err
	}
	j, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.write(serviceWorkerName, slices.Concat([]byte("self.KAFKALIVE_SITE = "), j, []byte(";\n"), code))
}

// manifest lists the site's files written so far (sorted; the directory
// itself as "./", which serves index.html) with a hash of their names and
// contents as the version.
func (s *site) manifest() (siteManifest, error) {
	files := slices.Sorted(slices.Values(s.files))
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(f)))
		if err != nil {
			return siteManifest{}, err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return siteManifest{Version: hex.EncodeToString(h.Sum(nil))[:16], Files: append([]string{"./"}, files...)}, nil
}

// siteSize is the static site's weight.
type siteSize struct {
	Files int
	// Bytes is the files' size; GzipBytes their size gzipped one by one
	// (gzip -9), as a static host sends them compressed.
	Bytes, GzipBytes int64
	// PerFile is each file's gzipped size, by slash-separated path.
	PerFile map[string]int64
}

// measureSite weighs the files of the site in dir.
func measureSite(dir string, files []string) (siteSize, error) {
	s := siteSize{PerFile: map[string]int64{}}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return siteSize{}, err
		}
		n, err := gzipSize(b)
		if err != nil {
			return siteSize{}, err
		}
		s.Files++
		s.Bytes += int64(len(b))
		s.GzipBytes += n
		s.PerFile[f] = n
	}
	return s, nil
}

// gzipSize is the size of b gzipped at the best compression.
func gzipSize(b []byte) (int64, error) {
	var c countWriter
	zw, err := gzip.NewWriterLevel(&c, gzip.BestCompression)
	if err != nil {
		return 0, err
	}
	if _, err := zw.Write(b); err != nil {
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return int64(c), nil
}

// countWriter counts what is written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}
