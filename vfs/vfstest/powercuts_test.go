package vfstest_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

// appendLog is a workload: a durable directory, a log file with one synced record and
// one unsynced one, and an index with one unsynced entry.
func appendLog(fsys vfs.FS) error {
	steps := []func() error{
		func() error { return fsys.MkdirAll("p", 0o755) },
		func() error { return fsys.SyncDir("") },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	log, err := fsys.Create("p/0.log")
	if err != nil {
		return err
	}
	idx, err := fsys.Create("p/0.index")
	if err != nil {
		return err
	}
	for _, step := range []func() error{
		func() error { return fsys.SyncDir("p") },
		func() error { _, err := log.WriteAt([]byte("r0|"), 0); return err },
		log.Sync,
		func() error { _, err := log.WriteAt([]byte("r1|"), 3); return err },
		func() error { _, err := idx.WriteAt([]byte("i"), 0); return err },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func TestPowerCutsVisitsEveryOutcome(t *testing.T) {
	var got []string
	outcomes, endCuts := map[string]bool{}, 0
	err := vfstest.PowerCuts(vfs.NewMem(), appendLog, func(cut vfstest.Cut, m *vfs.MemFS) error {
		got = append(got, cut.String())
		tree, err := vfstest.ReadTree(m, "")
		if err != nil {
			return err
		}
		if cut.Before.Seq == 0 && !cut.Process {
			outcomes[tree["p/0.log"]+" "+tree["p/0.index"]] = true
			endCuts++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantEnd := map[string]bool{}
	for _, log := range []string{"r0|", "r0|r", "r0|r1", "r0|r1|"} {
		wantEnd[log+" "] = true  // the index entry lost
		wantEnd[log+" i"] = true // the index entry kept
	}
	// Single-file tears with the other file at none or whole cover all 8 here, each once.
	if diff := cmp.Diff(wantEnd, outcomes); diff != "" || endCuts != 8 {
		t.Errorf("%d power cuts at the end; their contents (-want +got):\n%s", endCuts, diff)
	}
	wantFirst := []string{
		"process crash before #1 mkdirall p",
		"power cut before #1 mkdirall p",
		"process crash before #2 syncdir ",
	}
	if diff := cmp.Diff(wantFirst, got[:3]); diff != "" {
		t.Errorf("the first cuts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("power cut after the workload, keeping p/0.index:1 p/0.log:2", got[len(got)-1]); diff != "" {
		t.Errorf("the last cut (-want +got):\n%s", diff)
	}
}

func TestPowerCutsStopsAtTheFirstError(t *testing.T) {
	stop := errStop{}
	visits := 0
	err := vfstest.PowerCuts(vfs.NewMem(), appendLog, func(vfstest.Cut, *vfs.MemFS) error {
		visits++
		if visits == 4 {
			return stop
		}
		return nil
	})
	if err != stop || visits != 4 {
		t.Fatalf("PowerCuts returned %v after %d visits; want the visitor's error after 4", err, visits)
	}
}

type errStop struct{}

func (errStop) Error() string { return "stop" }
