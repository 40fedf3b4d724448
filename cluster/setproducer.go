package cluster

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// SetProducer changes producer name's rate (records a second, a fraction
// like 1.5 allowed), acks ("0", "1", "all"; "" is the rule set's default)
// and keys (none: the keyless partitioner). Records already sent keep the
// acks they were sent with, retries included; a change of acks first sends
// the records still lingering. An enable.idempotence left to its default
// follows the acks (on with acks=all under [replica.Modern], as a client
// configured anew would be); one set to true refuses acks other than all.
func (w *World) SetProducer(name string, rate float64, acks string, keys []string) error {
	return w.Do(Action{Kind: ActSetProducer, Name: name, Producer: ProducerConfig{Rate: rate, Acks: acks, Keys: keys}})
}

func (w *World) validateSetProducer(a Action) error {
	if w.producer(a.Name) == nil {
		return fmt.Errorf("%w: no producer %q", ErrInvalidConfig, a.Name)
	}
	cfg, err := w.setProducerConfig(a)
	if err != nil {
		return err
	}
	if _, err := w.producerDefaults(cfg); err != nil {
		return err
	}
	r := a.Producer.Rate
	if math.IsNaN(r) || r < 0 || r > 1000 || a.Producer.RecordsPerSec < 0 || a.Producer.RecordsPerSec > 1000 {
		return fmt.Errorf("%w: set-producer %s: rate %g not in [0, 1000]", ErrInvalidConfig, a.Name, r)
	}
	for _, k := range a.Producer.Keys {
		if k == "" {
			return fmt.Errorf("%w: set-producer %s: an empty key", ErrInvalidConfig, a.Name)
		}
	}
	return nil
}

// setProducerConfig is producer a.Name's configuration as set-producer
// a leaves it, before defaults: rate, acks and keys from a, an
// enable.idempotence left to its default cleared again.
func (w *World) setProducerConfig(a Action) (ProducerConfig, error) {
	p := w.producer(a.Name)
	if p == nil {
		return ProducerConfig{}, fmt.Errorf("%w: no producer %q", ErrInvalidConfig, a.Name)
	}
	cfg := p.cfg
	cfg.Rate, cfg.RecordsPerSec = a.Producer.Rate, a.Producer.RecordsPerSec
	cfg.Acks = a.Producer.Acks
	cfg.Keys = append([]string(nil), a.Producer.Keys...)
	if p.idemDefault {
		cfg.EnableIdempotence = nil
	}
	return cfg, nil
}

func (w *World) setProducer(a Action) error {
	cfg, err := w.setProducerConfig(a)
	if err != nil {
		return err
	}
	if cfg, err = w.producerDefaults(cfg); err != nil {
		return err
	}
	acks, err := parseAcks(cfg.Acks)
	if err != nil {
		return err
	}
	p := w.producer(a.Name)
	if acks != p.acks {
		// The records still lingering go now, with the acks they were
		// produced with, as a producer being replaced flushes its
		// accumulator (KafkaProducer.close): no batch mixes two acks.
		for _, partition := range slices.Sorted(maps.Keys(p.lingering)) {
			w.sendLingering(p, partition)
		}
	}
	p.cfg, p.acks = cfg, acks
	return nil
}

// setProducerString prints e.g. "set-producer clicks rate=1.5 acks=1
// keys=a,b" (keys=none without keys).
func setProducerString(a Action) string {
	rate := float64(a.Producer.RecordsPerSec)
	if a.Producer.Rate > 0 {
		rate = a.Producer.Rate
	}
	keys := strings.Join(a.Producer.Keys, ",")
	if keys == "" {
		keys = "none"
	}
	return fmt.Sprintf("set-producer %s rate=%s acks=%s keys=%s", a.Name, strconv.FormatFloat(rate, 'f', -1, 64), a.Producer.Acks, keys)
}

// RatePerSec returns the producer's rate in records a second.
func (p *Producer) RatePerSec() float64 { return float64(p.cfg.milliRate()) / 1000 }
