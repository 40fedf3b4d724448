// Package solutions holds the reference answers of the kit's exercises and
// the bank of known mistakes, and proves the suites right.
//
// solutions/chNN/<exercise>/ mirrors exercises/chNN/<exercise>/ file for file:
// copy a solution over the exercise and "go test ./exercises/..." passes. Each
// solutions/chNN/<exercise>/mutants/<name>/ package is the reference answer with
// one plausible learner mistake.
//
// The test of this package (kill_test.go) proves, for every exercise, that its
// suite in kafkalog/kafkalogkit passes the solution, fails the untouched stub
// with one message naming the note to read and the function to write, and
// rejects every mutant both through its fixed cases and through its rapid
// properties. "go test -v ./solutions/" prints the kill matrix: which rule
// caught each mistake through each, whether that is the rule the mistake breaks
// (ruleBroken in kill_test.go), and whether the failure's "this looks like"
// named it (right), said nothing (absent) or named another mistake (wrong,
// which fails the test), with a tally per exercise.
//
// The matrix runs under a pinned rapid seed (-rapid.seed=N for another),
// with rapid's shrinking of each mutant's failure capped at kit.ShrinkRuns
// runs (a count, so the verdicts are the same on every machine), and spread
// over -kit.shards processes.
//
// The retention, truncation and cooperative suites cannot run the mutants as
// their "this looks like" signatures (the mutants use the solutions' types),
// so they re-implement each mistake; signatures_test.go runs every
// re-implementation beside its mutant on the same random inputs and requires
// the same answers.
//
// unseen_bank_test.go holds plausible mistakes that are not in the bank: the
// suites must catch them and give them no hint, since any hint would name a
// mistake they did not make; and a call that never returns must fail with
// the rule it was checking and the note on termination.
package solutions
