package topicconfig

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Settings are a topic's configs as the simulated cluster keeps them.
type Settings struct {
	// Log is its partitions' log configuration.
	Log kafkalog.Config
	// MinInsyncReplicas is min.insync.replicas, UncleanLeaderElectionEnable
	// unclean.leader.election.enable.
	MinInsyncReplicas           int
	UncleanLeaderElectionEnable bool
	// Kafka4 says the brokers run Kafka 4, whose defaults differ from
	// 3.7's where [Synonym.Kafka4Default] says (KIP-1030): what
	// DescribeConfigs calls a default, and what kafka-topics --describe
	// leaves out, follows them.
	Kafka4 bool
}

// KafkaDefaults are the settings of a topic on brokers that set nothing:
// Kafka 3.7's defaults (LogConfig, KafkaConfig).
func KafkaDefaults() Settings {
	return Settings{Log: kafkalog.DefaultConfig(), MinInsyncReplicas: 1}
}

// kafkaDefaults are Kafka's defaults for the brokers s is of: 3.7's, or
// with s.Kafka4 4.x's (KIP-1030: log.message.timestamp.after.max.ms one
// hour).
func (s *Settings) kafkaDefaults() Settings {
	d := KafkaDefaults()
	if s.Kafka4 {
		d.Kafka4 = true
		d.Log.MessageTimestampAfterMaxMs = replica.V4.DefaultMessageTimestampAfterMaxMs()
	}
	return d
}

// Synonym is a broker config a topic config falls back to, and the
// default Kafka 3.7's KafkaConfig gives it ("" for none: it is null);
// Kafka4Default is Kafka 4's where it differs ("": the same).
type Synonym struct{ Name, Default, Kafka4Default string }

// owner says where a topic keeps its own value of a config.
type owner uint8

const (
	ownedByLog     owner = iota // Own.Config (a log config of its own that differs from the brokers')
	ownedByMinISR               // Own.MinInsyncReplicas > 0
	ownedByUnclean              // Own.UncleanLeaderElectionEnable != nil
	ownedByNothing              // only by naming it (Own.Overrides): compression.type
)

// Key is one topic config.
type Key struct {
	// Name is the config's name (retention.ms), Type its type as
	// DescribeConfigs reports it.
	Name string
	Type kmsg.ConfigType
	// Synonyms are the broker configs it falls back to, in Kafka 3.7's
	// order (ServerTopicConfigSynonyms.ALL_TOPIC_CONFIG_SYNONYMS and
	// DynamicBrokerConfig.brokerConfigSynonyms): the first is the one the
	// brokers' own setting is listed under, in the topic config's unit.
	Synonyms []Synonym
	// Column marks the configs kafka-topics --describe prints in its
	// Configs column when they are not Kafka's default (the log's
	// internal sizes, such as segment.index.bytes, are left out: the
	// simulated brokers preallocate small indexes, which is no setting
	// of the user's).
	Column bool
	owner  owner
	get    func(*Settings) string
	set    func(s *Settings, name, value string) error
}

// Get returns the key's value in s, as DescribeConfigs prints it.
func (k *Key) Get(s *Settings) string { return k.get(s) }

// Set parses value and sets it in s, range-checked as Kafka 3.7's
// LogConfig defines the config (ConfigDef.parseType, Range.atLeast,
// Range.between, ValidString.in, ValidList.in); the error is ConfigDef's
// message ("Invalid value V for configuration N: ...").
func (k *Key) Set(s *Settings, value string) error { return k.set(s, k.Name, value) }

// IsList reports whether the key is a LIST, the only type APPEND and
// SUBTRACT apply to.
func (k *Key) IsList() bool { return k.Type == kmsg.ConfigTypeList }

// Lookup returns the key named name.
func Lookup(name string) (*Key, bool) {
	i, ok := slices.BinarySearchFunc(keys, name, func(k Key, n string) int { return strings.Compare(k.Name, n) })
	if !ok {
		return nil, false
	}
	return &keys[i], true
}

// Keys returns every key, sorted by name. The caller must not modify them.
func Keys() []Key { return keys }

