// Package recordlengthcountsitself is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: a record's length varint counts its own bytes too.
// The suite must reject it; see solutions/kill_test.go.
package recordlengthcountsitself
