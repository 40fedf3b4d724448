package kafkalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/kafkalive/kafkalive/vfs"
)

// CleanShutdownFile is the marker a broker writes in the root of each log dir at
// the end of a clean shutdown (CleanShutdownFileHandler.java). On startup Kafka
// reads it, deletes it at once, and skips segment recovery if it was there.
const CleanShutdownFile = ".kafka_cleanshutdown"

// CleanShutdownMarker is what ReadCleanShutdownMarker found.
type CleanShutdownMarker struct {
	// Present reports that the marker exists: the last shutdown was clean.
	Present bool
	// BrokerEpoch is the epoch recorded in the marker (Kafka 3.7+, KIP-966);
	// valid only if HasBrokerEpoch. Older brokers wrote an empty file.
	BrokerEpoch int64
	// HasBrokerEpoch reports whether the marker held a readable broker epoch.
	HasBrokerEpoch bool
}

// DecodeCleanShutdown parses the marker's content, {"version":0,"brokerEpoch":N}.
// Unknown fields are ignored; an empty or unreadable content has no epoch (Kafka
// logs it and carries on: the marker still counts as present).
func DecodeCleanShutdown(b []byte) (brokerEpoch int64, ok bool) {
	var c struct {
		Version     *int            `json:"version"`
		BrokerEpoch json.RawMessage `json:"brokerEpoch"`
	}
	if json.Unmarshal(b, &c) != nil || len(c.BrokerEpoch) == 0 {
		return 0, false
	}
	epoch, err := strconv.ParseInt(string(c.BrokerEpoch), 10, 64)
	if err != nil {
		return 0, false
	}
	return epoch, true
}

// AppendCleanShutdown appends the marker content for brokerEpoch.
func AppendCleanShutdown(dst []byte, brokerEpoch int64) []byte {
	dst = append(dst, `{"version":0,"brokerEpoch":`...)
	dst = strconv.AppendInt(dst, brokerEpoch, 10)
	return append(dst, '}')
}

// ReadCleanShutdownMarker looks for the marker in the log dir dir.
func ReadCleanShutdownMarker(fsys vfs.FS, dir string) (CleanShutdownMarker, error) {
	b, err := readWholeFile(fsys, fsys.PathJoin(dir, CleanShutdownFile))
	if errors.Is(err, fs.ErrNotExist) {
		return CleanShutdownMarker{}, nil
	}
	if err != nil {
		return CleanShutdownMarker{}, err
	}
	epoch, ok := DecodeCleanShutdown(b)
	return CleanShutdownMarker{Present: true, BrokerEpoch: epoch, HasBrokerEpoch: ok}, nil
}

// WriteCleanShutdownMarker writes the marker into the log dir dir, durably. A
// negative brokerEpoch writes the empty file of brokers before Kafka 3.7.
func WriteCleanShutdownMarker(fsys vfs.FS, dir string, brokerEpoch int64) error {
	var content []byte
	if brokerEpoch >= 0 {
		content = AppendCleanShutdown(nil, brokerEpoch)
	}
	return WriteFileAtomic(fsys, fsys.PathJoin(dir, CleanShutdownFile), content)
}

// RemoveCleanShutdownMarker deletes the marker durably, as Kafka does right after
// reading it at startup (so that a crash while loading counts as unclean). A
// missing marker is not an error.
func RemoveCleanShutdownMarker(fsys vfs.FS, dir string) error {
	err := fsys.Remove(fsys.PathJoin(dir, CleanShutdownFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("kafkalog: remove clean shutdown marker in %s: %w", dir, err)
	}
	if err := fsys.SyncDir(dir); err != nil {
		return fmt.Errorf("kafkalog: remove clean shutdown marker in %s: %w", dir, err)
	}
	return nil
}
