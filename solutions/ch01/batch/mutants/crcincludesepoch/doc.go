// Package crcincludesepoch is a known-buggy batch encoder for the mutant
// bank of exercise ch01/batch: the CRC starts at partitionLeaderEpoch (byte
// 12), which Kafka leaves outside so that the leader can stamp its epoch.
//
// Mistake: the CRC starts at partitionLeaderEpoch (byte 12); the epoch is
// outside the CRC so the leader can stamp it.
//
// Breaks: B6 (CRC-32C over [21, end)).
package crcincludesepoch
