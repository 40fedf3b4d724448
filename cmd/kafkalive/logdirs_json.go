package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/internal/dumplog"
	"github.com/kafkalive/kafkalive/vfs"
)

// printLogDirsJSON prints the description in the shape of kafka-log-dirs.sh
// --describe (LogDirsCommand): one broker, one log dir, each partition's size.
// The broker id comes from meta.properties (broker.id, or node.id in KRaft
// mode); offsetLag is 0, as for every replica that is not a future replica.
func (d *logDirDesc) printJSON(w io.Writer) {
	var parts []string
	for _, p := range d.partitions {
		var j dumplog.JSONObject
		j.Str("partition", ptr(p.tp.String()))
		j.Num("size", p.size)
		j.Num("offsetLag", 0)
		j.Raw("isFuture", "false")
		parts = append(parts, j.String())
	}
	var dir dumplog.JSONObject
	dir.Str("logDir", ptr(d.dir))
	dir.Raw("error", "null")
	dir.Raw("partitions", "["+strings.Join(parts, ",")+"]")
	var broker dumplog.JSONObject
	broker.Num("broker", int64(d.brokerID))
	broker.Raw("logDirs", "["+dir.String()+"]")
	var top dumplog.JSONObject
	top.Num("version", 1)
	top.Raw("brokers", "["+broker.String()+"]")
	fmt.Fprintln(w, top.String())
}

func ptr(s string) *string { return &s }

// readBrokerID reads broker.id (ZooKeeper mode) or node.id (KRaft) from the
// log dir's meta.properties; -1 if there is none.
func readBrokerID(fsys vfs.FS, dir string) int32 {
	f, err := fsys.Open(fsys.PathJoin(dir, "meta.properties"))
	if err != nil {
		return -1
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil || size > 1<<20 {
		return -1
	}
	b := make([]byte, size)
	if vfs.ReadAtFull(f, b, 0) != nil {
		return -1
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok || (k != "broker.id" && k != "node.id") {
			continue
		}
		if id, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32); err == nil {
			return int32(id)
		}
	}
	return -1
}
