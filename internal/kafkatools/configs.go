package kafkatools

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// Configs is kafka-configs.sh, as Kafka 3.7's ConfigCommand runs it with
// --bootstrap-server (which the terminal takes and ignores, as its other
// tools do; it does not require it): the option checks of
// ConfigCommandOptions.checkArgs and processCommand first, then, for
// topics, describeConfig or alterConfig. Only topics are modelled: the
// other entity types (brokers, broker-loggers, users, clients, ips,
// client-metrics) pass the checks common to all and are then refused,
// saying why. Failures print as ConfigCommand.main prints them: an
// IllegalArgumentException, InvalidConfigurationException or
// OptionException as its message alone, any other exception after "Error
// while executing config command with args '...'" as the first line of
// its stack trace (the frames are left out); a check that ends in
// CommandLineUtils.printUsageAndExit is a usage error. Options Kafka has
// that the terminal does not model (--add-config-file, --command-config,
// --zookeeper, --bootstrap-controller...) are usage errors, and so is a
// word that is no option (Kafka ignores it).
func Configs(s Session, args []string, out io.Writer) error {
	c, err := parseConfigsArgs(args)
	if err != nil {
		return err
	}
	if err := c.check(); err != nil {
		return configArgError(out, err)
	}
	if !slices.Equal(c.types, []string{"topics"}) {
		return errConfigsTopicsOnly
	}
	if c.has["alter"] {
		return alterConfigs(s, c, out)
	}
	return describeConfigs(s, c, out)
}

// errConfigsTopicsOnly refuses kafka-configs on any entity type but
// topics.
var errConfigsTopicsOnly = errors.New("kafka-configs: the simulated cluster models topics' configs only: its brokers' configs (and their loggers') are static, as their server.properties sets them, and it has no users, clients, IPs or client-metrics subscriptions to configure; use --entity-type topics --entity-name T (or --topic T)")

// configsOptions are the options of Kafka 3.7's ConfigCommandOptions the
// terminal takes, and whether each takes a value.
var configsOptions = map[string]bool{
	"describe": false, "alter": false, "all": false, "force": false,
	"entity-type": true, "entity-name": true, "entity-default": false,
	"topic": true, "client": true, "user": true, "broker": true, "broker-logger": true, "ip": true,
	"client-defaults": false, "user-defaults": false, "broker-defaults": false, "ip-defaults": false,
	"add-config": true, "delete-config": true, "bootstrap-server": true,
}

// configsEntityFlags are ConfigCommandOptions' entityFlags and
// entityDefaultsFlags, in its order, with the entity type each names.
var configsEntityFlags = []struct{ flag, typ string }{
	{"topic", "topics"}, {"client", "clients"}, {"user", "users"}, {"broker", "brokers"}, {"broker-logger", "broker-loggers"}, {"ip", "ips"},
	{"client-defaults", "clients"}, {"user-defaults", "users"}, {"broker-defaults", "brokers"}, {"ip-defaults", "ips"},
}

// configsEntityTypes are the entity types ConfigCommand accepts with
// --bootstrap-server (BrokerSupportedConfigTypes: ConfigType.all, then
// broker-loggers and client-metrics).
var configsEntityTypes = []string{"topics", "clients", "users", "brokers", "ips", "broker-loggers", "client-metrics"}

// configsArgs is a kafka-configs command line as ConfigCommandOptions
// reads it.
type configsArgs struct {
	// args are the words as typed after the command's name, for the
	// error line.
	args []string
	// has holds the options given.
	has map[string]bool
	// types are the entity types (entityTypes: --entity-type's values,
	// then those of the entity flags given); names the entity names
	// (entityNames: --entity-name's values and "" for --entity-default in
	// the order given, then the entity flags' values, then "" for each
	// defaults flag).
	types, names []string
	// addConfig are --add-config's values (ConfigCommand reads one);
	// deleteConfig --delete-config's, each split at its commas.
	addConfig, deleteConfig []string
}

