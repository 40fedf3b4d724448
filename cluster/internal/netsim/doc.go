// Package netsim is the simulated cluster's network: the envelopes its
// machines send each other (replication messages, produce answers, the
// controller's partition states, registrations and heartbeats, group
// requests and answers), the node ids that address them, and a FIFO queue
// with cut links and a latency.
//
// Delivery is in send order. The network decides nothing about whether a
// message may be delivered to a machine that went away (a broker that
// restarted, a consumer that crashed): the world's router does, from the
// incarnations an envelope carries. What the network does model is a cut
// link (both ways, between two nodes), a message that is not due yet
// (Config.NetworkLatencyMs), and the TCP connection a follower's request
// travels on: its answer reaches only the incarnation that asked
// ([Network.OpenRequest], [Network.CloseRequest]).
//
// A Network holds no pointers into the machines; [Network.Clone] copies
// the queue and the cut links and shares the envelopes' contents, which
// nobody changes once sent.
package netsim
