// Package replicatest drives [replica.Node]s in tests: an InteractionEnv
// with several replicas of one partition, each on a [replica.MemLog], a
// small controller, a queue of in-flight messages that tests deliver or
// drop one link at a time, a virtual clock, crashes and power cuts, and
// deterministic printing of it all for cockroachdb/datadriven files. It
// follows etcd-io/raft's rafttest.
package replicatest
