// Package belowfetchoffset is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it hands out the records below the fetch
// offset.
//
// Mistake: every record of the fetched batches is handed out, those below
// the fetch offset too: the first batch of a fetch may begin before the
// offset asked for.
//
// Breaks: E2 (from the fetch offset).
package belowfetchoffset
