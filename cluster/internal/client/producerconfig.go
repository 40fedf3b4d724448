package client

import (
	"fmt"
	"math"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/replica"
)

// Producer defaults (Kafka's producer configs).
const (
	DefaultRequestTimeoutMs  = 30000  // request.timeout.ms
	DefaultDeliveryTimeoutMs = 120000 // delivery.timeout.ms
	DefaultRetryBackoffMs    = 100    // retry.backoff.ms
	// DefaultRetryBackoffMaxMs is retry.backoff.max.ms (KIP-580, Kafka
	// 3.7+): the most a retry's exponential backoff grows to.
	DefaultRetryBackoffMaxMs = 1000
)

// DefaultBatchSize is batch.size.
const DefaultBatchSize = 16384

// DefaultMaxRequestSize is the producer's max.request.size (1 MiB): the
// producer refuses, itself, a record whose batch would be larger
// (KafkaProducer.ensureValidRecordSize, RecordTooLargeException).
const DefaultMaxRequestSize = 1 << 20

// ProducerConfig describes a producer. With linger.ms 0 (Kafka 3.7's
// default) each record is sent alone, as one batch, to the leader the
// controller names (instant metadata), unless its partition cannot send
// (a batch before it waits, the leader has five requests in flight): then
// the records gather in batches up to batch.size; with [ProducerConfig.LingerMs] above 0 (Kafka 4's
// default is 5 ms, KIP-1030) the records for one partition wait and travel
// together as one batch.
//
// The zero values of Acks, EnableIdempotence and Partitioner are the
// defaults of the client of the world's rule set (the world's
// Config.Rules): under [replica.V3_7] and later those of a current Java client
// (Kafka 3.7's ProducerConfig: acks=all and enable.idempotence=true since
// 3.0, KIP-679; the built-in uniform sticky partitioner since 3.3,
// KIP-794), under the older rule sets those of the clients of their time
// (acks=1, enable.idempotence=false, KIP-480's sticky partitioner).
type ProducerConfig struct {
	// Name identifies the producer in actions and the state.
	Name string
	// Topic is where it writes.
	Topic string
	// Acks is "0", "1" or "all" (default "all" under [replica.V3_7] and later,
	// Kafka 3.0+; "1" under older rules, as before 3.0).
	Acks string
	// Keys are "a few keys": record i gets key Keys[i mod len(Keys)] and the
	// partition murmur2(key) mod partitions. Without keys the keyless
	// partitioner ([ProducerConfig.Partitioner]) picks the partition.
	Keys []string
	// RecordsPerSec is the rate of records produced on their own while the
	// world runs (0: only the records the world's Produce sends).
	RecordsPerSec int
	// Rate, when above 0, is the rate as a fraction of records a second
	// (1.5), to a thousandth; it takes the place of RecordsPerSec.
	Rate float64
	// RequestTimeoutMs is request.timeout.ms (default 30000).
	RequestTimeoutMs int64
	// DeliveryTimeoutMs is delivery.timeout.ms (default 120000): retriable
	// errors are retried until then.
	DeliveryTimeoutMs int64
	// RetryBackoffMs is retry.backoff.ms (default 100): how long a
	// refused batch waits before its first retry.
	RetryBackoffMs int64
	// RetryBackoffMaxMs is retry.backoff.max.ms (default 1000; KIP-580):
	// under [replica.V3_7] and later the backoff doubles with each retry
	// of a batch up to it (the older rule sets' clients back off a
	// constant retry.backoff.ms).
	RetryBackoffMaxMs int64
	// EnableIdempotence is enable.idempotence (KIP-98): each record carries
	// the producer's id, epoch 0 and a per-partition sequence number, so a
	// leader answers a retry of a record it holds with the original offset
	// instead of writing it again; the sequences travel in the record
	// batches, so a new leader knows them too. nil is the client's default:
	// on under [replica.V3_7] and later (Kafka 3.0+) unless acks is not "all", in
	// which case it is quietly off, as ProducerConfig's
	// postProcessAndValidateIdempotenceConfigs does; off under older rules.
	// Set to true with acks other than "all" it is an invalid config
	// (Kafka's ConfigException). A record that finally fails leaves a gap
	// in its partition's sequence: the producer bumps its epoch and numbers
	// that partition's records still waiting from 0 again, its other
	// partitions following once their records of the older epoch are
	// settled, as Kafka's TransactionManager does ([Result].ProducerEpoch;
	// a leader takes a new epoch only at sequence 0). An idempotent
	// producer keeps at most five batches in flight per partition and
	// sends a retried batch only when none of its partition is in flight
	// ([MaxInFlightRequestsPerConnection]).
	EnableIdempotence *bool
	// Partitioner picks the partition of records without a key:
	// [PartitionerUniformSticky] (the default under [replica.V3_7] and later) or
	// [PartitionerSticky] (the default under older rules).
	Partitioner string
	// BatchSize is batch.size in bytes (default 16384), the uniform sticky
	// partitioner's switch point, and with LingerMs the most a batch holds.
	BatchSize int
	// LingerMs is linger.ms. 0 is the default of the rule set's client
	// ([DefaultLingerMs]: 5 ms under [replica.V4], Kafka 4.0's KIP-1030;
	// 0 before, every record sent at once, alone); [NoLinger] sets
	// linger.ms=0 explicitly. Above 0 a record for a partition joins the batch open for it, and the
	// batch is sent linger.ms after its first record, or as soon as the next
	// record would take it past batch.size (that record starts the next
	// batch), as Kafka 3.7's RecordAccumulator.append and ready do. A batch
	// is retried, acknowledged and failed whole; its records get consecutive
	// offsets (ProduceResponse's baseOffset and their place in the batch).
	LingerMs int64
	// TransactionalID is transactional.id (KIP-98, Kafka 0.11+): the
	// producer is idempotent (enable.idempotence false with it is an
	// invalid config, Kafka's ConfigException), its batches are
	// transactional, and [Producer.EndTransaction] commits or aborts a
	// transaction with a marker on each partition it wrote to
	// (transaction.go says what is modelled). "" (the default): none.
	TransactionalID string
	// Copy, when its Topic is set, makes the transactional producer a
	// consume-transform-produce loop: it reads Copy's partition and
	// copies each record to the same partition of Topic, committing its
	// group's offsets in the same transaction (copier.go).
	Copy CopySource
}

