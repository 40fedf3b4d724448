package replica

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

func entriesOf(epochs ...int32) []Entry {
	out := make([]Entry, len(epochs))
	for i, e := range epochs {
		out[i] = Entry{Offset: int64(i), LeaderEpoch: e, Value: []byte{byte('a' + i)}}
	}
	return out
}

func TestMemLogKeepsEpochCacheWithTheLog(t *testing.T) {
	tests := []struct {
		name string
		ops  func(l *MemLog) error
		leo  int64
		want []EpochEntry
	}{
		{"appends add an entry per newer epoch", func(l *MemLog) error {
			return l.AppendAsFollower(entriesOf(0, 0, 2, 2, 5))
		}, 5, []EpochEntry{{0, 0}, {2, 2}, {5, 4}}},
		{"0.11 to 2.0: an older epoch after a newer one adds nothing (KIP-279 divergence)", func(l *MemLog) error {
			l.OnlyNewerEpochs = true
			return l.AppendAsFollower(entriesOf(0, 2, 1))
		}, 3, []EpochEntry{{0, 0}, {2, 1}}},
		{"2.1+: an older epoch after a newer one removes the entries it contradicts", func(l *MemLog) error {
			return l.AppendAsFollower(entriesOf(0, 2, 1))
		}, 3, []EpochEntry{{0, 0}, {1, 2}}},
		{"0.10 records carry no epoch", func(l *MemLog) error {
			_, err := l.AppendAsLeader([]Record{{Value: []byte("x")}}, NoEpoch)
			return err
		}, 1, nil},
		{"truncation trims entries at or past the new end", func(l *MemLog) error {
			if err := l.AppendAsFollower(entriesOf(0, 0, 2, 2, 5)); err != nil {
				return err
			}
			return l.TruncateTo(2)
		}, 2, []EpochEntry{{0, 0}}},
		{"truncation at the LEO drops an epoch cached without records", func(l *MemLog) error {
			if err := l.AppendAsFollower(entriesOf(0, 0)); err != nil {
				return err
			}
			if err := l.AssignEpoch(3, 2); err != nil {
				return err
			}
			return l.TruncateTo(2)
		}, 2, []EpochEntry{{0, 0}}},
		{"a power cut keeps the flushed prefix", func(l *MemLog) error {
			if err := l.AppendAsFollower(entriesOf(0, 1)); err != nil {
				return err
			}
			l.Flush()
			if err := l.AppendAsFollower([]Entry{{Offset: 2, LeaderEpoch: 2}}); err != nil {
				return err
			}
			l.PowerCut()
			return nil
		}, 2, []EpochEntry{{0, 0}, {1, 1}}},
		{"start over at an offset", func(l *MemLog) error {
			if err := l.AppendAsFollower(entriesOf(0, 1)); err != nil {
				return err
			}
			return l.TruncateFullyAndStartAt(7)
		}, 7, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewMemLog()
			must(t, tt.ops(l))
			if got := l.LogEndOffset(); got != tt.leo {
				t.Errorf("LEO = %d, want %d", got, tt.leo)
			}
			if diff := cmp.Diff(tt.want, l.Epochs(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("epoch cache (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMemLogRefusesBadOffsets(t *testing.T) {
	l := NewMemLog()
	must(t, l.AppendAsFollower(entriesOf(0, 0)))
	if err := l.AppendAsFollower([]Entry{{Offset: 5}}); err == nil {
		t.Errorf("appending offset 5 at LEO 2 succeeded")
	}
	if _, err := l.Read(3, 100); err == nil {
		t.Errorf("reading at 3 past LEO 2 succeeded")
	}
	if got, err := l.Read(2, 100); err != nil || len(got) != 0 {
		t.Errorf("reading at the LEO = %v, %v; want nothing and no error", got, err)
	}
	if got, _ := l.Read(0, 1); len(got) != 1 {
		t.Errorf("a read smaller than one record returned %d records, want 1", len(got))
	}
	must(t, l.TruncateFullyAndStartAt(4))
	if err := l.TruncateTo(3); err == nil {
		t.Errorf("truncating to 3 below log start 4 succeeded")
	}
}

// The epoch cache always equals the one derived from the records: an entry
// at each record whose epoch is newer than every earlier record's. Under
// 0.11 to 2.0's rule (OnlyNewerEpochs) the leader's epoch may also go back;
// under 2.1's, which assigns every epoch and lets an older one cut the
// cache, it only goes forward, as a leader's does.
func TestMemLogEpochCacheMatchesRecords(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := &MemLog{OnlyNewerEpochs: rapid.Bool().Draw(t, "0.11 to 2.0")}
		back := int32(0)
		if l.OnlyNewerEpochs {
			back = -1
		}
		epoch := int32(0)
		for range rapid.IntRange(1, 40).Draw(t, "steps") {
			if rapid.Bool().Draw(t, "truncate") {
				to := rapid.Int64Range(0, l.LogEndOffset()).Draw(t, "truncation point")
				if err := l.TruncateTo(to); err != nil {
					t.Fatalf("truncate to %d: %v", to, err)
				}
				continue
			}
			epoch = max(0, epoch+rapid.Int32Range(back, 2).Draw(t, "epoch step"))
			if _, err := l.AppendAsLeader([]Record{{Value: []byte("r")}}, epoch); err != nil {
				t.Fatalf("append in epoch %d: %v", epoch, err)
			}
		}
		var want []EpochEntry
		for _, e := range l.Entries() {
			if len(want) == 0 || e.LeaderEpoch > want[len(want)-1].Epoch {
				want = append(want, EpochEntry{e.LeaderEpoch, e.Offset})
			}
		}
		if diff := cmp.Diff(want, l.Epochs(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("epoch cache does not match the records' epochs (-want +got):\n%s", diff)
		}
	})
}
