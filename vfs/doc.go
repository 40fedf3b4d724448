// Package vfs is the file system a Kafka log lives on: the operating system's (Default),
// or MemFS, an in-memory one with a page cache, a process crash and a power cut, on which
// crash recovery can be tested deterministically and exhaustively.
//
// # Page cache and disk
//
// A write lands in the page cache, which belongs to the kernel: reads see it at once, a
// crash of the process keeps it, a power cut loses it. File.Sync (fsync) copies a
// file's bytes and size to the disk; SyncDir copies a directory's entries (names) to the
// disk. MemFS keeps both copies of everything:
//
//	         process                         kernel                        disk
//	┌───────────────────────┐   WriteAt   ┌──────────────────┐   Sync    ┌──────────────┐
//	│ File handles          │ ──────────▶ │ page cache       │ ────────▶ │ file bytes   │
//	│ (die in Crash and     │ ◀────────── │ "synced|appended"│           │ "synced|"    │
//	│  PowerCut)            │   ReadAt    │                  │           │              │
//	│                       │   Create,   │ directory        │  SyncDir  │ directory    │
//	│                       │ ──Rename,─▶ │ entries          │ ────────▶ │ entries      │
//	│                       │   Remove    │ a.log b.log      │           │ a.log        │
//	└───────────────────────┘             └──────────────────┘           └──────────────┘
//	  Crash: handles die,                   PowerCut: the page cache is   Writeback: the
//	  nothing is lost                       lost, except a prefix of each kernel syncs
//	                                        file's unsynced tail          everything
//
// # What the kernel writes back on its own
//
// Every file and directory remembers when it turned dirty (Dirtied, Linux's
// inode->dirtied_when): the first change after it was last written to disk sets it,
// later changes keep it. Writeback is sync(2): everything dirty goes to disk.
// WritebackExpired(now, expire) is one wake of Linux's flusher threads: every inode
// dirty since now-expire or earlier is written back whole, younger ones stay in the
// page cache. A caller that wakes it every LinuxDirtyWritebackIntervalMs (5 s) with
// LinuxDirtyExpireMs (30 s) has Linux's default behaviour: a byte is on disk at most
// 35 s after it was written, even if no one calls Sync. MemFS has no clock: it is the
// caller that wakes the flusher, with the time it set with SetNow.
//
// # The power cut rule
//
// After (*MemFS).PowerCut the tree is what the directories' last SyncDir recorded (the
// root's own entry always exists); each surviving file holds the bytes of its last Sync,
// followed by the first k bytes of its page cache beyond that size, k chosen by the
// caller for each file:
//
//	durable:    synced|
//	page cache: synced|appended
//	k = 0:      synced|            the unsynced append is lost
//	k = 3:      synced|app         torn at a byte
//	k = 8:      synced|appended    kept whole
//
// So a file created in a directory that was never synced since vanishes, even if its
// bytes were synced (and so does a directory made with MkdirAll, with everything in it,
// until its parent is synced: MkdirAllDurable creates directories and syncs their
// parents, as Kafka's LogManager.createLogDirectory does with Utils.flushDir); an unsynced Rename or Remove is undone; a file grown by an unsynced
// Truncate (Kafka's preallocated index files) reads back zero-padded; unsynced overwrites
// below the durable size and unsynced shrinking are lost (a simplification: a real disk
// may keep any subset of dirty pages). This is the model of cockroachdb/pebble's MemFS
// crash clones, with the surviving tail chosen by a callback so that a test can try
// every outcome (PowerCut) or draw one from a seeded generator (PowerCutRand).
//
// # Faults and forks
//
// SetHook sees every mutating operation (Op) before it happens and can fail it;
// FailAfter builds a hook for "the disk dies after the nth write". SetCapacity makes
// writes beyond a size fail with ErrNoSpace. Clone forks the whole file system,
// durable state included: the simulated cluster forks its timeline with it. A clone
// shares every file's bytes, page cache and disk alike, with its original: their page
// tables are frozen, and whichever side first writes a file copies its table (page
// pointers, not bytes), then each page it writes. So a Clone costs a small copy per
// file and directory, nothing per byte, and a file neither side writes again is never
// copied; nothing else is shared. Snapshot is a Clone to keep, never written: it holds
// again the last snapshot's copy of every file and directory nothing changed in since,
// passes over every directory nothing under which changed, and copies a directory that
// changed from its last copy, looking at the entries noted since (added, removed,
// synced, or changed in or under) alone, so that the timeline's snapshots of a broker of
// thousands of idle partitions cost what changed.
//
// The flusher's wake (WritebackExpired) looks at the files and directories that are
// dirty, which MemFS lists as they turn dirty, not at the whole tree.
//
// # Bytes kept rather than copied
//
// A MemFS file holds its bytes in pages of 16 KiB. WriteAtNoCopy (a MemFS file is a
// NoCopyWriter) is a write whose caller hands its buffer over: the pages it covers
// whole become that buffer's memory rather than a copy, shared like a Clone's (copied
// before the file writes them again), and so does the part that continues a page right
// after its last byte (the page's tail), so that a log appended batch by batch holds no
// byte twice; the caller never changes the buffer again.
// HoldsAt asks whether a file still holds given bytes at an offset: for kept pages it
// compares where they are, not what they hold. The simulated cluster appends a client's
// batch so to the leader's and both followers' files, and the three files and the
// request on the timeline share one copy of it.
//
// MemFS has no clock (SetNow stamps ModTime), no randomness of its own, no goroutines
// and no locks; it iterates in sorted order, and is not safe for concurrent use.
package vfs
