// Package crcwrongrange is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the CRC is computed from byte 17 (the crc field itself)
// instead of byte 21.
// The suite must reject it; see solutions/kill_test.go.
package crcwrongrange
