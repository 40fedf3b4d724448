// Package topicconfig is the one table of the topic configs the simulated
// cluster models: for each, its name and type, how it is parsed and
// range-checked (Kafka 3.7's LogConfig and ConfigDef), where its value
// lives, the broker configs it falls back to with their defaults
// (ServerTopicConfigSynonyms), and whether kafka-topics --describe prints
// it. CreateTopics, the alter-configs APIs, DescribeConfigs with its
// synonyms, the brokers' logs and the terminal's tools all read their
// topic configs from here; adding one is one row of [keys].
//
// A topic's configs are [Settings]: its log configuration
// ([kafkalog.Config]), min.insync.replicas and
// unclean.leader.election.enable. What the topic sets itself is an [Own];
// [Resolve] lays it over the brokers' settings, as Kafka lays a topic's
// overrides over the broker's defaults.
package topicconfig
