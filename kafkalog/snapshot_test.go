package kafkalog

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/vfs"
)

var emptySnapshot = []byte{0x00, 0x01, 0x48, 0x67, 0x4b, 0xc7, 0x00, 0x00, 0x00, 0x00}

func TestProducerSnapshotKnownAnswers(t *testing.T) {
	t.Run("K1 empty snapshot", func(t *testing.T) {
		got, err := ReadProducerSnapshot(emptySnapshot)
		require.NoError(t, err)
		require.Empty(t, got)
		require.Equal(t, emptySnapshot, AppendProducerSnapshot(nil, nil))
	})
	t.Run("K2 myTopic-0 three idempotent producers", func(t *testing.T) {
		b, err := os.ReadFile(realFile(t, "donaldy-kafka-2.7.1/myTopic-0/00000000000000000038.snapshot"))
		require.NoError(t, err)
		require.Len(t, b, 148)
		require.Equal(t, uint32(0x1A3A695A), uint32(b[2])<<24|uint32(b[3])<<16|uint32(b[4])<<8|uint32(b[5]))
		got, err := ReadProducerSnapshot(b)
		require.NoError(t, err)
		want := []ProducerSnapshotEntry{
			{ProducerID: 4001, ProducerEpoch: 0, LastSequence: 11, LastOffset: 11, OffsetDelta: 2, Timestamp: 1670068129797, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1},
			{ProducerID: 4002, ProducerEpoch: 0, LastSequence: 11, LastOffset: 23, OffsetDelta: 11, Timestamp: 1670068739452, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1},
			{ProducerID: 4003, ProducerEpoch: 0, LastSequence: 13, LastOffset: 37, OffsetDelta: 13, Timestamp: 1670071262224, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		require.Equal(t, b, AppendProducerSnapshot(nil, got), "re-encoding gives Kafka's bytes")
		require.Equal(t, int32(9), got[0].FirstSequence())
	})
	t.Run("K3 a flipped byte fails the CRC", func(t *testing.T) {
		b := AppendProducerSnapshot(nil, []ProducerSnapshotEntry{{ProducerID: 7, LastSequence: 3, LastOffset: 9, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1}})
		for i := 6; i < len(b); i++ {
			c := append([]byte(nil), b...)
			c[i] ^= 0x10
			if _, err := ReadProducerSnapshot(c); !errors.Is(err, ErrCorruptSnapshot) {
				t.Fatalf("flipping byte %d gave %v, want ErrCorruptSnapshot", i, err)
			}
		}
	})
	t.Run("K4 unknown versions", func(t *testing.T) {
		for _, v := range []byte{0, 2} {
			c := append([]byte(nil), emptySnapshot...)
			c[1] = v
			if _, err := ReadProducerSnapshot(c); !errors.Is(err, ErrCorruptSnapshot) {
				t.Errorf("version %d gave %v, want ErrCorruptSnapshot", v, err)
			}
		}
	})
	t.Run("count and length disagree", func(t *testing.T) {
		b := AppendProducerSnapshot(nil, []ProducerSnapshotEntry{{ProducerID: 1}})
		for _, cut := range [][]byte{b[:9], b[:len(b)-1], append(b[:len(b):len(b)], 0)} {
			if _, err := ReadProducerSnapshot(cut); !errors.Is(err, ErrCorruptSnapshot) {
				t.Errorf("%d bytes gave %v, want ErrCorruptSnapshot", len(cut), err)
			}
		}
	})
}

func TestProducerSnapshotRealEmptyFiles(t *testing.T) {
	for _, f := range []string{
		"volodymyrzee-kafka/__consumer_offsets-12/00000000000000000470.snapshot",
		"niloufar-ldi-poc-kraft/__consumer_offsets-6/00000000000000000013.snapshot",
		"donaldy-kafka-2.7.1/__consumer_offsets-39/00000000000000000018.snapshot",
	} {
		t.Run(f, func(t *testing.T) {
			b, err := os.ReadFile(realFile(t, f))
			require.NoError(t, err)
			got, err := ReadProducerSnapshot(b)
			require.NoError(t, err)
			require.Empty(t, got)
		})
	}
}

func TestProducerSnapshotFileRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		entries := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) ProducerSnapshotEntry {
			return ProducerSnapshotEntry{
				ProducerID: rapid.Int64().Draw(t, "producerId"), ProducerEpoch: rapid.Int16().Draw(t, "producerEpoch"),
				LastSequence: rapid.Int32().Draw(t, "lastSequence"), LastOffset: rapid.Int64().Draw(t, "lastOffset"),
				OffsetDelta: rapid.Int32().Draw(t, "offsetDelta"), Timestamp: rapid.Int64().Draw(t, "timestamp"),
				CoordinatorEpoch: rapid.Int32().Draw(t, "coordinatorEpoch"), CurrentTxnFirstOffset: rapid.Int64().Draw(t, "currentTxnFirstOffset"),
			}
		}), 0, 20).Draw(rt, "entries")
		fsys := vfs.NewMem()
		name := SegmentFileName(5, SnapshotSuffix)
		require.NoError(rt, WriteProducerSnapshotFile(fsys, name, entries, true))
		got, err := ReadProducerSnapshotFile(fsys, name)
		require.NoError(rt, err)
		if len(entries) == 0 {
			entries = []ProducerSnapshotEntry{}
		}
		if diff := cmp.Diff(entries, got); diff != "" {
			rt.Fatalf("a snapshot of %d producers did not read back (-want +got):\n%s", len(entries), diff)
		}
	})
}

func FuzzReadProducerSnapshot(f *testing.F) {
	f.Add(emptySnapshot)
	f.Add(AppendProducerSnapshot(nil, []ProducerSnapshotEntry{{ProducerID: 4001, LastSequence: 11, LastOffset: 11, OffsetDelta: 2, Timestamp: 1670068129797, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1}}))
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := ReadProducerSnapshot(b)
		if err != nil {
			if !errors.Is(err, ErrCorruptSnapshot) {
				t.Fatalf("error %v does not wrap ErrCorruptSnapshot", err)
			}
			return
		}
		if !cmp.Equal(b, AppendProducerSnapshot(nil, entries)) {
			t.Fatalf("a valid snapshot of %d bytes did not re-encode to itself", len(b))
		}
	})
}

func ExampleReadProducerSnapshot() {
	b := AppendProducerSnapshot(nil, []ProducerSnapshotEntry{{
		ProducerID: 4001, LastSequence: 11, LastOffset: 11, OffsetDelta: 2,
		Timestamp: 1670068129797, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1,
	}})
	entries, err := ReadProducerSnapshot(b)
	fmt.Println(len(b), err, entries[0].ProducerID, entries[0].FirstSequence())
	fmt.Printf("% x\n", AppendProducerSnapshot(nil, nil))
	// Output:
	// 56 <nil> 4001 9
	// 00 01 48 67 4b c7 00 00 00 00
}
