package recovery

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
)

func TestRecovery(t *testing.T) {
	kafkalogkit.TestRecovery(t, kafkalogkit.Recovery{Recover: Recover})
}
