// Package kafkaerr is Kafka's error codes as the simulated brokers answer
// with them across their rooms (the APIs, the log validator, the
// controller's checks), named as Kafka's
// org.apache.kafka.common.protocol.Errors names them. The replication
// codes a replica answers with are replica.ErrorCode's and the group
// coordinator's group.ErrorCode's; [Name] names those too.
package kafkaerr