// NoLinger, as [ProducerConfig.LingerMs], is linger.ms=0 set explicitly:
// every record is sent at once, whatever the rule set's default.
const NoLinger int64 = -1

// DefaultLingerMs returns the linger.ms default of the client of rules: 5
// from Kafka 4.0 (KIP-1030: a little batching costs little latency and
// saves requests), 0 before.
func DefaultLingerMs(rules replica.RuleSet) int64 {
	if rules >= replica.V4 {
		return 5
	}
	return 0
}

// Partitioners for records without a key ([ProducerConfig.Partitioner]).
const (
	// PartitionerSticky is KIP-480's (Kafka 2.4-3.2): a new partition with
	// each new batch; without linger.ms every record here is its own batch,
	// so every record.
	// The rule sets older than 2.4 use it too (their clients went
	// round-robin; nothing here depends on that).
	PartitionerSticky = "sticky"
	// PartitionerUniformSticky is KIP-794's built-in partitioner (3.3+): a
	// new partition, drawn uniformly, once batch.size bytes went to the
	// current one. Each record here is a batch sent at once, so the queue is
	// empty when the next record comes (RecordAccumulator's allBatchesFull)
	// and the switch happens at batch.size, not twice it. Adaptive
	// partitioning (partitioner.adaptive.partitioning.enable, leaning away
	// from brokers with long queues) is not modelled.
	PartitionerUniformSticky = "uniform-sticky"
)

// parseAcks reads an acks setting: "all" (or "-1", or "" for the
// default), "1" or "0".
func parseAcks(s string) (int16, error) {
	switch s {
	case "", "all", "-1":
		return replica.AcksAll, nil
	case "1":
		return 1, nil
	case "0":
		return 0, nil
	}
	return 0, fmt.Errorf("%w: acks %q", metadata.ErrInvalidConfig, s)
}

// AcksLabel is how an acks setting prints: "all", "1" or "0".
func AcksLabel(a int16) string {
	if a == replica.AcksAll {
		return "all"
	}
	return fmt.Sprint(a)
}