// maxLong is Java's Long.MAX_VALUE, the default of the broker configs
// that are off unless set.
var maxLong = strconv.FormatInt(math.MaxInt64, 10)

// keys is the table, sorted by name.
var keys = []Key{
	{Name: "cleanup.policy", Type: kmsg.ConfigTypeList, Synonyms: []Synonym{{Name: "log.cleanup.policy", Default: "delete"}}, Column: true,
		get: func(s *Settings) string { return s.Log.CleanupPolicy }, set: setCleanupPolicy},
	{Name: "compression.type", Type: kmsg.ConfigTypeString, Synonyms: []Synonym{{Name: "compression.type", Default: "producer"}}, owner: ownedByNothing,
		get: func(*Settings) string { return "producer" }, set: setCompressionType},
	long("delete.retention.ms", "log.cleaner.delete.retention.ms", "86400000", 0, func(c *kafkalog.Config) *int64 { return &c.DeleteRetentionMs }, true),
	long("file.delete.delay.ms", "log.segment.delete.delay.ms", "60000", 0, func(c *kafkalog.Config) *int64 { return &c.FileDeleteDelayMs }, false),
	long("flush.messages", "log.flush.interval.messages", maxLong, 1, func(c *kafkalog.Config) *int64 { return &c.FlushIntervalMessages }, false),
	integer("index.interval.bytes", "log.index.interval.bytes", "4096", 0, func(c *kafkalog.Config) *int64 { return &c.IndexIntervalBytes }),
	long("max.compaction.lag.ms", "log.cleaner.max.compaction.lag.ms", maxLong, 1, func(c *kafkalog.Config) *int64 { return &c.MaxCompactionLagMs }, false),
	{Name: "max.message.bytes", Type: kmsg.ConfigTypeInt, Synonyms: []Synonym{{Name: "message.max.bytes", Default: "1048588"}},
		get: func(s *Settings) string { return strconv.FormatInt(int64(s.Log.MaxMessageBytes), 10) },
		set: func(s *Settings, name, v string) error {
			n, err := parseNumber(name, v, "INT", 0, math.MaxInt32)
			s.Log.MaxMessageBytes = int32(n)
			return err
		}},
	withKafka4Default(long("message.timestamp.after.max.ms", "log.message.timestamp.after.max.ms", maxLong, 0, func(c *kafkalog.Config) *int64 { return &c.MessageTimestampAfterMaxMs }, false),
		strconv.FormatInt(replica.V4.DefaultMessageTimestampAfterMaxMs(), 10)),
	long("message.timestamp.before.max.ms", "log.message.timestamp.before.max.ms", maxLong, 0, func(c *kafkalog.Config) *int64 { return &c.MessageTimestampBeforeMaxMs }, false),
	long("message.timestamp.difference.max.ms", "log.message.timestamp.difference.max.ms", maxLong, 0, func(c *kafkalog.Config) *int64 { return &c.MessageTimestampDifferenceMaxMs }, false),
	{Name: "message.timestamp.type", Type: kmsg.ConfigTypeString, Synonyms: []Synonym{{Name: "log.message.timestamp.type", Default: "CreateTime"}},
		get: func(s *Settings) string {
			if s.Log.MessageTimestampType == kafkalog.LogAppendTime {
				return "LogAppendTime"
			}
			return "CreateTime"
		}, set: setTimestampType},
	{Name: "min.cleanable.dirty.ratio", Type: kmsg.ConfigTypeDouble, Synonyms: []Synonym{{Name: "log.cleaner.min.cleanable.ratio", Default: "0.5"}}, Column: true,
		get: func(s *Settings) string { return strconv.FormatFloat(s.Log.MinCleanableDirtyRatio, 'f', -1, 64) }, set: setDirtyRatio},
	long("min.compaction.lag.ms", "log.cleaner.min.compaction.lag.ms", "0", 0, func(c *kafkalog.Config) *int64 { return &c.MinCompactionLagMs }, false),
	{Name: "min.insync.replicas", Type: kmsg.ConfigTypeInt, Synonyms: []Synonym{{Name: "min.insync.replicas", Default: "1"}}, Column: true, owner: ownedByMinISR,
		get: func(s *Settings) string { return strconv.Itoa(s.MinInsyncReplicas) },
		set: func(s *Settings, name, v string) error {
			n, err := parseNumber(name, v, "INT", 1, math.MaxInt32)
			s.MinInsyncReplicas = int(n)
			return err
		}},
	{Name: "preallocate", Type: kmsg.ConfigTypeBoolean, Synonyms: []Synonym{{Name: "log.preallocate", Default: "false"}},
		get: func(s *Settings) string { return strconv.FormatBool(s.Log.Preallocate) },
		set: func(s *Settings, name, v string) (err error) {
			s.Log.Preallocate, err = parseBool(name, v)
			return err
		}},
	long("retention.bytes", "log.retention.bytes", "-1", math.MinInt64, func(c *kafkalog.Config) *int64 { return &c.RetentionBytes }, true),
	{Name: "retention.ms", Type: kmsg.ConfigTypeLong, Synonyms: []Synonym{{Name: "log.retention.ms", Default: ""}, {Name: "log.retention.minutes", Default: ""}, {Name: "log.retention.hours", Default: "168"}}, Column: true,
		get: getLong(func(c *kafkalog.Config) *int64 { return &c.RetentionMs }), set: setLong(-1, func(c *kafkalog.Config) *int64 { return &c.RetentionMs })},
	// segment.bytes: at least LegacyRecord.RECORD_OVERHEAD_V0
	{Name: "segment.bytes", Type: kmsg.ConfigTypeInt, Synonyms: []Synonym{{Name: "log.segment.bytes", Default: "1073741824"}}, Column: true,
		get: getLong(func(c *kafkalog.Config) *int64 { return &c.SegmentBytes }), set: setInt(14, func(c *kafkalog.Config) *int64 { return &c.SegmentBytes })},
	// segment.index.bytes: Kafka's minimum is 4; kafkalog.Config.Validate
	// asks for room for one entry.
	integer("segment.index.bytes", "log.index.size.max.bytes", "10485760", 4, func(c *kafkalog.Config) *int64 { return &c.SegmentIndexBytes }),
	{Name: "segment.jitter.ms", Type: kmsg.ConfigTypeLong, Synonyms: []Synonym{{Name: "log.roll.jitter.ms", Default: ""}, {Name: "log.roll.jitter.hours", Default: "0"}},
		get: getLong(func(c *kafkalog.Config) *int64 { return &c.SegmentJitterMs }), set: setLong(0, func(c *kafkalog.Config) *int64 { return &c.SegmentJitterMs })},
	{Name: "segment.ms", Type: kmsg.ConfigTypeLong, Synonyms: []Synonym{{Name: "log.roll.ms", Default: ""}, {Name: "log.roll.hours", Default: "168"}},
		get: getLong(func(c *kafkalog.Config) *int64 { return &c.SegmentMs }), set: setLong(1, func(c *kafkalog.Config) *int64 { return &c.SegmentMs })},
	{Name: "unclean.leader.election.enable", Type: kmsg.ConfigTypeBoolean, Synonyms: []Synonym{{Name: "unclean.leader.election.enable", Default: "false"}}, Column: true, owner: ownedByUnclean,
		get: func(s *Settings) string { return strconv.FormatBool(s.UncleanLeaderElectionEnable) },
		set: func(s *Settings, name, v string) (err error) {
			s.UncleanLeaderElectionEnable, err = parseBool(name, v)
			return err
		}},
}

