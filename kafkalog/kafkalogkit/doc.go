// Package kafkalogkit holds the suites that check the kit's exercises (and any
// other implementation of the same functions) against Kafka's rules.
//
// Each exercise's surface is a struct of funcs (VarintCodec, BatchEncoder,
// IndexLookup, Retention, Recovery, ReadCommitted: chapter 7's
// read_committed consumer works on kafkalog's batches). For each there are
// three entry points:
//
//   - CheckX(impl) error runs fixed known answers (Kafka's own test vectors,
//     golden batches, batches written by a real broker) and returns the first
//     violation, in the style of testing/fstest.TestFS;
//   - XProperties(impl) func(*rapid.T) is the rapid property (for retention and
//     recovery a state machine against a model), for rapid.Check;
//   - TestX(t, impl) runs both as subtests; it is the one call an exercise's
//     test file makes.
//
// A failure names the rule broken in Kafka's terms ("[V4 length] ..."), shows
// the smallest counterexample rapid finds, hexdumps the bytes with the first
// wrong byte marked where bytes are involved, links the note section that
// explains the rule, prints the command that replays it, and says "this looks
// like ..." when the learner's answers are those of a known mistake. The
// known mistakes are an entry point's last, optional arguments
// (kit.Known: the kit's bank, solutions/bank, passes its mutants); the
// suites themselves are pure rules and know no mistake. An untouched stub
// (one that panics with a value whose NotStarted method returns true) fails with
// one message: the note to read and the function to write.
//
// The suites use the library (kafkalog.AppendVarint, RecordBatch.AppendTo,
// CRC32C, ReadBatch) as their oracle where it has the function, and otherwise
// small reference models written here, so that they do not depend on parts of
// the library still being written.
package kafkalogkit
