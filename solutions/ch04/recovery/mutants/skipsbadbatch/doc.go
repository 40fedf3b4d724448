// Package skipsbadbatch is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: a bad batch whose length is sane is skipped and
// the walk goes on, instead of cutting everything from it on.
//
// Mistake: a bad batch is skipped and the walk goes on; Kafka cuts
// everything from the first bad byte.
//
// Breaks: C2 (length field), C3 (CRC-32C), C4 (magic), C5 (offsets increase),
// C6 (cut at the first bad byte).
package skipsbadbatch
