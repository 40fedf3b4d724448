package kafkatools

import (
	"fmt"
	"strconv"
	"strings"
)

// Flags splits a command's words into flags ("--name value" and
// "--name=value") and positional words, as every command of the terminal
// reads them (kafka-configs, which reads its options as joptsimple does,
// excepted). A flag followed by another flag, or last, has the value "";
// only the flags listed in takesValue take the next word as their value.
func Flags(args []string) (map[string]string, []string) {
	fl := map[string]string{}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimPrefix(a, "--")
		if k, v, ok := strings.Cut(name, "="); ok {
			fl[k] = v
			continue
		}
		if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") && takesValue(name) {
			fl[name] = args[i+1]
			i++
			continue
		}
		fl[name] = ""
	}
	return fl, pos
}

// takesValue lists the flags that take a value, in Kafka's tools and in
// the terminal's own commands alike (one list, so that every command
// splits a line the same way).
func takesValue(name string) bool {
	switch name {
	case "topic", "topics", "group", "files", "broker", "key", "partition", "partitions", "replication-factor", "config", "poll-ms", "bootstrap-server", "max-bytes", "max-poll-records",
		"rate", "acks", "keys", "to-offset", "shift-by", "zero", "timestamp-ms", "transactional-id", "broker-id", "max-transaction-timeout", "start-offset", "producer-id", "producer-epoch", "coordinator-epoch", "protocol", "remote-assignor", "isolation", "to":
		return true
	}
	return false
}

// Repeated returns every value of a flag that may be given more than once
// (--name V or --name=V), in order; Flags keeps only the last.
func Repeated(args []string, name string) []string {
	var out []string
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			out = append(out, v)
		} else if a == "--"+name && i+1 < len(args) {
			out = append(out, args[i+1])
		}
	}
	return out
}

// intFlag is a flag's whole-number value and whether it was given (-1 if
// not); a value that is not a number is a usage error.
func intFlag(fl map[string]string, name string) (int, bool, error) {
	v, ok := fl[name]
	if !ok {
		return -1, false, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, true, fmt.Errorf("%w: --%s takes a whole number, not %q", ErrUsage, name, v)
	}
	return n, true, nil
}

// int64Flag is intFlag for a flag whose value may not fit an int32 (an
// offset, a producer id).
func int64Flag(fl map[string]string, name string) (int64, bool, error) {
	v, ok := fl[name]
	if !ok {
		return -1, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, true, fmt.Errorf("%w: --%s takes a whole number, not %q", ErrUsage, name, v)
	}
	return n, true, nil
}

// ParseBroker reads a broker id as the terminal's commands take it: 2 or
// b2; anything else is a usage error.
func ParseBroker(s string) (int32, error) {
	n, err := strconv.ParseInt(strings.TrimPrefix(s, "b"), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%w: broker %q is not a number", ErrUsage, s)
	}
	return int32(n), nil
}
