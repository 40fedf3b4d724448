package client

import (
	"fmt"
	"unicode/utf8"
)

// RecordLabel is how an event shows a record: "key=value", or the value
// alone without a key, each cut short past maxLabelBytes.
func RecordLabel(key, value string) string {
	return SizedRecordLabel(key, len(key), value, len(value))
}

// SizedRecordLabel is RecordLabel of a key and a value of keySize and
// valueSize bytes of which key and value are the first (a preview's).
func SizedRecordLabel(key string, keySize int, value string, valueSize int) string {
	value = shortValue(value, valueSize)
	if key == "" {
		return value
	}
	return shortValue(key, keySize) + "=" + value
}

// Label is a record as an event shows it ([RecordLabel]), kept as its key
// and value so that the text is built only when the event is read.
type Label struct{ Key, Value string }

// String returns RecordLabel(l.Key, l.Value).
func (l Label) String() string { return RecordLabel(l.Key, l.Value) }

// maxLabelBytes is the most of a key or value an event's text shows.
const maxLabelBytes = 64

// shortValue is s, the first bytes of a text of size bytes, as an event
// shows it: whole up to maxLabelBytes, else its first bytes and its size,
// so that a megabyte value does not make a megabyte line in the terminal
// (the record itself is whole in the log).
func shortValue(s string, size int) string {
	if len(s) <= maxLabelBytes && size <= len(s) {
		return s
	}
	if len(s) <= maxLabelBytes/2 {
		return fmt.Sprintf("%s… (%d bytes)", s, size)
	}
	cut := maxLabelBytes / 2
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], max(size, len(s)))
}
