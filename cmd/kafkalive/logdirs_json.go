package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/kafkalive/kafkalive/internal/kafkatools/dumplog"
	"github.com/kafkalive/kafkalive/vfs"
)

// printJSON prints the description as kafka-log-dirs.sh --describe prints
// its document (Kafka 3.7's LogDirsCommand.formatAsJson): version 1, one
// broker, one log dir, each partition's size, offsetLag and isFuture. The
// broker id comes from meta.properties (broker.id, or node.id in KRaft
// mode); offsetLag is 0, as for every replica that is not a future
// replica. The command builds each object as a java.util.HashMap, and
// Jackson writes a HashMap in its iteration order, so the keys and the
// partitions come in that order: "brokers" before "version",
// "partitions", "error", "logDir", and the partitions by the buckets of
// their TopicPartition.hashCode ([javaHashMapOrder]). Kafka prints two
// lines before it ("Querying brokers...", "Received log directory
// information..."); no broker is queried here, so they are left out.
func (d *logDirDesc) printJSON(w io.Writer) {
	parts := make([]string, len(d.partitions))
	keys := make([]int32, len(d.partitions))
	for i, p := range d.partitions {
		var j dumplog.JSONObject
		j.Str("partition", ptr(p.tp.String()))
		j.Num("size", p.size)
		j.Num("offsetLag", 0)
		j.Raw("isFuture", "false")
		parts[i] = j.String()
		keys[i] = 31*(31+p.tp.Partition) + javaStringHash(p.tp.Topic)
	}
	ordered := make([]string, 0, len(parts))
	for _, i := range javaHashMapOrder(keys) {
		ordered = append(ordered, parts[i])
	}
	var dir dumplog.JSONObject
	dir.Raw("partitions", "["+strings.Join(ordered, ",")+"]")
	dir.Raw("error", "null")
	dir.Str("logDir", ptr(d.dir))
	var broker dumplog.JSONObject
	broker.Num("broker", int64(d.brokerID))
	broker.Raw("logDirs", "["+dir.String()+"]")
	var top dumplog.JSONObject
	top.Raw("brokers", "["+broker.String()+"]")
	top.Num("version", 1)
	fmt.Fprintln(w, top.String())
}

// javaStringHash is Java's String.hashCode (for ASCII and BMP text).
func javaStringHash(s string) int32 {
	var h int32
	for _, r := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(r)
	}
	return h
}

// javaHashMapOrder returns the indexes of hashes in the order a
// java.util.HashMap filled with them in this order iterates: by bucket
// ((h ^ h>>>16) & (capacity-1), capacity 16 doubled while the size
// exceeds three quarters of it), then in insertion order within a bucket.
func javaHashMapOrder(hashes []int32) []int {
	capacity := 16
	for len(hashes) > capacity*3/4 {
		capacity *= 2
	}
	idx := make([]int, len(hashes))
	bucket := make([]int, len(hashes))
	for i, h := range hashes {
		u := uint32(h)
		idx[i], bucket[i] = i, int((u^u>>16)&uint32(capacity-1))
	}
	sort.SliceStable(idx, func(a, b int) bool { return bucket[idx[a]] < bucket[idx[b]] })
	return idx
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
