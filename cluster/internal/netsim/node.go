package netsim

// Node ids on the network. Brokers are 1..N.
const (
	// Controller is the (KRaft) controller's node: a separate node that
	// never fails, or, in combined mode, whichever broker's controller is
	// active.
	Controller int32 = 0
	// AdminNode is the node of the cluster's admin client, which the
	// terminal's tools act through (kafka-transactions abort's
	// WriteTxnMarkers): its answers are recorded, nobody waits for them.
	AdminNode int32 = 99
	// ConsumerNode is the node of the world's simple consumers, which read
	// their leader's log directly.
	ConsumerNode int32 = 100
	// ProducerBase is added to a simulated producer's index to make its node.
	ProducerBase int32 = 101
	// CoordinatorBase is added to a broker id to make the node its group
	// coordinator uses to append to __consumer_offsets through its own
	// replica (the produce answers come back to it).
	CoordinatorBase int32 = 1000
	// TxnCoordinatorBase is added to a broker id to make the node its
	// transaction coordinator uses to append to __transaction_state
	// through its own replica.
	TxnCoordinatorBase int32 = 2000
	// TxnMarkerBase is added to a broker id to make the node its partition
	// leaders append transaction markers from (WriteTxnMarkers): the
	// answers come back to the broker, which answers the coordinator.
	TxnMarkerBase int32 = 3000
	// ExternalBase is added to an external Kafka client's number (1..) to
	// make its node.
	ExternalBase int32 = 100000
)

// ProducerNode returns the node of the simulated producer at index i (0..).
func ProducerNode(i int) int32 { return ProducerBase + int32(i) }

// CoordinatorNode returns the node of broker id's group coordinator.
func CoordinatorNode(id int32) int32 { return CoordinatorBase + id }

// TxnCoordinatorNode returns the node of broker id's transaction
// coordinator.
func TxnCoordinatorNode(id int32) int32 { return TxnCoordinatorBase + id }

// TxnMarkerNode returns the node broker id appends transaction markers
// from.
func TxnMarkerNode(id int32) int32 { return TxnMarkerBase + id }

// ExternalNode returns the node of external client n (1..).
func ExternalNode(n int32) int32 { return ExternalBase + n }
