package dumplog

// This file holds what "kafkalive log-dirs" shares with dump-log: Kafka's
// way to print a damaged batch's position, and JSON objects printed the
// way Jackson prints Kafka's generated converters.

// AtPosition returns err located at byte pos of its file: a
// [kafkalog.BatchError] gets pos added to its own position.
func AtPosition(err error, pos int64) error { return atPosition(err, pos) }

// JSONObject builds a compact JSON object with fields in the order they
// are added, without HTML escaping, as Jackson prints an ObjectNode.
type JSONObject struct{ j jsonObject }

// Str adds a string field (null when v is nil).
func (o *JSONObject) Str(k string, v *string) { o.j.str(k, v) }

// Num adds a number field.
func (o *JSONObject) Num(k string, v int64) { o.j.num(k, v) }

// Raw adds a field whose value is already JSON.
func (o *JSONObject) Raw(k, v string) { o.j.raw(k, v) }

// String returns the object, "{}" when it has no field.
func (o *JSONObject) String() string { return o.j.String() }
