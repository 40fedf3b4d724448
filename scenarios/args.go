package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// args is a command line of a scenario file: "produce p value=m1 key=k" has
// the positional words [p] and the named values value and key.
type args struct {
	words []string
	named map[string]string
	order []string // named keys in the order written
}

func parseArgs(s string) args {
	a := args{named: map[string]string{}}
	for _, tok := range strings.Fields(s) {
		k, v, ok := strings.Cut(tok, "=")
		if !ok {
			a.words = append(a.words, tok)
			continue
		}
		a.named[k] = v
		a.order = append(a.order, k)
	}
	return a
}

// ids reads "1,2,3" or "(1,2,3)" as broker or node ids.
func ids(s string) ([]int32, error) {
	s = strings.Trim(s, "(){}")
	if s == "" {
		return nil, nil
	}
	var out []int32
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%w: id %q", ErrSyntax, f)
		}
		out = append(out, int32(n))
	}
	return out, nil
}

func (a args) int(key string, dst *int) error {
	v, ok := a.named[key]
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("%w: %s=%q is not a number", ErrSyntax, key, v)
	}
	*dst = n
	return nil
}

func (a args) int64(key string, dst *int64) error {
	n := int(*dst)
	if err := a.int(key, &n); err != nil {
		return err
	}
	*dst = int64(n)
	return nil
}

func (a args) int32(key string, dst *int32) error {
	n := int(*dst)
	if err := a.int(key, &n); err != nil {
		return err
	}
	if int(int32(n)) != n {
		return fmt.Errorf("%w: %s=%d is out of range", ErrSyntax, key, n)
	}
	*dst = int32(n)
	return nil
}

// applyConfig applies "brokers=2 rules=v0.10 min-isr=1 unclean seed=1
// lag=30000 tick=100 retention-check=5000 cleaner-backoff=1000
// offsets-partitions=50 group-delay=3000" to cfg. "unclean" alone means
// true; "unclean=false" turns it off (for branches).
func applyConfig(cfg *cluster.Config, s string) error {
	a := parseArgs(s)
	for _, w := range a.words {
		if w != "unclean" {
			return fmt.Errorf("%w: unknown cluster setting %q", ErrSyntax, w)
		}
		cfg.UncleanLeaderElectionEnable = true
	}
	for _, k := range a.order {
		v := a.named[k]
		var err error
		switch k {
		case "brokers":
			err = a.int(k, &cfg.Brokers)
		case "min-isr":
			err = a.int(k, &cfg.MinInsyncReplicas)
		case "lag":
			err = a.int64(k, &cfg.ReplicaLagTimeMaxMs)
		case "seed":
			cfg.Seed, err = strconv.ParseUint(v, 10, 64)
		case "unclean":
			cfg.UncleanLeaderElectionEnable, err = strconv.ParseBool(v)
		case "rules":
			cfg.Rules, err = replica.ParseRuleSet(v)
		case "tick":
			err = a.int64(k, &cfg.TickMs)
		case "retention-check":
			err = a.int64(k, &cfg.LogRetentionCheckIntervalMs)
		case "cleaner-backoff":
			err = a.int64(k, &cfg.LogCleanerBackoffMs)
		case "offsets-partitions":
			err = a.int(k, &cfg.OffsetsTopicNumPartitions)
		case "offsets-retention":
			err = a.int(k, &cfg.OffsetsRetentionMinutes)
		case "offsets-retention-check":
			err = a.int64(k, &cfg.OffsetsRetentionCheckIntervalMs)
		case "group-delay":
			err = groupDelay(cfg, a, k)
		case "net-latency":
			err = a.int64(k, &cfg.NetworkLatencyMs)
		case "timestamp-after-max":
			// log.message.timestamp.after.max.ms: a scenario's clock starts
			// in 1970, so one that waits for the user's own client, which
			// stamps today's time, must accept records that far ahead
			if cfg.Log == (kafkalog.Config{}) {
				cfg.Log = cluster.DefaultLogConfig()
			}
			err = a.int64(k, &cfg.Log.MessageTimestampAfterMaxMs)
		default:
			err = fmt.Errorf("%w: unknown cluster setting %q", ErrSyntax, k)
		}
		if err != nil {
			return fmt.Errorf("%s=%s: %w", k, v, err)
		}
	}
	return nil
}

// groupDelay sets group.initial.rebalance.delay.ms (0 is a real value, so
// the coordinator's config is copied from group.DefaultConfig first).
func groupDelay(cfg *cluster.Config, a args, k string) error {
	g := group.DefaultConfig()
	if cfg.Group != nil {
		g = *cfg.Group
	}
	ms := int(g.GroupInitialRebalanceDelayMs)
	if err := a.int(k, &ms); err != nil {
		return err
	}
	g.GroupInitialRebalanceDelayMs = int32(ms)
	cfg.Group = &g
	return nil
}

// splitList reads "alice,bob" or "(alice,bob)".
func splitList(s string) []string {
	return strings.Split(strings.Trim(s, "()"), ",")
}
