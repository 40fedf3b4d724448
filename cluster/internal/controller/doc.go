// Package controller is the simulated cluster's KRaft controller as a
// machine: broker registrations, heartbeats and fencing by session
// expiry, the partitions' leaders, ISRs and epochs, elections (from the
// ISR, or unclean), the leaders' AlterPartition proposals, and the
// metadata quorum that, in combined mode, runs it inside the brokers.
// It also holds the cluster's metadata every other machine reads: the
// topics with their assignments and configs.
//
// The controller talks to the brokers only through envelopes: it takes
// registrations, heartbeats, controlled shutdowns and AlterPartition
// requests ([Controller.Step]), fences brokers whose session expired and
// fails the active controller over ([Controller.Tick]), and sends the
// partition states (LeaderAndIsr) and AlterPartition answers through its
// [Env]. Its notes go to the Env's recorder as [event.Controller] events.
//
// Rules and eras: before Kafka's KRaft (a ZooKeeper-era controller,
// [Config.ZooKeeperEra]) the leader epoch goes up on each election (not
// when a partition goes offline) and on controller-side ISR shrinks, as
// KafkaController.onBrokerFailure did, and a broker that restarts before
// its session expired keeps its place; under KRaft (Kafka 3.7's
// PartitionChangeBuilder) the leader epoch goes up on every change of the
// leader field, to and from none, and a restarted broker always registers
// fenced. In both, before Kafka 4's rules, the ISR never empties: its last
// member stays and the partition goes offline. Under
// [Config.EligibleLeaderReplicas] (KIP-966, Kafka 4.1; elr.go) the ISR may
// empty, the members it drops below min.insync.replicas stay eligible in
// the partition's ELR, the last leader is remembered while there is none,
// the brokers are fenced one at a time, and a broker that registers after
// an unclean shutdown (its clean shutdown marker's broker epoch is not the
// one the controller gave it) leaves every ISR and ELR.
package controller
