package main

import (
	"bytes"
	"os"
	"testing"
)

// TestMistakesAreCurrent fails when a mutant directory was added, removed or
// edited without regenerating the bank's list.
func TestMistakesAreCurrent(t *testing.T) {
	want, err := generate("../../..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../mistakes.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("solutions/bank/mistakes.go is not the list of the mutant directories: run go generate ./solutions/bank")
	}
}
