// Package clonetest finds, for tests, what a clone shares with its original:
// the memory reachable from both.
//
// A Clone method that shares what never changes (a frozen page table, the
// bytes of a sealed segment, an append-only prefix) is only as safe as the
// claim that nothing ever changes it. The behavioural tests of each Clone
// (drive the original and the clone alike and compare them, change one and
// check the other did not move) catch what they happen to exercise;
// [Shared] is the second line: it walks both values, unexported fields
// included, and reports every pointer, slice and map of the clone whose
// memory the original reaches too, so that a test can check each against the
// short list of types its package shares on purpose. [Text] renders a value
// whole, following pointers, so that a test can keep what a state was and
// compare it later whatever memory it lives in.
//
// It reads values with package reflect and is meant for tests only: no
// package of the module imports it outside its _test.go files.
package clonetest
