package cooperative

import "github.com/kafkalive/kafkalive/exercises/todo"

// Assign is one rebalance on the group leader with the cooperative-sticky
// assignor. Read notes/06-cooperative-rebalancing.md#the-assignment.
//
// With P partitions (of all topics) and N members, minQuota = P/N and
// maxQuota = ceil(P/N); at most P mod N members may hold maxQuota.
//
//  1. Sort the members by member id. Each keeps the first k of the
//     partitions it owns, in topic-then-partition order: k is all of them if
//     it owns fewer than minQuota; maxQuota if it owns maxQuota or more and
//     fewer than P mod N members before it kept maxQuota; minQuota
//     otherwise. An owned partition that no longer exists (a deleted topic,
//     or past the topic's partition count) counts for nothing.
//  2. Deal the partitions nobody kept, sorted, round-robin to the members
//     below minQuota (a member leaves the circle when it reaches minQuota),
//     then one each to the members that reached minQuota, in the order they
//     reached it, while fewer than P mod N members hold maxQuota.
//  3. KIP-429: leave out of this round every partition another member still
//     owns; that member revokes it and rejoins, and the partition moves in the
//     follow-up rebalance
//     (notes/06-cooperative-rebalancing.md#cooperative-never-two-owners).
//
// Every member gets an entry, an empty list if nothing is free for it yet.
// The lists you are given are the caller's: sort and cut copies of them
// (notes/06-cooperative-rebalancing.md#the-input-and-the-answer-are-the-callers).
//
// Check your work with: go test ./exercises/ch06/cooperative
func Assign(members []Member, topics []TopicMetadata) Assignment {
	panic(todo.TODO) // delete this line and write the assignment
}
