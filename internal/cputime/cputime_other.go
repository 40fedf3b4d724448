//go:build !unix

package cputime

import "time"

// Now returns 0: the process's CPU time is read on Unix systems only.
func Now() time.Duration { return 0 }
