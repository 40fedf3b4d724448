// Package cputime reads the CPU time the process has spent (user and
// system), for benchmarks that report it beside the wall clock: on a
// machine shared with other busy processes, wall-clock time counts the
// slices the scheduler gives to others, CPU time does not. It includes the
// garbage collector's workers, which is the point for a simulation whose
// cost is partly the memory it keeps.
package cputime
