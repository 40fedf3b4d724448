// Package crcincludesepoch is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: the CRC starts at partitionLeaderEpoch (byte 12), which
// Kafka leaves outside so that the leader can stamp its epoch.
// The suite must reject it; see solutions/kill_test.go.
package crcincludesepoch
