package varint

import (
	"testing"

	"github.com/kafkalive/kafkalive/exercises/internal/shortcut"
)

// TestVarintIsYourOwn fails if the code above calls the library's own answer to this exercise.
func TestVarintIsYourOwn(t *testing.T) {
	shortcut.Refuse(t, map[string]string{
		"kafkalog.AppendVarint":  "kafkalog.AppendVarint is the encoder this exercise asks you to write",
		"kafkalog.AppendVarlong": "kafkalog.AppendVarlong is the same encoder for int64",
		"binary.AppendVarint":    "encoding/binary's AppendVarint is zigzag plus 7-bit groups: Kafka's varint",
		"binary.PutVarint":       "encoding/binary's PutVarint is zigzag plus 7-bit groups: Kafka's varint",
	})
}
