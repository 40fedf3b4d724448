package kafkalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/vfs"
)

// TestLeaderEpochCacheDataDriven runs the scenarios in testdata/epochcache. Commands:
//
//	cache                          a new, empty cache persisted to t-0/leader-epoch-checkpoint
//	assign epoch=E start=O         Assign; prints the entries
//	truncate-end offset=O          TruncateFromEnd; prints the entries
//	truncate-start offset=O        TruncateFromStart; prints the entries
//	end-offset-for epoch=E leo=O   EndOffsetFor (KIP-279) and the KIP-101 answer
//	epoch-for-offset offset=O      EpochForOffset
//	file                           the checkpoint file's text
//	reopen                         a new cache from the file; prints the entries
func TestLeaderEpochCacheDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata/epochcache", func(t *testing.T, path string) {
		var fsys *vfs.MemFS
		var c *LeaderEpochCache
		const file = "t-0/" + LeaderEpochCheckpointFile
		open := func() {
			var err error
			c, err = OpenLeaderEpochCache(fsys, file)
			require.NoError(t, err)
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			arg := func(name string) int64 {
				var v int64
				d.ScanArgs(t, name, &v)
				return v
			}
			var err error
			switch d.Cmd {
			case "cache":
				fsys = vfs.NewMem()
				require.NoError(t, fsys.MkdirAll("t-0", 0o755))
				open()
				return "ok\n"
			case "assign":
				err = c.Assign(int32(arg("epoch")), arg("start"))
			case "truncate-end":
				err = c.TruncateFromEnd(arg("offset"))
			case "truncate-start":
				err = c.TruncateFromStart(arg("offset"))
			case "reopen":
				open()
			case "end-offset-for":
				e, o := c.EndOffsetFor(int32(arg("epoch")), arg("leo"))
				return fmt.Sprintf("epoch %d ends at %d (Kafka 0.11-1.1 answer: %d)\n", e, o, c.EndOffsetForKIP101(int32(arg("epoch")), arg("leo")))
			case "epoch-for-offset":
				if e, ok := c.EpochForOffset(arg("offset")); ok {
					return fmt.Sprintf("epoch %d\n", e)
				}
				return "none\n"
			case "file":
				b, err := readWholeFile(fsys, file)
				if err != nil {
					return err.Error() + "\n"
				}
				return string(b)
			default:
				t.Fatalf("unknown command %q", d.Cmd)
			}
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return formatEpochs(c.Entries())
		})
	})
}

func formatEpochs(es []EpochEntry) string {
	if len(es) == 0 {
		return "(empty)\n"
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprintf("epoch %d from %d", e.Epoch, e.StartOffset)
	}
	return strings.Join(parts, ", ") + "\n"
}
