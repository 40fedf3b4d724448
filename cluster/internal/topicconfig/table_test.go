package topicconfig

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// The table is sorted (Lookup searches it), and each key's broker default
// (its first synonym's, where Kafka gives one) is the value the key has on
// brokers that set nothing: the two columns of a row cannot disagree.
func TestTableIsConsistent(t *testing.T) {
	if !slices.IsSortedFunc(keys, func(a, b Key) int { return strings.Compare(a.Name, b.Name) }) {
		t.Fatal("the table is not sorted by name")
	}
	def := KafkaDefaults()
	for i := range keys {
		k := &keys[i]
		if got, ok := Lookup(k.Name); !ok || got != k {
			t.Errorf("Lookup(%q) does not find its row", k.Name)
		}
		if len(k.Synonyms) == 0 {
			t.Errorf("%s has no broker synonym", k.Name)
			continue
		}
		if d := k.Synonyms[0].Default; d != "" && d != k.Get(&def) {
			t.Errorf("%s: its broker config %s defaults to %s, but the key's Kafka default is %s", k.Name, k.Synonyms[0].Name, d, k.Get(&def))
		}
		// what Get prints, Set takes back
		s := def
		if err := k.Set(&s, k.Get(&def)); err != nil {
			t.Errorf("%s: Set(Get) of the default: %v", k.Name, err)
		}
		if s != def {
			t.Errorf("%s: Set(Get) of the default changed the settings", k.Name)
		}
	}
	if _, ok := Lookup("no.such.config"); ok {
		t.Error("Lookup found a config the table does not have")
	}
}

// Set refuses what Kafka 3.7's LogConfig refuses, with ConfigDef's words.
func TestSetRefusesAsKafka(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{"retention.ms", "-2", "Invalid value -2 for configuration retention.ms: Value must be at least -1"},
		{"retention.ms", "x", "Invalid value x for configuration retention.ms: Not a number of type LONG"},
		{"segment.bytes", "13", "Invalid value 13 for configuration segment.bytes: Value must be at least 14"},
		{"segment.bytes", "2147483648", "Invalid value 2147483648 for configuration segment.bytes: Not a number of type INT"},
		{"min.insync.replicas", "0", "Invalid value 0 for configuration min.insync.replicas: Value must be at least 1"},
		{"cleanup.policy", "compact,gone", "Invalid value gone for configuration cleanup.policy: String must be one of: compact, delete"},
		{"min.cleanable.dirty.ratio", "2", "Invalid value 2.0 for configuration min.cleanable.dirty.ratio: Value must be no more than 1"},
		{"preallocate", "yes", "Invalid value yes for configuration preallocate: Expected value to be either true or false"},
		{"message.timestamp.type", "Now", "Invalid value Now for configuration message.timestamp.type: String must be one of: CreateTime, LogAppendTime"},
		{"compression.type", "brotli", "Invalid value brotli for configuration compression.type: String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer"},
	}
	for _, tc := range tests {
		k, _ := Lookup(tc.name)
		s := KafkaDefaults()
		err := k.Set(&s, tc.value)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Set(%s, %q) = %v, want %q", tc.name, tc.value, err, tc.want)
		}
	}
}

