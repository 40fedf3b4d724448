package kafkalog

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseControlRecordKey(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		want    ControlRecordKey
		wantErr error
		str     string
	}{
		{"ABORT", "0000 0000", ControlRecordKey{0, ControlAbort, 0}, nil, "ABORT"},
		{"COMMIT", "0000 0001", ControlRecordKey{0, ControlCommit, 1}, nil, "COMMIT"},
		{"LEADER_CHANGE", "0000 0002", ControlRecordKey{0, ControlLeaderChange, 2}, nil, "LEADER_CHANGE"},
		{"SNAPSHOT_HEADER", "0000 0003", ControlRecordKey{0, ControlSnapshotHeader, 3}, nil, "SNAPSHOT_HEADER"},
		{"SNAPSHOT_FOOTER", "0000 0004", ControlRecordKey{0, ControlSnapshotFooter, 4}, nil, "SNAPSHOT_FOOTER"},
		{"KRAFT_VERSION", "0000 0005", ControlRecordKey{0, ControlKRaftVersion, 5}, nil, "KRAFT_VERSION"},
		{"KRAFT_VOTERS", "0000 0006", ControlRecordKey{0, ControlKRaftVoters, 6}, nil, "KRAFT_VOTERS"},
		{"unknown type 7 is ignored, not an error", "0000 0007", ControlRecordKey{0, ControlUnknown, 7}, nil, "UNKNOWN"},
		{"negative type id", "0000 fffb", ControlRecordKey{0, ControlUnknown, -5}, nil, "UNKNOWN"},
		{"higher version read as 0", "0001 0001 ffff", ControlRecordKey{1, ControlCommit, 1}, nil, "COMMIT"},
		{"negative version", "ffff 0001", ControlRecordKey{}, ErrInvalidRecord, ""},
		{"3 bytes", "0000 00", ControlRecordKey{}, ErrInvalidRecord, ""},
		{"null key", "", ControlRecordKey{}, ErrInvalidRecord, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseControlRecordKey(mustHex(t, tc.key))
			if !errors.Is(err, tc.wantErr) || (err != nil) != (tc.wantErr != nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if err == nil && got.Type.String() != tc.str {
				t.Errorf("String() = %q, want %q", got.Type.String(), tc.str)
			}
		})
	}
}

func TestControlRecordKeyRoundTrip(t *testing.T) {
	for typ := ControlAbort; typ <= ControlKRaftVoters; typ++ {
		got, err := ParseControlRecordKey(AppendControlRecordKey(nil, typ))
		if err != nil || got.Type != typ {
			t.Errorf("type %v: parsed %v, %v", typ, got.Type, err)
		}
		if typ.IsTxnMarker() != (typ == ControlAbort || typ == ControlCommit) {
			t.Errorf("%v.IsTxnMarker() = %v", typ, typ.IsTxnMarker())
		}
	}
}

func TestParseEndTxnMarker(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		want    EndTxnMarker
		wantErr error
	}{
		{"G3's marker, coordinator epoch 15", "0000 0000000f", EndTxnMarker{0, 15}, nil},
		{"negative coordinator epoch", "0000 ffffffff", EndTxnMarker{0, -1}, nil},
		{"trailing bytes ignored", "0000 00000001 ff", EndTxnMarker{0, 1}, nil},
		{"negative version", "8000 00000001", EndTxnMarker{}, ErrInvalidRecord},
		{"5 bytes", "0000 000000", EndTxnMarker{}, ErrInvalidRecord},
		{"null value", "", EndTxnMarker{}, ErrInvalidRecord},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseEndTxnMarker(mustHex(t, tc.value))
			if !errors.Is(err, tc.wantErr) || (err != nil) != (tc.wantErr != nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if diff := cmp.Diff(mustHex(t, "0000 0000000f"), EndTxnMarker{CoordinatorEpoch: 15}.AppendTo(nil)); diff != "" {
		t.Errorf("AppendTo (-want +got):\n%s", diff)
	}
}
