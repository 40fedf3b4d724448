// Package removesbeforejoin is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it handles the ABORT marker before the list.
//
// Mistake: at an ABORT marker the producer is taken out of the aborted set
// before the list is read up to the marker: an aborted transaction whose
// records are gone (only its marker is left) stays in force after its
// marker.
//
// Breaks: E6 (the ABORT marker ends it).
package removesbeforejoin
