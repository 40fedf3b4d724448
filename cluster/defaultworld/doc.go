// Package defaultworld is the world kafkalive serves: the cluster, topics,
// producers and consumer groups the page starts with (and a reset goes
// back to), defined once, here, outside the simulation core. The server
// (package web) builds it with [Seed]; the user-level explorer
// (cluster/explore) builds it with each sequence's seed, so that what it
// checks is what the page's users drive.
//
// [Config] says why each setting is what it is: three brokers under the
// modern rules with min.insync.replicas=2 and the controller inside them,
// small segments and a short retention so that the page shows them roll
// and go, Kafka's checkpoint schedules and Linux's writeback, a bounded
// timeline, disk and history. [Topics], [Producers] and [Consumers] are
// its parts: orders (three partitions) and profiles (one), three
// producers, and the groups billing and search-index.
package defaultworld
