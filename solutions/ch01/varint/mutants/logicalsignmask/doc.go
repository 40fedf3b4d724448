// Package logicalsignmask is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the sign mask is taken with a logical shift
// (uint32(v)>>31 is 0 or 1) instead of an arithmetic one (v>>31 is 0 or -1).
// The suite must reject it; see solutions/kill_test.go.
package logicalsignmask