// parseConfigsArgs reads args as joptsimple reads them for
// ConfigCommandOptions: --name value or --name=value, an option's value
// the next word whatever it is, --delete-config's split at commas
// (java.util.StringTokenizer: no empty values; a value of commas alone
// is itself).
func parseConfigsArgs(args []string) (*configsArgs, error) {
	c := &configsArgs{args: args, has: map[string]bool{}}
	values := map[string][]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, inline := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		takes, known := configsOptions[name]
		switch {
		case !strings.HasPrefix(a, "--"):
			return nil, fmt.Errorf("%w: %q is not an option (kafka-configs takes options only)", ErrUsage, a)
		case !known:
			return nil, fmt.Errorf("%w: --%s is not an option of the terminal's kafka-configs", ErrUsage, name)
		case takes && !inline:
			if i+1 == len(args) {
				return nil, fmt.Errorf("%w: --%s takes a value", ErrUsage, name)
			}
			i++
			value = args[i]
		case !takes && inline:
			return nil, fmt.Errorf("%w: --%s takes no value", ErrUsage, name)
		}
		c.has[name] = true
		switch name {
		case "entity-type":
			c.types = append(c.types, value)
		case "entity-name":
			c.names = append(c.names, value)
		case "entity-default":
			c.names = append(c.names, "")
		case "delete-config":
			parts := slices.DeleteFunc(strings.Split(value, ","), func(s string) bool { return s == "" })
			if len(parts) == 0 {
				parts = []string{value}
			}
			for _, p := range parts {
				c.deleteConfig = append(c.deleteConfig, strings.TrimSpace(p))
			}
		default:
			values[name] = append(values[name], value)
		}
	}
	for _, f := range configsEntityFlags {
		if c.has[f.flag] {
			c.types = append(c.types, f.typ)
		}
	}
	for _, f := range configsEntityFlags {
		switch v := values[f.flag]; {
		case len(v) > 1:
			return nil, fmt.Errorf("%w: --%s once", ErrUsage, f.flag)
		case len(v) == 1:
			c.names = append(c.names, v[0])
		case c.has[f.flag]:
			c.names = append(c.names, "")
		}
	}
	c.addConfig = values["add-config"]
	if len(c.addConfig) > 1 {
		return nil, fmt.Errorf("%w: --add-config once, its configs separated by commas: k1=v1,k2=[v1,v2]", ErrUsage)
	}
	return c, nil
}

// check is ConfigCommandOptions.checkArgs, with --bootstrap-server taken
// as given (the checks of --zookeeper's and the brokers' and IPs' entity
// names are left out: those types are refused after it), then
// processCommand's check of the names for --alter. A usage error is
// CommandLineUtils.printUsageAndExit's message; another error is an
// IllegalArgumentException's.
func (c *configsArgs) check() error {
	alter, describe := c.has["alter"], c.has["describe"]
	if alter == describe {
		return fmt.Errorf("%w: Command must include exactly one action: --describe, --alter", ErrUsage)
	}
	for _, o := range []string{"add-config", "delete-config"} {
		if describe && c.has[o] {
			return fmt.Errorf("%w: Option \"[describe]\" can't be used with option \"[%s]\"", ErrUsage, o)
		}
	}
	var dup []string
	seen := map[string]bool{}
	for _, typ := range c.types {
		if seen[typ] {
			dup = append(dup, typ)
		}
		seen[typ] = true
	}
	if len(dup) > 0 {
		return kafkaMessagef("Duplicate entity type(s) specified: %s", strings.Join(dup, ","))
	}
	for _, typ := range c.types {
		if !slices.Contains(configsEntityTypes, typ) {
			return kafkaMessagef("Invalid entity type %s, the entity type must be one of %s with a --bootstrap-server or --bootstrap-controller argument", typ, strings.Join(configsEntityTypes, ", "))
		}
	}
	switch {
	case len(c.types) == 0:
		return kafkaMessage("At least one entity type must be specified")
	case len(c.types) > 1 && !(len(c.types) == 2 && seen["users"] && seen["clients"]):
		return kafkaMessage("Only 'users' and 'clients' entity types may be specified together")
	}
	if c.has["entity-name"] || c.has["entity-type"] || c.has["entity-default"] {
		for _, f := range configsEntityFlags {
			if c.has[f.flag] {
				return errors.New("--entity-{type,name,default} should not be used in conjunction with specific entity flags")
			}
		}
	}
	if alter {
		named := slices.ContainsFunc(c.names, func(n string) bool { return n != "" })
		if seen["users"] || seen["clients"] || seen["brokers"] || seen["ips"] {
			if len(c.names) == 0 {
				return errors.New("an entity-name or default entity must be specified with --alter of users, clients, brokers or ips")
			}
		} else if !named {
			return fmt.Errorf("an entity name must be specified with --alter of %s", strings.Join(c.types, ","))
		}
		if !c.has["add-config"] && !c.has["delete-config"] {
			return kafkaMessage("At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter")
		}
		if len(c.types) != len(c.names) {
			return kafkaMessage("An entity name must be specified for every entity type")
		}
	}
	return nil
}

