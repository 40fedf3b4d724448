// Package standalone holds one test: that the repository speaks of itself
// alone. Every reference in its notes, docs, messages and comments points at
// something a reader of the repository has: one of its own files (and, for a
// Markdown link, a heading that exists), or Kafka's source, tests and KIPs by
// name. No issue numbers, no session talk, no files outside the repository.
package standalone
