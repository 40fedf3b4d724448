// Package inplacenoroom is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: it writes in place into any spare capacity of dst,
// without checking that the whole varint fits.
//
// Mistake: when dst has spare capacity it writes the varint in place without
// append, checking only that some room is left, not that all 5 bytes an
// int32 may take fit: a long varint runs past the capacity (a panic).
//
// Breaks: V6 (no panic).
package inplacenoroom
