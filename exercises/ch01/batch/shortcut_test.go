package batch

import (
	"testing"

	"github.com/kafkalive/kafkalive/exercises/internal/shortcut"
)

// TestBatchIsYourOwn fails if the code above calls the library's own answer to this exercise.
func TestBatchIsYourOwn(t *testing.T) {
	shortcut.Refuse(t, map[string]string{
		".AppendTo":     "(*kafkalog.RecordBatch).AppendTo is the batch encoder this exercise asks you to write",
		".AppendRecord": "(*kafkalog.RecordBatch).AppendRecord builds a batch with the library's encoder",
		".EncodedLen":   "(*kafkalog.RecordBatch).EncodedLen computes the length field for you",
	})
}
