// Package bank is the kit's bank of known mistakes: every mutant under
// solutions/chNN/<exercise>/mutants/<name>/, each the reference answer with
// one plausible learner mistake, handed to the exercises' suites as the
// mistakes they may recognise in a learner's answers ("this looks like ...").
//
// The suites (kafkalog/kafkalogkit, replica/replicakit, group/groupkit) are
// pure rules and import none of this; the bank sits above them, and an
// exercise's test file gives its suite the bank's list:
//
//	kafkalogkit.TestVarint(t, kafkalogkit.VarintCodec{AppendVarint: AppendVarint}, bank.Varint()...)
//
// A mistake is registered in one place, its own directory: the package
// comment's "Mistake:" paragraph says what it does wrong in a learner's words,
// its "Breaks:" line names the rules whose breaking it is, and its functions,
// written in the suite's types, are the mistake. mistakes.go is generated
// from those directories (go generate ./solutions/bank), and a test fails
// when it is stale.
//
// The tests of this package prove the suites right against the bank: each
// suite passes its reference solution, fails the untouched stub with one
// message naming the note to read and the function to write, and rejects
// every mutant through its fixed cases and through its rapid properties with
// a rule the mutant's "Breaks:" line names ("go test -v ./solutions/bank -run
// TestMutantsAreKilled" prints the kill matrix); no hint names a mistake
// other than one whose answers are the learner's on every case tried; and
// every mutant, plugged into the live cluster, shows in one of its chapter's
// scenarios.
package bank

//go:generate go run ./internal/genbank