// long is a LONG log config of at least lo, held in the field field gives.
func long(name, synonym, def string, lo int64, field func(*kafkalog.Config) *int64, column bool) Key {
	return Key{Name: name, Type: kmsg.ConfigTypeLong, Synonyms: []Synonym{{Name: synonym, Default: def}}, Column: column, get: getLong(field), set: setLong(lo, field)}
}

// withKafka4Default is k, whose first synonym's default is def under Kafka 4.
func withKafka4Default(k Key, def string) Key {
	k.Synonyms[0].Kafka4Default = def
	return k
}

// integer is an INT log config of at least lo.
func integer(name, synonym, def string, lo int64, field func(*kafkalog.Config) *int64) Key {
	return Key{Name: name, Type: kmsg.ConfigTypeInt, Synonyms: []Synonym{{Name: synonym, Default: def}}, get: getLong(field), set: setInt(lo, field)}
}

func getLong(field func(*kafkalog.Config) *int64) func(*Settings) string {
	return func(s *Settings) string { return strconv.FormatInt(*field(&s.Log), 10) }
}

func setLong(lo int64, field func(*kafkalog.Config) *int64) func(*Settings, string, string) error {
	return func(s *Settings, name, v string) (err error) {
		*field(&s.Log), err = parseNumber(name, v, "LONG", lo, math.MaxInt64)
		return err
	}
}