// CheckProducer checks a new producer's settings, before any default:
// acks, partitioner, batch.size and linger.ms (at least 0, or [NoLinger]),
// its topic, and its name (taken: another producer has it).
func CheckProducer(env Env, cfg ProducerConfig, taken bool) error {
	if _, err := parseAcks(cfg.Acks); err != nil {
		return err
	}
	if pt := cfg.Partitioner; pt != "" && pt != PartitionerSticky && pt != PartitionerUniformSticky || cfg.BatchSize < 0 || cfg.LingerMs < NoLinger {
		return fmt.Errorf("%w: producer %q: partitioner %q, batch.size %d, linger.ms %d", metadata.ErrInvalidConfig, cfg.Name, pt, cfg.BatchSize, cfg.LingerMs)
	}
	if _, ok := env.PartitionCount(cfg.Topic); !ok || cfg.Name == "" || taken {
		return fmt.Errorf("%w: producer %q of topic %q", metadata.ErrInvalidConfig, cfg.Name, cfg.Topic)
	}
	return checkCopy(env, cfg)
}

// withDefaults fills in the zero fields of cfg with the defaults of the
// client of rules (see [ProducerConfig]).
func (cfg ProducerConfig) withDefaults(rules replica.RuleSet) (ProducerConfig, error) {
	modern := rules >= replica.V3_7
	cfg.Copy = cfg.Copy.withDefaults()
	if cfg.Acks == "" {
		cfg.Acks = "1"
		if modern {
			cfg.Acks = "all"
		}
	}
	acks, err := parseAcks(cfg.Acks)
	if err != nil {
		return cfg, err
	}
	cfg.Acks = AcksLabel(acks)
	if cfg.TransactionalID != "" {
		switch {
		case rules < replica.V0_11:
			return cfg, fmt.Errorf("%w: producer %q: transactional.id needs Kafka 0.11+ (KIP-98), not %s", metadata.ErrInvalidConfig, cfg.Name, rules)
		case cfg.EnableIdempotence != nil && !*cfg.EnableIdempotence:
			return cfg, fmt.Errorf("%w: producer %q: Cannot set a transactional.id without also enabling idempotence", metadata.ErrInvalidConfig, cfg.Name)
		case acks != replica.AcksAll:
			return cfg, fmt.Errorf("%w: producer %q: transactional.id needs acks=all, not acks=%s", metadata.ErrInvalidConfig, cfg.Name, cfg.Acks)
		}
		cfg.EnableIdempotence = boolPtr(true)
	}
	switch {
	case cfg.EnableIdempotence == nil:
		cfg.EnableIdempotence = boolPtr(modern && acks == replica.AcksAll)
	case *cfg.EnableIdempotence && acks != replica.AcksAll:
		return cfg, fmt.Errorf("%w: producer %q: enable.idempotence needs acks=all, not acks=%s", metadata.ErrInvalidConfig, cfg.Name, cfg.Acks)
	default:
		cfg.EnableIdempotence = boolPtr(*cfg.EnableIdempotence)
	}
	if cfg.Partitioner == "" {
		cfg.Partitioner = PartitionerSticky
		if modern {
			cfg.Partitioner = PartitionerUniformSticky
		}
	}
	if cfg.RequestTimeoutMs == 0 {
		cfg.RequestTimeoutMs = DefaultRequestTimeoutMs
	}
	if cfg.DeliveryTimeoutMs == 0 {
		cfg.DeliveryTimeoutMs = DefaultDeliveryTimeoutMs
	}
	if cfg.RetryBackoffMs == 0 {
		cfg.RetryBackoffMs = DefaultRetryBackoffMs
	}
	if cfg.RetryBackoffMaxMs == 0 {
		cfg.RetryBackoffMaxMs = DefaultRetryBackoffMaxMs
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.LingerMs == 0 {
		cfg.LingerMs = DefaultLingerMs(rules)
	}
	return cfg, nil
}

func boolPtr(b bool) *bool { return &b }

// milliRate is the rate in thousandths of records a second.
func (cfg ProducerConfig) milliRate() int {
	if cfg.Rate > 0 {
		return int(math.Round(cfg.Rate * 1000))
	}
	return cfg.RecordsPerSec * 1000
}