// configArgError prints err as ConfigCommand.main prints an
// IllegalArgumentException (its message alone), and returns it as
// printed; a usage error is returned for the terminal to print.
func configArgError(out io.Writer, err error) error {
	if errors.Is(err, ErrUsage) {
		return err
	}
	fmt.Fprintln(out, err)
	return Printed{err}
}

// configsFailure is how a kafka-configs command failed: the exception
// ConfigCommand.main prints after "Error while executing config command
// with args '...'" (exception), or the message of one it prints alone
// (plain).
type configsFailure struct {
	exception, plain string
}

func (f *configsFailure) Error() string { return f.exception + f.plain }

// print prints the failure as ConfigCommand.main does (the first line of
// the stack trace only), and returns it as printed.
func (f *configsFailure) print(out io.Writer, args []string) error {
	if f.plain != "" {
		fmt.Fprintln(out, f.plain)
	} else {
		fmt.Fprintf(out, "Error while executing config command with args '%s'\n%s\n", strings.Join(args, " "), f.exception)
	}
	return Printed{f}
}

// unknownTopicFailure is DescribeConfigs' answer for a topic the cluster
// does not have, as the admin client raises it: Kafka 3.7's
// ConfigHelper.describeConfigs answers UNKNOWN_TOPIC_OR_PARTITION
// without a message, so the exception carries the error's default one.
var unknownTopicFailure = &configsFailure{exception: javaExecutionException + ": " + javaUnknownTopicOrPartition + ": This server does not host this topic-partition."}

// topicConfigsOf is ConfigCommand.getResourceConfig for a topic: its name
// checked (by the tool itself; the empty name, which the tool does not
// check, by the broker, whose answer comes wrapped as every answer does),
// then the cluster's configs of it.
func topicConfigsOf(w *cluster.World, name string) ([]cluster.TopicConfig, *configsFailure) {
	if err := cluster.CheckTopicName(name); err != nil {
		if name == "" {
			return nil, &configsFailure{exception: javaExecutionException + ": " + javaInvalidTopic + ": " + err.Error()}
		}
		return nil, &configsFailure{exception: javaInvalidTopic + ": " + err.Error()}
	}
	configs, err := w.TopicConfigs(name)
	if err != nil {
		return nil, unknownTopicFailure
	}
	return configs, nil
}

// dynamicTopicConfig is the source of a config the topic sets itself.
const dynamicTopicConfig = "DYNAMIC_TOPIC_CONFIG"

// describeConfigs is kafka-configs --describe --entity-type topics
// [--entity-name T] [--all], as Kafka 3.7's
// ConfigCommand.describeResourceConfig prints it: for the first name
// given, or every topic (the internal one included) without one, "Dynamic
// configs for topic T are:" ("All configs" with --all; "Default configs
// for topics in the cluster are:" for the empty name of --entity-default),
// then each config the topic sets itself (every config with --all),
// sorted by name, as "  name=value sensitive=false synonyms={...}"
// ([cluster.TopicConfig] Synonyms; no topic config is sensitive). The header comes before the topic is looked up, as
// in Kafka: an unknown topic's error follows it. Without a name the
// topics come sorted by name (Kafka lists them in the order of the admin
// client's HashMap).
func describeConfigs(s Session, c *configsArgs, out io.Writer) error {
	all := c.has["all"]
	return s.Look(func(w *cluster.World) error {
		var names []string
		if len(c.names) > 0 {
			names = c.names[:1]
		} else {
			for _, tp := range w.Topics() {
				names = append(names, tp.Name)
			}
			slices.Sort(names)
		}
		for _, name := range names {
			switch {
			case name == "":
				fmt.Fprintln(out, "Default configs for topics in the cluster are:")
			case all:
				fmt.Fprintf(out, "All configs for topic %s are:\n", name)
			default:
				fmt.Fprintf(out, "Dynamic configs for topic %s are:\n", name)
			}
			configs, failed := topicConfigsOf(w, name)
			if failed != nil {
				return failed.print(out, c.args)
			}
			var shown []cluster.TopicConfig
			for _, e := range configs {
				if all || e.Source == dynamicTopicConfig {
					fmt.Fprintf(out, "  %s=%s sensitive=false synonyms={%s}\n", e.Name, e.Value, synonymsString(e.Synonyms))
					shown = append(shown, e)
				}
			}
			if _, err := io.WriteString(out, segmentBytesNote(w, shown)); err != nil {
				return err
			}
		}
		return nil
	})
}

