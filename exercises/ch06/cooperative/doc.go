// Package cooperative is the exercise of chapter 6
// (notes/06-cooperative-rebalancing.md): the group leader's assignment step
// of the cooperative-sticky assignor (KIP-429), which keeps what each member
// may keep and leaves out, for one round, every partition another member
// must first give up.
//
// Run its suite with: go test ./exercises/ch06/cooperative
package cooperative
