// Package headernullasempty is a known-buggy batch encoder for the mutant
// bank of exercise ch01/batch: a header with a null value is written with
// length 0.
//
// Mistake: a header's null value is written with length 0, as if empty;
// header values are nullable like record values, and null is length -1
// (varint 01).
//
// Breaks: B1 (record layout).
package headernullasempty
