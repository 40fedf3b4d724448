// Package cluster is a deterministic simulated Kafka cluster.
package cluster
