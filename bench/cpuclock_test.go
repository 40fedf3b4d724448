package bench

import (
	"syscall"
	"testing"
	"time"
)

// cpuClock measures the CPU time (user + system) the process spends in a
// benchmark's timed sections and reports it as cpu-ns/op beside the wall-clock
// ns/op. On this shared two-core machine other engineers' processes take the
// CPU away in slices of milliseconds, which wall-clock time counts and CPU time
// does not; the paths measured allocate nothing, so no GC worker's time is
// mixed in (for Append and Recovery, system time in the kernel is counted,
// which is the work of the write and read calls themselves).
type cpuClock struct {
	total, started time.Duration
	running        bool
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (c *cpuClock) start() { c.started, c.running = processCPU(), true }

func (c *cpuClock) stop() {
	if c.running {
		c.total += processCPU() - c.started
		c.running = false
	}
}

// report stops the clock and reports cpu-ns/op over the b.N operations timed.
func (c *cpuClock) report(b *testing.B) {
	c.stop()
	if b.N > 0 && c.total > 0 {
		b.ReportMetric(float64(c.total.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// pause stops both the benchmark timer and c, for work outside the measurement.
func (c *cpuClock) pause(b *testing.B) {
	b.StopTimer()
	c.stop()
}

// resume starts both again.
func (c *cpuClock) resume(b *testing.B) {
	c.start()
	b.StartTimer()
}
