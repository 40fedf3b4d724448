package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// ControllerID is the node id of the (KRaft) controller on the network. It
// is not a broker; brokers are 1..N, producers 101.., and consumers read the
// leader's log directly. With a separate controller it never fails; in
// combined mode ([Config.CombinedControllers]) it stands for whichever
// broker's controller is active.
const ControllerID = netsim.Controller

type partitionKey = kafkalog.TopicPartition
