package shortcut

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("batch.go", `package batch

import (
	kl "github.com/kafkalive/kafkalive/kafkalog"
	"encoding/binary"
)

func AppendBatch(dst []byte, b *kl.RecordBatch) []byte {
	dst = kl.AppendVarint(dst, 1)           // allowed
	dst = binary.BigEndian.AppendUint32(dst, 2) // allowed
	return b.AppendTo(dst)                  // refused
}

func varint(dst []byte, v int32) []byte { return binary.AppendVarint(dst, int64(v)) }
`)
	write("batch_test.go", `package batch

func helper(b *kl.RecordBatch) []byte { return b.AppendTo(nil) }
`)
	refused := map[string]string{
		".AppendTo":           "the library's batch encoder",
		"binary.AppendVarint": "encoding/binary's zigzag varint is Kafka's varint",
	}
	got := Find(dir, refused)
	want := []Finding{
		{Pos: "batch.go:11", Name: "b.AppendTo", Why: "the library's batch encoder"},
		{Pos: "batch.go:14", Name: "binary.AppendVarint", Why: "encoding/binary's zigzag varint is Kafka's varint"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Find (-want +got):\n%s", diff)
	}
}