// kafka4MinSegmentBytes is the least segment.bytes Kafka 4.0 takes
// (KIP-1030: LogConfig's atLeast(1024 * 1024); 14 bytes before).
const kafka4MinSegmentBytes = 1 << 20

// segmentBytesNote is the terminal's own line (not Kafka's) after configs
// that list a segment.bytes below kafka4MinSegmentBytes under Kafka 4's
// rules: Kafka 4 refuses it, and this world takes it, so that segments
// roll while you watch; "" otherwise.
func segmentBytesNote(w *cluster.World, configs []cluster.TopicConfig) string {
	if w.Config().Rules < replica.V4 {
		return ""
	}
	for _, e := range configs {
		if n, err := strconv.ParseInt(e.Value, 10, 64); e.Name == "segment.bytes" && err == nil && n < kafka4MinSegmentBytes {
			return fmt.Sprintf("  (Kafka 4 refuses segment.bytes below %d, 1 MiB (KIP-1030); this world takes %d, so that you can watch segments roll)\n", kafka4MinSegmentBytes, n)
		}
	}
	return ""
}

// alterConfigs is kafka-configs --alter --entity-type topics
// --entity-name T [--add-config k1=v1,k2=[v1,v2]] [--delete-config
// k1,k2], as Kafka 3.7's ConfigCommand.alterConfig runs it for a topic:
// the configs to add parsed (parseConfigsToBeAdded) and those to delete
// (parseConfigsToBeDeleted), the topic's name checked and its configs
// described, a config to delete that the topic does not set itself
// refused ("Invalid config(s): k"), then one incrementalAlterConfigs of a
// SET for each config added and a DELETE for each deleted, which the
// cluster checks as Kafka's brokers and controller do
// ([cluster.World.AlterTopicConfigs]; a config both added and deleted is
// the broker's "Error due to duplicate config keys"). Done, it is an
// alter-configs action on the timeline: "Completed updating config for
// topic T." and the events.
func alterConfigs(s Session, c *configsArgs, out io.Writer) error {
	var add []cluster.ConfigOp
	if len(c.addConfig) > 0 {
		var err error
		if add, err = parseConfigsToBeAdded(c.addConfig[0], out); err != nil {
			return configArgError(out, err)
		}
	}
	name := c.names[0]
	var failed *configsFailure
	refused, err := s.Act(out, func(w *cluster.World) (cluster.Action, error) {
		configs, f := topicConfigsOf(w, name)
		if f != nil {
			failed = f
			return cluster.Action{}, f
		}
		var invalid []string
		for _, k := range c.deleteConfig {
			if !slices.ContainsFunc(configs, func(e cluster.TopicConfig) bool { return e.Name == k && e.Source == dynamicTopicConfig }) {
				invalid = append(invalid, k)
			}
		}
		if len(invalid) > 0 {
			failed = &configsFailure{plain: "Invalid config(s): " + strings.Join(invalid, ",")}
			return cluster.Action{}, failed
		}
		ops := slices.Clone(add)
		for _, k := range c.deleteConfig {
			ops = append(ops, cluster.ConfigOp{Name: k, Op: cluster.ConfigDelete, Value: new(string)})
		}
		a, err := w.AlterTopicConfigs(name, ops, false)
		if err != nil {
			failed = alterRefusal(err)
		}
		return a, err
	}, fmt.Sprintf("Completed updating config for topic %s.\n", name))
	switch {
	case err != nil:
		return err
	case refused == nil:
		return s.Look(func(w *cluster.World) error {
			configs, _ := topicConfigsOf(w, name)
			_, err := io.WriteString(out, segmentBytesNote(w, configs))
			return err
		})
	}
	return failed.print(out, c.args)
}

// alterRefusal is the exception the admin client raises for the
// cluster's refusal err ([javaException]), wrapped as
// incrementalAlterConfigs' future wraps it; an unknown topic as
// DescribeConfigs answers it (unknownTopicFailure).
func alterRefusal(err error) *configsFailure {
	if errors.Is(err, cluster.ErrUnknownTopicOrPartition) {
		return unknownTopicFailure
	}
	return &configsFailure{exception: javaExecutionException + ": " + javaException(err) + ": " + err.Error()}
}

