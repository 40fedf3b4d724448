// Package oneabortperproducer is a known-buggy Deliver for the mutant bank
// of exercise ch07/readcommitted: it keeps one aborted transaction per
// producer.
//
// Mistake: the list is read into a map from producer id to first offset, so
// a producer with two aborted transactions keeps only its last one: its
// earlier aborted transaction is delivered.
//
// Breaks: E4 (an aborted transaction is skipped).
package oneabortperproducer
