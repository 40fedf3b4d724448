// Package partitioner chooses the partition of a produced record the way
// Kafka's Java producer does.
//
// A record with a key goes to
//
//	partition = toPositive(murmur2(keyBytes)) % numPartitions
//
// ([Partition], Java's BuiltInPartitioner.partitionForKey). [Murmur2] is
// Kafka's Utils.murmur2: MurmurHash2 with seed 0x9747b28c, multiplier
// 0x5bd1e995 and shift 24, all arithmetic on 32 bits with wrap-around, the
// 4-byte blocks read little-endian. [ToPositive] masks off the sign bit
// (Utils.toPositive); it is not abs, so math.MinInt32 maps to 0, not to a
// negative number.
//
// A record without a key goes through the [Sticky] partitioner of KIP-480
// (Kafka 2.4–3.2): the producer stays on one partition until the batch for
// it is closed (full or sent), then picks another one at random, never the
// same one twice in a row when there is a choice. Kafka 3.3+ (KIP-794) uses
// [UniformSticky] instead: it switches after batch.size bytes went to the
// partition (once its batches are full, or at twice batch.size), so slow
// brokers no longer attract more data; its leaning away from long queues
// (adaptive partitioning) is not modelled. Before 2.4 null keys went
// round-robin.
//
// Adding partitions changes numPartitions, so an existing key can map to a
// different partition afterwards; records already written never move.
//
// Nothing here reads a clock or a global random source: the sticky
// partitioners draw from the *rand.Rand they are given, so a seeded world is
// reproducible. Their Clone methods copy the partition each topic sticks to
// (and the bytes it took) and draw from the generator given, the owner's copy
// of the one they drew from: a clone shares nothing with its original.
package partitioner
