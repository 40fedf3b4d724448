package cluster

import "github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"

// ErrorName is the name of Kafka error code code in Kafka's Errors
// (NOT_LEADER_OR_FOLLOWER...), for a view that shows the codes a response
// carried.
func ErrorName(code int16) string { return kafkaerr.Name(code) }
