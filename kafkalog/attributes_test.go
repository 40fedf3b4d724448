package kafkalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAttributes checks the bit layout of the attributes (Kafka's masks, bits
// numbered from 0) and the names kafka-dump-log prints.
func TestAttributes(t *testing.T) {
	type view struct {
		Compression      Compression
		TimestampType    TimestampType
		Transactional    bool
		Control, Horizon bool
		String           string
	}
	see := func(a Attributes) view {
		return view{a.Compression(), a.TimestampType(), a.IsTransactional(), a.IsControl(), a.HasDeleteHorizon(), a.String()}
	}
	tests := []struct {
		name string
		a    Attributes
		want view
	}{
		{"zero", 0, view{CompressionNone, CreateTime, false, false, false, "none|CreateTime"}},
		{"kafkajs gzip + LogAppendTime 0x0009", 0x0009, view{CompressionGzip, LogAppendTime, false, false, false, "gzip|LogAppendTime"}},
		{"commit marker 0x0030", 0x0030, view{CompressionNone, CreateTime, true, true, false, "none|CreateTime|transactional|control"}},
		{"KRaft leader change 0x0020", 0x0020, view{CompressionNone, CreateTime, false, true, false, "none|CreateTime|control"}},
		{"zstd with delete horizon 0x0044", 0x0044, view{CompressionZstd, CreateTime, false, false, true, "zstd|CreateTime|deleteHorizon"}},
		{"codec 7 is unknown", 0x0007, view{Compression(7), CreateTime, false, false, false, "unknown(7)|CreateTime"}},
		{"NewAttributes", NewAttributes(CompressionLZ4, LogAppendTime, true, false), view{CompressionLZ4, LogAppendTime, true, false, false, "lz4|LogAppendTime|transactional"}},
		{"With* replace fields", Attributes(0x0031).WithCompression(CompressionSnappy).WithTimestampType(LogAppendTime).WithDeleteHorizon(),
			view{CompressionSnappy, LogAppendTime, true, true, true, "snappy|LogAppendTime|transactional|control|deleteHorizon"}},
		{"back to CreateTime", Attributes(0x0008).WithTimestampType(CreateTime), view{CompressionNone, CreateTime, false, false, false, "none|CreateTime"}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, see(tc.a)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if got := NoTimestampType.String(); got != "NoTimestampType" {
		t.Errorf("NoTimestampType.String() = %q", got)
	}
}
