package interop

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
)

// findPython returns a python3 that imports module: the one on the PATH or
// Debian's /usr/bin/python3 (where apt-get installs python3-kafka and
// python3-confluent-kafka), "" when none does.
func findPython(module string) string {
	var cands []string
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	cands = append(cands, "/usr/bin/python3")
	for _, p := range cands {
		if exec.Command(p, "-c", "import "+module).Run() == nil {
			return p
		}
	}
	return ""
}

// pyRec is a record as the Python scripts read and write it.
type pyRec struct {
	Key       string `json:"key"`
	Value     string `json:"value"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
}

// pythonDriver runs one of the scripts in testdata for every operation.
type pythonDriver struct {
	lc        *liveCluster
	python    string
	script    string
	bootstrap string
}

func (d pythonDriver) run(ctx context.Context, t *testing.T, stdin any, out any, args ...string) error {
	var in []byte
	if stdin != nil {
		var err error
		if in, err = json.Marshal(stdin); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, d.python, append([]string{"testdata/" + d.script, args[0], d.bootstrap}, args[1:]...)...)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", d.script, strings.Join(args, " "), err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Logf("%s %s stderr:\n%s", d.script, args[0], stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		return fmt.Errorf("%s %s printed %q: %w", d.script, args[0], stdout.String(), err)
	}
	return nil
}

func fromPy(rs []pyRec) ([]rec, error) {
	out := make([]rec, len(rs))
	for i, r := range rs {
		k, err := hex.DecodeString(r.Key)
		if err != nil {
			return nil, err
		}
		v, err := hex.DecodeString(r.Value)
		if err != nil {
			return nil, err
		}
		out[i] = rec{Key: k, Value: v, Partition: r.Partition, Offset: r.Offset}
	}
	return out, nil
}

func (d pythonDriver) records(ctx context.Context, t *testing.T, stdin any, args ...string) ([]rec, error) {
	var got []pyRec
	if err := d.run(ctx, t, stdin, &got, args...); err != nil {
		return nil, err
	}
	return fromPy(got)
}

func (d pythonDriver) produce(ctx context.Context, t *testing.T, topic, acks string, recs []rec) ([]rec, error) {
	in := make([]pyRec, len(recs))
	for i, r := range recs {
		in[i] = pyRec{Key: hex.EncodeToString(r.Key), Value: hex.EncodeToString(r.Value)}
	}
	return d.records(ctx, t, in, "produce", topic, acks)
}

func (d pythonDriver) consumePlain(ctx context.Context, t *testing.T, topic string, partitions int32, n int) ([]rec, error) {
	return d.records(ctx, t, nil, "consume-plain", topic, fmt.Sprint(partitions), fmt.Sprint(n))
}

func (d pythonDriver) consumeGroup(ctx context.Context, t *testing.T, topic, group string, n int) ([]rec, error) {
	return d.records(ctx, t, nil, "consume-group", topic, group, fmt.Sprint(n))
}

func (d pythonDriver) committed(ctx context.Context, t *testing.T, group, topic string, partitions int32) (map[int32]int64, error) {
	var got map[string]int64
	if err := d.run(ctx, t, nil, &got, "committed", group, topic, fmt.Sprint(partitions)); err != nil {
		return nil, err
	}
	out := map[int32]int64{}
	for p, o := range got {
		n, err := strconv.ParseInt(p, 10, 32)
		if err != nil {
			return nil, err
		}
		out[int32(n)] = o
	}
	return out, nil
}

func (d pythonDriver) listGroups(ctx context.Context, t *testing.T) ([]string, error) {
	var got []string
	err := d.run(ctx, t, nil, &got, "list-groups")
	return got, err
}

func (d pythonDriver) describeGroup(ctx context.Context, t *testing.T, group string) (groupDesc, error) {
	var got struct {
		State        string `json:"state"`
		ProtocolType string `json:"protocol_type"`
		Members      int    `json:"members"`
	}
	err := d.run(ctx, t, nil, &got, "describe-group", group)
	return groupDesc{State: got.State, ProtocolType: got.ProtocolType, Members: got.Members}, err
}

func (d pythonDriver) deleteGroup(ctx context.Context, t *testing.T, group string) error {
	var done bool
	if err := d.run(ctx, t, nil, &done, "delete-group", group); err != nil {
		return err
	}
	if !done {
		return fmt.Errorf("%s: %w (this version's admin client has no DeleteGroups)", d.script, errUnsupported)
	}
	return nil
}

func (d pythonDriver) addPartitions(ctx context.Context, t *testing.T, topic string, count int32) error {
	var done bool
	if err := d.run(ctx, t, nil, &done, "add-partitions", topic, fmt.Sprint(count)); err != nil {
		return err
	}
	if !done {
		return fmt.Errorf("%s add-partitions: not done", d.script)
	}
	return nil
}

// pyConfigOp is a config operation as the Python scripts read it: op is
// Kafka's name of it (SET, DELETE, APPEND, SUBTRACT).
type pyConfigOp struct {
	Op    string  `json:"op"`
	Name  string  `json:"name"`
	Value *string `json:"value"`
}

// alterConfigs runs the script's alter-configs, which prints the request
// its admin client sent.
func (d pythonDriver) alterConfigs(ctx context.Context, t *testing.T, topic string, ops []cluster.ConfigOp) (string, error) {
	in := make([]pyConfigOp, len(ops))
	for i, o := range ops {
		in[i] = pyConfigOp{Op: o.Op.String(), Name: o.Name, Value: o.Value}
	}
	var api string
	err := d.run(ctx, t, in, &api, "alter-configs", topic)
	return api, err
}

// describeConfigs runs the script's describe-configs, which prints each
// config's value and source as the protocol numbers it (the client's
// ConfigSource), named here by kmsg.
func (d pythonDriver) describeConfigs(ctx context.Context, t *testing.T, topic string) (map[string]configDesc, error) {
	var got map[string]struct {
		Value  *string `json:"value"`
		Source int8    `json:"source"`
	}
	if err := d.run(ctx, t, nil, &got, "describe-configs", topic); err != nil {
		return nil, err
	}
	out := map[string]configDesc{}
	for name, c := range got {
		d := configDesc{Source: kmsg.ConfigSource(c.Source).String()}
		if c.Value != nil {
			d.Value = *c.Value
		}
		out[name] = d
	}
	return out, nil
}

// crc32Rule is librdkafka's default partitioner, consistent_random: the
// CRC-32 (IEEE, zlib's) of the key modulo the partitions, unsigned
// (rd_kafka_msg_partitioner_consistent_random); not the Java client's
// murmur2.
var crc32Rule = partitionRule{"CRC-32 (librdkafka's consistent_random)", func(key []byte, n int32) int32 {
	return int32(crc32.ChecksumIEEE(key) % uint32(n))
}}

// TestKafkaPython: kafka-python (Debian's python3-kafka), whose
// DefaultPartitioner is the Java client's murmur2.
func TestKafkaPython(t *testing.T) {
	t.Parallel()
	py := findPython("kafka")
	if py == "" {
		missing(t, "kafka-python", "python3-kafka", suiteOps)
	}
	lc := startLive(t, 1)
	runSuite(t, lc, "kafka-python", pythonDriver{lc: lc, python: py, script: "kafka_python_client.py", bootstrap: lc.bootstrap(1)}, murmur2)
}

// TestConfluentKafka: confluent-kafka-python (Debian's
// python3-confluent-kafka) over librdkafka, whose default partitioner is
// consistent_random (CRC-32).
func TestConfluentKafka(t *testing.T) {
	t.Parallel()
	py := findPython("confluent_kafka")
	if py == "" {
		missing(t, "confluent-kafka", "python3-confluent-kafka", suiteOps)
	}
	lc := startLive(t, 1)
	runSuite(t, lc, "confluent-kafka", pythonDriver{lc: lc, python: py, script: "confluent_kafka_client.py", bootstrap: lc.bootstrap(2)}, crc32Rule)
}
