package tab

import (
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
)

// The bounds of the tab's world, for a browser tab's memory: WebAssembly's
// memory only grows, so what the world keeps at its largest is what the
// tab holds until it is closed.
const (
	// KeepMs is the simulated time the timeline keeps (the server's
	// world keeps 10 minutes).
	KeepMs = 5 * 60_000
	// KeepBytes bounds what replaying the kept history needs (the
	// server's: defaultworld.KeepBytes of external clients' requests,
	// which a tab never gets).
	KeepBytes = 16 << 20
	// DiskBytes is each broker's disk (the server's: defaultworld.DiskBytes,
	// its host's memory): a topic without retention filled by a producer the user
	// speeds up fills it, and the broker halts as Kafka's does, before
	// the tab runs out of memory.
	DiskBytes = 256 << 20
	// MemoryLimit is the Go runtime's soft memory limit in the tab
	// (debug.SetMemoryLimit, which Serve sets): nearing it the collector
	// runs more often instead of the WebAssembly memory growing, which
	// it never undoes.
	MemoryLimit = 160 << 20
)

// Config is the default world as a tab runs it: [defaultworld.Config] with
// [defaultworld.Seed] (the same brokers, topics and rules, so that the
// tab's world is the server's, step for step) with a timeline of KeepMs and
// brokers' disks of DiskBytes.
func Config() cluster.Config {
	cfg := defaultworld.Config(defaultworld.Seed)
	cfg.Timeline.KeepMs = KeepMs
	cfg.Timeline.KeepBytes = KeepBytes
	cfg.BrokerDiskBytes = DiskBytes
	return cfg
}
