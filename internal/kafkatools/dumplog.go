package kafkatools

import (
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools/dumplog"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// DumpLog is kafka-dump-log.sh on one broker's files ([dumplog.Dump]):
// --broker N, or the leader of the partition whose directory the first
// file is in. A file at the log directory's root
// (replication-offset-checkpoint, recovery-point-offset-checkpoint)
// belongs to no partition, so without --broker it is read on the first
// running broker (broker 1 when none runs); one the broker has not
// written says so, and which files its directory holds.
func DumpLog(s Session, args []string, out io.Writer) error {
	fl, _ := Flags(args)
	files := strings.Split(fl["files"], ",")
	if fl["files"] == "" || slices.ContainsFunc(files, func(f string) bool { return path.Dir(path.Clean(f)) != cluster.LogDir }) {
		return dumpLog(s, args, out)
	}
	_, named := fl["broker"]
	err := s.Look(func(w *cluster.World) error {
		id := int32(1)
		if named {
			var err error
			if id, err = ParseBroker(fl["broker"]); err != nil {
				return err
			}
		} else {
			for _, b := range w.Brokers() {
				if b.State == "running" {
					id = b.ID
					break
				}
			}
		}
		fsys, err := w.BrokerFS(id)
		if err != nil {
			return err
		}
		for _, f := range files {
			if _, err := fsys.Stat(path.Clean(f)); err == nil {
				continue
			}
			names, _ := fsys.List(cluster.LogDir)
			why := ""
			if path.Base(f) == kafkalog.RecoveryPointCheckpointFile {
				why = " (a broker writes it 30 s after it starts and then every log.flush.offset.checkpoint.interval.ms, 60 s, after a truncation, and at a clean shutdown: stop " + strconv.Itoa(int(id)) + " writes it now)"
			}
			return fmt.Errorf("broker %d has no %s%s; %s holds: %s", id, f, why, cluster.LogDir, strings.Join(names, ", "))
		}
		if !named {
			args = append(slices.Clone(args), "--broker", strconv.Itoa(int(id)))
		}
		return nil
	})
	if err != nil {
		return err
	}
	return dumpLog(s, args, out)
}

// dumpLog is kafka-dump-log.sh on one broker's files: --broker N, or the
// leader of the partition whose directory the first file is in.
func dumpLog(s Session, args []string, out io.Writer) error {
	fl, _ := Flags(args)
	if fl["files"] == "" {
		return ErrUsage
	}
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--broker":
			i++
		case strings.HasPrefix(a, "--broker="):
		default:
			rest = append(rest, a)
		}
	}
	opts, _, ok := dumplog.ParseFlags(rest, out)
	if !ok {
		return ErrUsage
	}
	return s.Look(func(w *cluster.World) error {
		id, err := dumpBroker(w, fl)
		if err != nil {
			return err
		}
		fsys, err := w.BrokerFS(id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "(broker %d)\n", id)
		if dumplog.Dump(fsys, opts, out, out) != 0 {
			if f := outsideLogDir(fl["files"]); f != "" {
				fmt.Fprintf(out, "%s is not under %s: the terminal reads the simulated brokers' files (%s/T-P/...); a real Kafka data directory is read where it is, with go run ./cmd/kafkalive dump-log --files %s\n", f, cluster.LogDir, cluster.LogDir, f)
			}
			return errDumpFailed
		}
		return nil
	})
}

// outsideLogDir returns the first of kafka-dump-log's --files that is not
// under the brokers' log directory ("" if none is): a path of the user's
// own machine, which the simulated brokers do not have (and which a world
// in a browser tab could not read).
func outsideLogDir(files string) string {
	for _, f := range strings.Split(files, ",") {
		if !strings.HasPrefix(path.Clean(f), cluster.LogDir+"/") {
			return f
		}
	}
	return ""
}

// errDumpFailed means kafka-dump-log found a file torn, corrupt or
// failing a check (it printed why).
var errDumpFailed = errors.New("kafka-dump-log: a file failed its checks")

// dumpBroker is --broker, or the leader of the partition of the first
// file's directory (/kafka-logs/T-P/...).
func dumpBroker(w *cluster.World, fl map[string]string) (int32, error) {
	if b, ok := fl["broker"]; ok {
		return ParseBroker(b)
	}
	dir := path.Base(path.Dir(strings.Split(fl["files"], ",")[0]))
	if i := strings.LastIndexByte(dir, '-'); i > 0 {
		if p, err := strconv.ParseInt(dir[i+1:], 10, 32); err == nil {
			if l := w.PartitionLeader(dir[:i], int32(p)); l > 0 {
				return l, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: --broker N (no leader known for %s)", ErrUsage, dir)
}