func setInt(lo int64, field func(*kafkalog.Config) *int64) func(*Settings, string, string) error {
	return func(s *Settings, name, v string) (err error) {
		*field(&s.Log), err = parseNumber(name, v, "INT", lo, math.MaxInt32)
		return err
	}
}

// ConfigError is a value a config does not take: ConfigDef's
// ConfigException, its message in Kafka's words.
type ConfigError struct{ Message string }

func (e *ConfigError) Error() string { return e.Message }

// configError is ConfigDef's ConfigException for value of config name.
func configError(name, value, why string) error {
	return &ConfigError{fmt.Sprintf("Invalid value %s for configuration %s: %s", value, name, why)}
}

// parseNumber parses an INT or LONG config value within [lo, hi].
func parseNumber(name, value, typ string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	if err != nil || typ == "INT" && (n < math.MinInt32 || n > math.MaxInt32) {
		return 0, configError(name, value, "Not a number of type "+typ)
	}
	switch {
	case n < lo:
		return 0, configError(name, strconv.FormatInt(n, 10), fmt.Sprintf("Value must be at least %d", lo))
	case n > hi:
		return 0, configError(name, strconv.FormatInt(n, 10), fmt.Sprintf("Value must be no more than %d", hi))
	}
	return n, nil
}

func parseBool(name, value string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, configError(name, value, "Expected value to be either true or false")
}

func setCleanupPolicy(s *Settings, name, value string) error {
	var parts []string
	for _, p := range strings.Split(strings.TrimSpace(value), ",") {
		p = strings.TrimSpace(p)
		if p != kafkalog.CleanupPolicyDelete && p != kafkalog.CleanupPolicyCompact {
			return configError(name, p, "String must be one of: compact, delete")
		}
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	s.Log.CleanupPolicy = strings.Join(parts, ",")
	return nil
}

func setCompressionType(_ *Settings, name, value string) error {
	switch v := strings.TrimSpace(value); v {
	case "producer":
		return nil
	case "uncompressed", "zstd", "lz4", "snappy", "gzip":
		return fmt.Errorf("compression.type %s: the simulated brokers keep the producer's batches as they come (only compression.type=producer is modelled)", v)
	default:
		return configError(name, v, "String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer")
	}
}

func setTimestampType(s *Settings, name, value string) error {
	switch v := strings.TrimSpace(value); v {
	case "CreateTime":
		s.Log.MessageTimestampType = kafkalog.CreateTime
	case "LogAppendTime":
		s.Log.MessageTimestampType = kafkalog.LogAppendTime
	default:
		return configError(name, v, "String must be one of: CreateTime, LogAppendTime")
	}
	return nil
}

func setDirtyRatio(s *Settings, name, value string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	// Java prints the parsed Double: 2 as 2.0.
	d := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(d, ".") {
		d += ".0"
	}
	s.Log.MinCleanableDirtyRatio = f
	switch {
	case err != nil:
		return configError(name, value, "Not a number of type DOUBLE")
	case f < 0:
		return configError(name, d, "Value must be at least 0")
	case f > 1:
		return configError(name, d, "Value must be no more than 1")
	}
	return nil
}