// Entries: a config is DYNAMIC_TOPIC_CONFIG exactly where the topic sets
// it, STATIC_BROKER_CONFIG where only the brokers differ from Kafka, and
// its value is the topic's over the brokers'; Overrides are the dynamic
// ones; Column lists exactly the column keys off Kafka's default.
func TestEntriesFollowOwnOverBrokers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		brokers := drawSettings(t, "brokers")
		var own Own
		if rapid.Bool().Draw(t, "topic sets a log config") {
			l := drawSettings(t, "topic").Log
			own.Log = &l
		}
		own.MinInsyncReplicas = rapid.IntRange(0, 3).Draw(t, "topic min.insync.replicas")
		if rapid.Bool().Draw(t, "topic sets unclean") {
			u := rapid.Bool().Draw(t, "unclean")
			own.UncleanLeaderElectionEnable = &u
		}
		topic, def := Resolve(brokers, own), KafkaDefaults()
		for _, e := range Entries(brokers, own) {
			k := e.Key
			if e.Value != k.Get(&topic) {
				t.Fatalf("%s: value %s, the topic's resolved value is %s", k.Name, e.Value, k.Get(&topic))
			}
			sets := slices.Contains(own.Overrides, k.Name) ||
				k.owner == ownedByLog && own.Log != nil && k.Get(&Settings{Log: *own.Log}) != k.Get(&brokers) ||
				k.owner == ownedByMinISR && own.MinInsyncReplicas > 0 || k.owner == ownedByUnclean && own.UncleanLeaderElectionEnable != nil
			want := kmsg.ConfigSourceDefaultConfig
			if sets {
				want = kmsg.ConfigSourceDynamicTopicConfig
			} else if k.Get(&brokers) != k.Get(&def) {
				want = kmsg.ConfigSourceStaticBrokerConfig
			}
			if e.Source != want {
				t.Fatalf("%s: source %s, want %s", k.Name, e.Source, want)
			}
		}
		var column []string
		for _, kv := range Column(topic) {
			name, value, _ := strings.Cut(kv, "=")
			k, ok := Lookup(name)
			if !ok || !k.Column || k.Get(&def) == value {
				t.Fatalf("the Configs column shows %s", kv)
			}
			column = append(column, name)
		}
		for i := range keys {
			if k := &keys[i]; k.Column && k.Get(&topic) != k.Get(&def) && !slices.Contains(column, k.Name) {
				t.Fatalf("the Configs column leaves out %s=%s", k.Name, k.Get(&topic))
			}
		}
	})
}

// The Configs column prints the log configs alphabetically, then the
// replication ones, as kafka-topics --describe does here.
func TestColumnOrder(t *testing.T) {
	s := KafkaDefaults()
	s.Log.RetentionMs, s.Log.SegmentBytes, s.Log.CleanupPolicy = 300000, 16384, "compact"
	s.MinInsyncReplicas, s.UncleanLeaderElectionEnable = 2, true
	want := []string{"cleanup.policy=compact", "retention.ms=300000", "segment.bytes=16384", "min.insync.replicas=2", "unclean.leader.election.enable=true"}
	if diff := cmp.Diff(want, Column(s)); diff != "" {
		t.Errorf("Column (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[1:2], Column(s, "cleanup.policy", "segment.bytes", "min.insync.replicas", "unclean.leader.election.enable")); diff != "" {
		t.Errorf("Column with skips (-want +got):\n%s", diff)
	}
}

func drawSettings(t *rapid.T, label string) Settings {
	s := KafkaDefaults()
	s.Log.RetentionMs = rapid.SampledFrom([]int64{-1, 60000, s.Log.RetentionMs}).Draw(t, label+" retention.ms")
	s.Log.SegmentBytes = rapid.SampledFrom([]int64{16384, 1 << 20, s.Log.SegmentBytes}).Draw(t, label+" segment.bytes")
	s.Log.CleanupPolicy = rapid.SampledFrom([]string{"delete", "compact", "compact,delete"}).Draw(t, label+" cleanup.policy")
	s.Log.MaxMessageBytes = rapid.SampledFrom([]int32{1048588, 1000}).Draw(t, label+" max.message.bytes")
	s.Log.MinCleanableDirtyRatio = rapid.SampledFrom([]float64{0.5, 0.1}).Draw(t, label+" min.cleanable.dirty.ratio")
	s.Log.FlushIntervalMessages = rapid.SampledFrom([]int64{math.MaxInt64, 1}).Draw(t, label+" flush.messages")
	s.Log.MessageTimestampType = rapid.SampledFrom([]kafkalog.TimestampType{kafkalog.CreateTime, kafkalog.LogAppendTime}).Draw(t, label+" timestamp type")
	s.MinInsyncReplicas = rapid.IntRange(1, 3).Draw(t, label+" min.insync.replicas")
	s.UncleanLeaderElectionEnable = rapid.Bool().Draw(t, label+" unclean")
	return s
}
