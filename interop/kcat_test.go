package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
)

// kcatDriver is kcat (librdkafka) as a user types it: -P with -K: for
// keys, -C and -G with -J (one JSON object a record) and -e (exit at the
// partitions' ends). kcat says neither partitions nor offsets when it
// produces, and has no command for a group's offsets or for listing
// groups: those cells are skipped (the world's kafka-consumer-groups
// shows what its group committed).
type kcatDriver struct {
	lc   *liveCluster
	kcat string
}

func (d kcatDriver) run(ctx context.Context, stdin string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, d.kcat, append([]string{"-b", d.lc.bootstrap(3)}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("kcat %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

func (d kcatDriver) produce(ctx context.Context, t *testing.T, topic, acks string, recs []rec) ([]rec, error) {
	var in strings.Builder
	for _, r := range recs {
		fmt.Fprintf(&in, "%s:%s\n", r.Key, r.Value)
	}
	_, err := d.run(ctx, in.String(), "-P", "-t", topic, "-K:", "-X", "acks="+acks, "-X", "client.id=kcat-acks-"+acks)
	return recs, err
}

// kcatRec is one line of kcat -J.
type kcatRec struct {
	Partition int32   `json:"partition"`
	Offset    int64   `json:"offset"`
	Key       *string `json:"key"`
	Payload   *string `json:"payload"`
}

func parseKcat(out string) ([]rec, error) {
	var got []rec
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r kcatRec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("kcat -J line %q: %w", sc.Text(), err)
		}
		g := rec{Partition: r.Partition, Offset: r.Offset}
		if r.Key != nil {
			g.Key = []byte(*r.Key)
		}
		if r.Payload != nil {
			g.Value = []byte(*r.Payload)
		}
		got = append(got, g)
	}
	return got, sc.Err()
}

func (d kcatDriver) consumePlain(ctx context.Context, t *testing.T, topic string, partitions int32, n int) ([]rec, error) {
	out, err := d.run(ctx, "", "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-J", "-X", "client.id=kcat-plain")
	if err != nil {
		return nil, err
	}
	return parseKcat(out)
}

func (d kcatDriver) consumeGroup(ctx context.Context, t *testing.T, topic, group string, n int) ([]rec, error) {
	// -G commits as librdkafka's auto commit does, and on close
	out, err := d.run(ctx, "", "-G", group, topic, "-o", "beginning", "-e", "-q", "-J", "-X", "client.id=kcat-group")
	if err != nil {
		return nil, err
	}
	return parseKcat(out)
}

func (d kcatDriver) committed(context.Context, *testing.T, string, string, int32) (map[int32]int64, error) {
	return nil, fmt.Errorf("kcat: %w (kafka-consumer-groups --describe shows them)", errUnsupported)
}

func (d kcatDriver) listGroups(context.Context, *testing.T) ([]string, error) {
	return nil, fmt.Errorf("kcat: %w", errUnsupported)
}

func (d kcatDriver) describeGroup(context.Context, *testing.T, string) (groupDesc, error) {
	return groupDesc{}, fmt.Errorf("kcat: %w", errUnsupported)
}

func (d kcatDriver) deleteGroup(context.Context, *testing.T, string) error {
	return fmt.Errorf("kcat: %w (kafka-consumer-groups has it)", errUnsupported)
}

func (d kcatDriver) addPartitions(context.Context, *testing.T, string, int32) error {
	return fmt.Errorf("kcat: %w (kafka-topics --alter does it)", errUnsupported)
}

func (d kcatDriver) alterConfigs(context.Context, *testing.T, string, []cluster.ConfigOp) (string, error) {
	return "", fmt.Errorf("kcat: %w (it sends no DescribeConfigs, AlterConfigs or IncrementalAlterConfigs)", errUnsupported)
}

func (d kcatDriver) describeConfigs(context.Context, *testing.T, string) (map[string]configDesc, error) {
	return nil, fmt.Errorf("kcat: %w (it sends no DescribeConfigs, AlterConfigs or IncrementalAlterConfigs)", errUnsupported)
}

// TestKcat: kcat (Debian's kcat, librdkafka), whose default partitioner
// is consistent_random (CRC-32).
func TestKcat(t *testing.T) {
	t.Parallel()
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		missing(t, "kcat", "kcat", suiteOps)
	}
	lc := startLive(t, 1)
	runSuite(t, lc, "kcat", kcatDriver{lc: lc, kcat: kcat}, crc32Rule)
}
