// Package replicalog is a simulated broker's partition replica log: a
// [kafkalog.Log] (byte-exact record batches in segment files on the
// broker's file system) seen as the record-level [replica.Log] that a
// [replica.Node] drives, with a mirror of its records for everyone who
// reads them (the followers' fetches, the consumers, the page, the
// checker).
//
// Every write goes to the kafkalog.Log, so a power cut loses exactly the
// bytes a real log would; the mirror is rebuilt from the files whenever the
// log is opened (after recovery) and never holds more than they do. A batch
// whose offsets follow one another is mirrored lazily, as where it lies in
// its segment file, and decoded again only when someone reads its records;
// a follower's fetch takes its bytes without decoding them. The records
// decoded last are kept up to [MirrorCacheBytes] a log (8 MiB; Kafka keeps
// none: a fetch sends the log's bytes), and a clone keeps none. Bytes that do
// not decode (disk damage below the recovery point) are remembered as
// [Damage] and handed to readers as they are, as a Kafka leader sends them.
//
// The log keeps a pointer to its owner's clock (milliseconds), read at each
// append as the batch's time.
package replicalog
