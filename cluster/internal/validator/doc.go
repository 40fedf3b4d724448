// Package validator is Kafka's LogValidator as the simulated leaders run
// it on a producer's batch (Kafka 3.7's LogValidator.validateBatch and
// validateRecord, and the rewrites it makes): the batch header's checks,
// each record's checks with the error records a refused batch carries,
// the timestamp bounds, the maxTimestamp a CreateTime topic writes, and
// what a transaction marker is. The producers check what Kafka's client
// checks with it too (a record's timestamp before it is sent).
package validator
