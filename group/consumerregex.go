package group

import (
	"maps"
	"regexp"
	"slices"
)

// A consumer-protocol member may subscribe by regular expression
// (ConsumerGroupHeartbeat v1's SubscribedTopicRegex, Kafka 4.0): the
// coordinator resolves it against the cluster's topics, a topic being
// subscribed when the expression matches its whole name (Kafka compiles
// it with RE2/J; Go's regexp speaks the same RE2 syntax). The resolution
// follows the topics: a topic created or deleted changes the group's
// subscription metadata, which bumps the group epoch at the next
// heartbeat, as a change of a subscribed topic's partitions does.

// compileTopicRegex compiles a SubscribedTopicRegex to match whole topic
// names; "" is no regex (nil).
func compileTopicRegex(expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	if _, err := regexp.Compile(expr); err != nil { // its own words, not the anchored form's
		return nil, err
	}
	return regexp.Compile(`^(?:` + expr + `)$`)
}

// memberTopics is every topic member m subscribes to: its names, and the
// topics its regex matches now, sorted.
func (c *ConsumerGroupCoordinator) memberTopics(m *consumerMember) []string {
	re, err := compileTopicRegex(m.regex)
	if re == nil || err != nil { // a regex that does not compile was refused
		return m.topics
	}
	out := slices.Clone(m.topics)
	for _, name := range slices.Sorted(maps.Keys(c.topics)) {
		if re.MatchString(name) {
			out = append(out, name)
		}
	}
	return slices.Compact(slices.Sorted(slices.Values(out)))
}
