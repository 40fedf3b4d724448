// Package emptycachekeepslog is a known-buggy truncation for the mutant bank
// of exercise ch05/truncation: a follower with an empty epoch cache asks
// nothing and keeps its log.
//
// Mistake: a follower with an empty epoch cache asks nothing and keeps its
// whole log; it cannot know which of its records the leader has, so it cuts
// at its high watermark, the records every in-sync replica had.
//
// Breaks: T10 (a follower with no epochs).
package emptycachekeepslog
