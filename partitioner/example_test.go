package partitioner_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/partitioner"
)

// Keys keep their partition until the partition count changes (the
// keys-order-partitions scenario).
func ExamplePartition() {
	for _, key := range []string{"alice", "bob", "carol", "dave"} {
		p3, _ := partitioner.Partition([]byte(key), 3)
		p4, _ := partitioner.Partition([]byte(key), 4)
		fmt.Printf("%-5s murmur2 %11d  3 partitions → p%d  4 partitions → p%d\n",
			key, partitioner.Murmur2([]byte(key)), p3, p4)
	}
	// Output:
	// alice murmur2  1951417749  3 partitions → p0  4 partitions → p1
	// bob   murmur2 -2048144690  3 partitions → p0  4 partitions → p2
	// carol murmur2   271431602  3 partitions → p2  4 partitions → p2
	// dave  murmur2  1727131798  3 partitions → p1  4 partitions → p2
}
