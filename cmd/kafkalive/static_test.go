package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/web"
	"github.com/stretchr/testify/require"
)

// buildSite runs kafkalive static --out into a fresh directory and returns
// it.
func buildSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := run([]string{"static", "--out", dir}, &out, &errOut); code != 0 {
		t.Fatalf("kafkalive static --out %s: exit %d\n%s%s", dir, code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "python3 -m http.server -d "+dir) {
		t.Errorf("kafkalive static does not say how to serve the site:\n%s", out.String())
	}
	return dir
}

// readManifest reads the manifest sw.js starts with.
func readManifest(t *testing.T, dir string) siteManifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, serviceWorkerName))
	require.NoError(t, err)
	first, _, _ := strings.Cut(string(b), "\n")
	j, ok := strings.CutPrefix(first, "self.KAFKALIVE_SITE = ")
	require.True(t, ok, "sw.js starts %q, not with the site's manifest", first)
	var m siteManifest
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSuffix(j, ";")), &m))
	return m
}

// siteFiles lists the files under dir, slash-separated and sorted.
func siteFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	}))
	sort.Strings(files)
	return files
}

// TestStaticSite builds the site as a user does and checks what a static
// host will serve: at most MaxSiteGzipBytes gzipped in all (a larger site
// fails the build here), index.html marked to run the world in the
// Worker, every file the page loads present, Go's wasm_exec.js of the
// toolchain that built the WebAssembly, and a service worker that keeps
// every file with a version that a rebuild of the same sources keeps.
func TestStaticSite(t *testing.T) {
	dir := buildSite(t)
	files := siteFiles(t, dir)

	size, err := measureSite(dir, files)
	require.NoError(t, err)
	var per []string
	for _, f := range files {
		per = append(per, f+" "+formatBytes(size.PerFile[f]))
	}
	t.Logf("the static site: %d files, %s, %s gzipped (%s)", size.Files, formatBytes(size.Bytes), formatBytes(size.GzipBytes), strings.Join(per, ", "))
	if size.GzipBytes > MaxSiteGzipBytes {
		t.Errorf("the static site is %d bytes gzipped, over the %d (4 MiB) a first visit may download: %s", size.GzipBytes, MaxSiteGzipBytes, strings.Join(per, ", "))
	}

	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	if n := bytes.Count(index, []byte(tabMarker)); n != 1 {
		t.Errorf("index.html has %d of %s, want one: the page would not know to run the world itself", n, tabMarker)
	}
	refs := referenced(t, dir, "index.html")
	for _, f := range refs {
		if !slices.Contains(files, f) {
			t.Errorf("the page loads %s, which the site does not have", f)
		}
	}
	for _, f := range typeOnly {
		if _, err := fs.Stat(web.StaticFS(), f); err != nil {
			t.Errorf("typeOnly names %s, which the page does not have: %v", f, err)
		}
		if slices.Contains(files, f) || slices.Contains(refs, f) {
			t.Errorf("%s is left out of the site as read by the type checker alone, yet the site has it or the page loads it", f)
		}
	}
	wasm, err := os.ReadFile(filepath.Join(dir, wasmName))
	require.NoError(t, err)
	if !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Errorf("%s does not start with WebAssembly's magic: %q", wasmName, wasm[:min(8, len(wasm))])
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", wasmExecName))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(dir, wasmExecName))
	require.NoError(t, err)
	if !bytes.Equal(want, got) {
		t.Errorf("the site's %s is not the toolchain's", wasmExecName)
	}

	m := readManifest(t, dir)
	wantFiles := append([]string{"./"}, slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == serviceWorkerName })...)
	if !slices.Equal(wantFiles, m.Files) {
		t.Errorf("the service worker keeps %v, want every file of the site but itself: %v", m.Files, wantFiles)
	}
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(m.Version) {
		t.Errorf("the service worker's version is %q, want 16 hex digits", m.Version)
	}
	again := buildSite(t)
	if v := readManifest(t, again).Version; v != m.Version {
		t.Errorf("a second build of the same sources has version %s, the first %s: every visitor would download the site again", v, m.Version)
	}
}

// referenced lists the site's files the page loads from file f, and from
// those, recursively: index.html's src and href, the modules' imports,
// the Worker's importScripts and fetches, the service worker and the
// Worker the transport starts.
func referenced(t *testing.T, dir, f string) []string {
	t.Helper()
	refs := regexp.MustCompile(`(?:src|href)="([^":#?]+)"|import(?:[^"']*from)?\s*["'](\.{1,2}/[^"']+)["']|importScripts\("([^"]+)"\)|(?:fetch|Worker|register|url = )\(?"([^"]+\.(?:js|wasm))"`)
	seen := map[string]bool{}
	var walk func(f string)
	walk = func(f string) {
		if seen[f] {
			return
		}
		seen[f] = true
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return // reported by the caller as missing
		}
		for _, m := range refs.FindAllStringSubmatch(string(b), -1) {
			for _, ref := range m[1:] {
				if ref == "" {
					continue
				}
				base := path.Dir(f)
				if strings.HasSuffix(f, ".html") || !strings.HasPrefix(ref, ".") {
					base = "." // the document's URLs, a classic Worker's and new Worker's are the page's
				}
				walk(path.Clean(path.Join(base, ref)))
			}
		}
	}
	walk(f)
	var out []string
	for r := range seen {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// The WebAssembly world leaves out what a tab does not run: the test
// machinery (testing, rapid, go-cmp, testify), the kit's suites and
// mutants, and the network (net, net/http), which only the server and the
// Kafka listeners use.
func TestStaticWasmLeavesOutTheTestMachinery(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", wasmPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	for _, dep := range deps {
		if dep == "net" { // net/url is only URLs
			t.Errorf("the WebAssembly world links net: it belongs to the local build (see web/tab_js.go)")
		}
		for _, bad := range []string{"testing", "net/http", "pgregory.net/rapid", "github.com/google/go-cmp/cmp", "github.com/stretchr/testify",
			"github.com/kafkalive/kafkalive/internal/kit", "github.com/kafkalive/kafkalive/solutions", "github.com/kafkalive/kafkalive/kafkawire"} {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("the WebAssembly world links %s (%s): it belongs to the local build (see web/tab_js.go)", dep, bad)
			}
		}
	}
	if !slices.Contains(deps, "github.com/kafkalive/kafkalive/web/tab") {
		t.Errorf("%s does not link the tab: %v", wasmPackage, deps)
	}
}

// Without --out, or with more, static says what it wants; a directory it
// cannot write says why.
func TestStaticRefusesWithoutAWritableOut(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"static"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "want --out DIR") {
		t.Errorf("kafkalive static: exit %d, stderr %q; want 2 and what it wants", code, errOut.String())
	}
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	errOut.Reset()
	if code := run([]string{"static", "--out", file}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), file) {
		t.Errorf("kafkalive static --out FILE: exit %d, stderr %q; want 1 naming it", code, errOut.String())
	}
}

// formatBytes prints n in KiB or MiB.
func formatBytes(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}
