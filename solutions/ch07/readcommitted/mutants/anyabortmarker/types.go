package anyabortmarker

import "github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"

// AbortedTransaction is the suite's type, so that the bank runs this mistake as it is.
type AbortedTransaction = kafkalogkit.AbortedTransaction
