package vfs_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

// TestMemFSDataDriven runs the scenarios in testdata/memfs: one MemFS per file, one
// command per directive (see memfsDriver.run). Rewrite the expected output with
// go test ./vfs -run DataDriven -rewrite.
func TestMemFSDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata/memfs", func(t *testing.T, path string) {
		d := &memfsDriver{fs: vfs.NewMem(), files: map[string]vfs.File{}}
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			return d.run(t, td)
		})
	})
}

// memfsDriver holds a MemFS and the files the scenario opened, by name.
type memfsDriver struct {
	fs    *vfs.MemFS
	files map[string]vfs.File
}

// run executes one directive and returns its output:
//
//	mkdir d | create d/a | open d/a | write d/a [off=N] <input> | truncate d/a size=N
//	sync d/a | syncdir d | rename a b | remove a | removeall a | read d/a
//	crash | writeback | powercut [keep=N|all] [<input: "name N" lines>] | ls
func (d *memfsDriver) run(t *testing.T, td *datadriven.TestData) string {
	args := positional(td)
	arg := func(i int) string {
		if i >= len(args) {
			t.Fatalf("%s: missing argument %d", td.Pos, i+1)
		}
		return args[i]
	}
	switch td.Cmd {
	case "mkdir":
		return result(d.fs.MkdirAll(arg(0), 0o755))
	case "create", "open":
		open := d.fs.Create
		if td.Cmd == "open" {
			open = d.fs.OpenReadWrite
		}
		f, err := open(arg(0))
		if err == nil {
			d.files[arg(0)] = f
		}
		return result(err)
	case "write":
		return d.write(t, td, arg(0))
	case "truncate":
		var size int64
		td.ScanArgs(t, "size", &size)
		return result(d.file(t, arg(0)).Truncate(size))
	case "sync":
		return result(d.file(t, arg(0)).Sync())
	case "syncdir":
		return result(d.fs.SyncDir(arg(0)))
	case "rename":
		return result(d.fs.Rename(arg(0), arg(1)))
	case "remove":
		return result(d.fs.Remove(arg(0)))
	case "removeall":
		return result(d.fs.RemoveAll(arg(0)))
	case "read":
		return d.read(t, arg(0))
	case "crash":
		d.fs.Crash()
		return "ok"
	case "writeback":
		d.fs.Writeback()
		return "ok"
	case "powercut":
		return d.powerCut(t, td)
	case "ls":
		return d.ls()
	}
	t.Fatalf("%s: unknown command %q", td.Pos, td.Cmd)
	return ""
}

// positional returns the directive's arguments that have no value.
func positional(td *datadriven.TestData) []string {
	var args []string
	for _, a := range td.CmdArgs {
		if len(a.Vals) == 0 {
			args = append(args, a.Key)
		}
	}
	return args
}

func result(err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}

// file returns the file the scenario opened as name, opening it if it has not.
func (d *memfsDriver) file(t *testing.T, name string) vfs.File {
	if f, ok := d.files[name]; ok {
		return f
	}
	f, err := d.fs.OpenReadWrite(name)
	if err != nil {
		t.Fatalf("scenario uses %s, which it cannot open: %v", name, err)
	}
	d.files[name] = f
	return f
}

func (d *memfsDriver) write(t *testing.T, td *datadriven.TestData, name string) string {
	f := d.file(t, name)
	off, err := f.Size()
	if err != nil {
		return result(err)
	}
	td.MaybeScanArgs(t, "off", &off)
	n, err := f.WriteAt([]byte(td.Input), off)
	if err != nil {
		return fmt.Sprintf("wrote %d, %s", n, result(err))
	}
	return "ok"
}

func (d *memfsDriver) read(t *testing.T, name string) string {
	f := d.file(t, name)
	size, err := f.Size()
	if err != nil {
		return result(err)
	}
	buf := make([]byte, size)
	if _, err := f.ReadAt(buf, 0); err != nil {
		return result(err)
	}
	return strconv.Quote(string(buf))
}

// powerCut cuts the power, keeping for each file keep=N bytes beyond its durable size
// (keep=all: every one), or as many as its line "name N" in the input says.
func (d *memfsDriver) powerCut(t *testing.T, td *datadriven.TestData) string {
	perFile := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		if name, n, ok := strings.Cut(line, " "); ok {
			k, err := strconv.ParseInt(n, 10, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", td.Pos, line, err)
			}
			perFile[name] = k
		}
	}
	all, keep := false, int64(0)
	if a, ok := td.Arg("keep"); ok {
		if a.SingleVal(t) == "all" {
			all = true
		} else {
			td.ScanArgs(t, "keep", &keep)
		}
	}
	var asked []string
	d.fs.PowerCut(func(name string, durable, cached int64) int64 {
		asked = append(asked, fmt.Sprintf("%s: %d durable, %d cached", name, durable, cached))
		if k, ok := perFile[name]; ok {
			return k
		}
		if all {
			return cached - durable
		}
		return keep
	})
	d.files = map[string]vfs.File{}
	if len(asked) == 0 {
		return "no unsynced tails"
	}
	return "unsynced tails:\n" + strings.Join(asked, "\n")
}

// ls prints every directory and file: durable and cached sizes, content, and whether the
// entry would survive a power cut.
func (d *memfsDriver) ls() string {
	var b strings.Builder
	var walk func(dir string)
	walk = func(dir string) {
		names, err := d.fs.List(dir)
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", dir, err)
			return
		}
		for _, name := range names {
			p := d.fs.PathJoin(dir, name)
			note := ""
			if !d.fs.EntryDurable(p) {
				note = "  (entry not synced)"
			}
			durable, cached, err := d.fs.SizeOnDisk(p)
			if err != nil { // a directory
				fmt.Fprintf(&b, "%s/%s\n", p, note)
				walk(p)
				continue
			}
			content, err := vfstest.ReadFile(d.fs, p)
			if err != nil {
				content = err.Error()
			}
			fmt.Fprintf(&b, "%s  durable=%d cached=%d %q%s\n", p, durable, cached, content, note)
		}
	}
	walk("")
	return b.String()
}
