package bank

import (
	"slices"

	"github.com/kafkalive/kafkalive/group/groupkit"
	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/replica/replicakit"
)

// Varint returns the known mistakes of exercise ch01/varint.
func Varint() []kit.Known[kafkalogkit.VarintCodec] { return slices.Clone(varintMistakes) }

// Batch returns the known mistakes of exercise ch01/batch.
func Batch() []kit.Known[kafkalogkit.BatchEncoder] { return slices.Clone(batchMistakes) }

// Index returns the known mistakes of exercise ch02/index.
func Index() []kit.Known[kafkalogkit.IndexLookup] { return slices.Clone(indexMistakes) }

// Retention returns the known mistakes of exercise ch03/retention.
func Retention() []kit.Known[kafkalogkit.Retention] { return slices.Clone(retentionMistakes) }

// Recovery returns the known mistakes of exercise ch04/recovery.
func Recovery() []kit.Known[kafkalogkit.Recovery] { return slices.Clone(recoveryMistakes) }

// Truncation returns the known mistakes of exercise ch05/truncation.
func Truncation() []kit.Known[replicakit.Truncation] { return slices.Clone(truncationMistakes) }

// Cooperative returns the known mistakes of exercise ch06/cooperative.
func Cooperative() []kit.Known[groupkit.CooperativeSticky] { return slices.Clone(cooperativeMistakes) }

// ReadCommitted returns the known mistakes of exercise ch07/readcommitted.
func ReadCommitted() []kit.Known[kafkalogkit.ReadCommitted] {
	return slices.Clone(readcommittedMistakes)
}
