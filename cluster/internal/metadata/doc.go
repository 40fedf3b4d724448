// Package metadata is the cluster metadata the simulated machines share:
// topics, with their partitions' replica assignments, configs and ids, as
// the controller keeps them and every broker and client reads them
// (KRaft's metadata image; in the simulation every machine reads the
// controller's at once), and the metadata quorum as its leader describes
// it (QuorumDescription), which the controller keeps and a broker answers
// DescribeQuorum with.
package metadata
