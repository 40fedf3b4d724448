package recovery

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogtest"
)

func TestRecovery(t *testing.T) {
	kafkalogtest.TestRecovery(t, kafkalogtest.Recovery{Recover: Recover})
}
