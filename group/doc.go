// Package group is Kafka's classic consumer-group protocol (the pre-KIP-848
// coordinator) as pure state machines, plus the partition assignors.
//
// Nothing here starts a goroutine, reads a clock or draws from a global
// random source: time comes in as nowMs arguments, member ids are
// deterministic, and every output is sorted. The cluster simulation drives
// the machines and carries their messages.
package group
