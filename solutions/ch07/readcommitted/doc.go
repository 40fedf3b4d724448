// Package readcommitted is the exercise of chapter 7
// (notes/07-transactions.md): what a consumer with
// isolation.level=read_committed hands to its application from one fetched
// range, given the partition's answer and its list of aborted
// transactions.
//
// Run its suite with: go test ./exercises/ch07/readcommitted
package readcommitted
