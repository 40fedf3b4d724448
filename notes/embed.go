// Package notes holds the kit's chapters as Markdown files, embedded so that
// the kafkalive binary can show them wherever it is installed. Its test keeps
// every byte dump and example output in them true (see notes_test.go).
package notes

import "embed"

// FS holds the chapters and the concept notes, at its root (not the
// contributor guide).
//
//go:embed [0-9]*.md topics-partitions-offsets.md replication-isr-high-watermark.md consumer-groups-rebalances-lag.md
var FS embed.FS
