package kafkalogkit

// Note files, relative to the repository root.
const (
	note01 = "notes/01-records-on-disk.md"
	note02 = "notes/02-offsets-and-the-index.md"
	note03 = "notes/03-segments-and-retention.md"
	note04 = "notes/04-page-cache-and-recovery.md"
	note07 = "notes/07-transactions.md"
)
