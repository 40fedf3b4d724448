package readcommitted

// AbortedTransaction is one entry of a Fetch response's AbortedTransactions
// list: producer ProducerID's transaction that began at FirstOffset was
// aborted. The leader lists every aborted transaction that overlaps the
// records it sends, in the order its .txnindex files hold them (by ABORT
// marker offset), which is not always by first offset.
type AbortedTransaction struct {
	// ProducerID is the transactional producer's id.
	ProducerID int64
	// FirstOffset is the offset of the transaction's first batch.
	FirstOffset int64
}
