//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Now returns the CPU time (user + system) the process has spent so far,
// 0 if the system does not say.
func Now() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
