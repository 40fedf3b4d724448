package recovery

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/bank"
)

func TestRecovery(t *testing.T) {
	kafkalogkit.TestRecovery(t, kafkalogkit.Recovery{Recover: Recover}, bank.Recovery()...)
}
