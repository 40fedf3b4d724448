// Package solutions holds the reference answers of the kit's exercises and
// the bank of known mistakes.
//
// solutions/chNN/<exercise>/ mirrors exercises/chNN/<exercise>/ file for file:
// copy a solution over the exercise and "go test ./exercises/..." passes. Each
// solutions/chNN/<exercise>/mutants/<name>/ package is the reference answer
// with one plausible learner mistake, written in the suite's types; its
// package comment says what the mistake is ("Mistake:") and which rules it
// breaks ("Breaks:"). Package bank (solutions/bank) gathers the mutants, hands
// them to the suites as the mistakes a failure may recognise ("this looks
// like ..."), and proves the suites right against the solutions and the
// mutants (the kill matrix: go test -v ./solutions/bank -run
// TestMutantsAreKilled).
package solutions
