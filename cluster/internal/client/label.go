package client

import (
	"fmt"
	"unicode/utf8"
)

// RecordLabel is how an event shows a record: "key=value", or the value
// alone without a key, each cut short past maxLabelBytes.
func RecordLabel(key, value string) string {
	value = shortValue(value)
	if key == "" {
		return value
	}
	return shortValue(key) + "=" + value
}

// maxLabelBytes is the most of a key or value an event's text shows.
const maxLabelBytes = 64

// shortValue is s as an event shows it: whole up to maxLabelBytes, else
// its first bytes and its size, so that a megabyte value does not make a
// megabyte line in the terminal (the record itself is whole in the log).
func shortValue(s string) string {
	if len(s) <= maxLabelBytes {
		return s
	}
	cut := maxLabelBytes / 2
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s))
}