// parseConfigsToBeAdded reads --add-config as Kafka 3.7's
// ConfigCommand.parseConfigsToBeAdded does: split at the commas outside
// square brackets, each part at its "=" outside them (with the spaces
// around it), into exactly a key and a value; the key trimmed, the value
// trimmed with every bracket removed (cleanup.policy=[compact,delete] is
// "compact,delete"); a key given twice keeps its last value
// (java.util.Properties); a key of characters other than
// [a-zA-Z0-9._-] is refused (validatePropsKey), after the warning the
// tool prints for message.format.version. Each config is a SET, in the
// order given.
func parseConfigsToBeAdded(s string, out io.Writer) ([]cluster.ConfigOp, error) {
	var ops []cluster.ConfigOp
	parts := splitOutsideBrackets(s, func(s string, i int) int {
		if s[i] == ',' {
			return 1
		}
		return 0
	}, false)
	for _, part := range parts {
		kv := splitOutsideBrackets(part, equalsAt, true)
		if len(kv) != 2 {
			return nil, kafkaMessage(`requirement failed: Invalid entity config: all configs to be added must be in the format "key=val".`)
		}
		k := javaTrim(kv[0])
		v := javaTrim(strings.NewReplacer("[", "", "]", "").Replace(kv[1]))
		if i := slices.IndexFunc(ops, func(op cluster.ConfigOp) bool { return op.Name == k }); i >= 0 {
			ops[i].Value = &v
			continue
		}
		ops = append(ops, cluster.ConfigOp{Name: k, Op: cluster.ConfigSet, Value: &v})
	}
	for _, op := range ops {
		if op.Name == "message.format.version" {
			fmt.Fprintf(out, "WARNING: The configuration message.format.version=%s is specified. This configuration will be ignored if the version is newer than the inter.broker.protocol.version specified in the broker or if the inter.broker.protocol.version is 3.0 or newer. This configuration is deprecated and it will be removed in Apache Kafka 4.0.\n", *op.Value)
		}
	}
	for _, op := range ops {
		if strings.ContainsFunc(op.Name, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
		}) {
			return nil, kafkaMessagef("Invalid character found for config key: %s", op.Name)
		}
	}
	return ops, nil
}

// equalsAt is the width of the separator `\s*=\s*` matched at s[i] (0 for
// none): Java's whitespace, an "=", whitespace.
func equalsAt(s string, i int) int {
	j := i
	for j < len(s) && javaSpace(s[j]) {
		j++
	}
	if j == len(s) || s[j] != '=' {
		return 0
	}
	for j++; j < len(s) && javaSpace(s[j]); j++ {
	}
	return j - i
}

// splitOutsideBrackets is Java's String.split of s at the separators
// sepAt finds (the width of one starting at s[i], or 0), each followed by
// ConfigCommand's lookahead (?=[^\]]*(?:\[|$)) (no "]" before the next
// "[" or the end: the separator is outside square brackets). Java drops
// the trailing empty parts unless keepTrailing (split's limit -1), and
// splitting "" gives [""].
func splitOutsideBrackets(s string, sepAt func(s string, i int) int, keepTrailing bool) []string {
	outside := func(j int) bool {
		for ; j < len(s); j++ {
			switch s[j] {
			case '[':
				return true
			case ']':
				return false
			}
		}
		return true
	}
	var parts []string
	start := 0
	for i := 0; i < len(s); {
		if n := sepAt(s, i); n > 0 && outside(i+n) {
			parts = append(parts, s[start:i])
			i += n
			start = i
			continue
		}
		i++
	}
	parts = append(parts, s[start:])
	if !keepTrailing && len(parts) > 1 {
		for len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
	}
	return parts
}

// javaSpace is a character of Java's regex \s: space, \t, \n, \x0B, \f,
// \r.
func javaSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\x0b' || b == '\f' || b == '\r'
}

// javaTrim is Java's String.trim: it removes the characters up to ' '
// from both ends.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// synonymsString prints a config's synonyms as
// ConfigCommand.describeResourceConfig does: SOURCE:name=value, separated
// by ", ".
func synonymsString(synonyms []cluster.ConfigSynonym) string {
	parts := make([]string, len(synonyms))
	for i, syn := range synonyms {
		parts[i] = syn.Source + ":" + syn.Name + "=" + syn.Value
	}
	return strings.Join(parts, ", ")
}
