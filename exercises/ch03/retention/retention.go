package retention

import "github.com/kafkalive/kafkalive/exercises/todo"

// DeletableSegments returns how many of the oldest segments Kafka's retention
// deletes now. Read notes/03-segments-and-retention.md#the-retention-rule.
//
// Three rules each pick segments oldest first and stop at the first segment
// they keep: the log start offset, retention.bytes and retention.ms. Under
// cleanup.policy=compact only the log start offset applies. Whatever the rule,
// a segment goes only if every offset in it is below the high watermark, and
// the active segment never goes while it is empty.
//
// Check your work with: go test ./exercises/ch03/retention
func DeletableSegments(log Log, cfg Config, nowMs int64) int {
	panic(todo.TODO) // delete this line and write the retention rule
}
