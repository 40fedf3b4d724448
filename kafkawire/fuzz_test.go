package kafkawire_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
)

var update = flag.Bool("update", false, "rewrite the fuzz seed corpus in testdata/fuzz")

// seedFrames are valid request frames (without the size prefix) of every
// served key at its lowest and highest version, and a few broken ones.
func seedFrames() map[string][]byte {
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID("seed"))
	out := map[string][]byte{}
	for _, a := range kafkawire.DefaultAPIVersions() {
		for _, v := range []int16{a.MinVersion, a.MaxVersion} {
			req := kmsg.RequestForKey(a.Key)
			if d, ok := req.(interface{ Default() }); ok {
				d.Default()
			}
			req.SetVersion(v)
			switch r := req.(type) {
			case *kmsg.ProduceRequest:
				r.Topics = []kmsg.ProduceRequestTopic{{Topic: "t", Partitions: []kmsg.ProduceRequestTopicPartition{{Records: batch("v")}}}}
			case *kmsg.MetadataRequest:
				r.Topics = []kmsg.MetadataRequestTopic{{Topic: kmsg.StringPtr("t")}}
			case *kmsg.FetchRequest:
				r.Topics = []kmsg.FetchRequestTopic{{Topic: "t", Partitions: []kmsg.FetchRequestTopicPartition{{PartitionMaxBytes: 100}}}}
			}
			out[fmt.Sprintf("%s-v%d", kmsg.NameForKey(a.Key), v)] = f.AppendRequest(nil, req, 7)[4:]
		}
	}
	out["ApiVersions-v4-unsupported"] = append(header(18, 4, 9, str16("c"), []byte{0}), 0)
	out["empty"] = nil
	out["short-header"] = []byte{0, 3, 0}
	out["tag-past-end"] = header(3, 9, 1, str16("c"), []byte{1, 0, 100})
	return out
}

// FuzzDecode: any bytes decode to a request of a served key and version, or to
// one of the sentinel errors, never a panic; a decoded request re-encodes to
// bytes that decode to the same bytes again.
func FuzzDecode(f *testing.F) {
	versions, err := kafkawire.NewVersions(kafkawire.DefaultAPIVersions())
	if err != nil {
		f.Fatal(err)
	}
	if *update {
		dir := filepath.Join("testdata", "fuzz", "FuzzDecode")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			f.Fatal(err)
		}
		for name, b := range seedFrames() {
			data := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		h, req, err := versions.Decode(frame)
		if err != nil {
			if req != nil {
				t.Fatalf("an error (%v) and a request", err)
			}
			return
		}
		if !versions.Supports(h.APIKey, h.APIVersion) || req.Key() != h.APIKey || req.GetVersion() != h.APIVersion {
			t.Fatalf("decoded %s v%d from header %+v", kmsg.NameForKey(req.Key()), req.GetVersion(), h)
		}
		if h.Size > len(frame) {
			t.Fatalf("header of %d bytes in a frame of %d", h.Size, len(frame))
		}
		enc := req.AppendTo(nil)
		again := kmsg.RequestForKey(h.APIKey)
		again.SetVersion(h.APIVersion)
		if err := again.ReadFrom(enc); err != nil {
			t.Fatalf("re-encoded %s v%d does not decode: %v", kmsg.NameForKey(h.APIKey), h.APIVersion, err)
		}
		if enc2 := again.AppendTo(nil); !bytes.Equal(enc, enc2) {
			t.Fatalf("%s v%d: re-encoding changed\n%x\n%x", kmsg.NameForKey(h.APIKey), h.APIVersion, enc, enc2)
		}
	})
}
