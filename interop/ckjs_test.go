package interop

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// ckjsModules is the node_modules directory where .ci/install-clients
// installs Confluent's JavaScript client (@confluentinc/kafka-javascript,
// librdkafka inside): $KAFKALIVE_CKJS/node_modules, by default under the
// user's cache directory.
func ckjsModules() string {
	dir := os.Getenv("KAFKALIVE_CKJS")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(cache, "kafkalive-ckjs")
	}
	return filepath.Join(dir, "node_modules")
}

// findCKJS returns node and the modules directory when node and
// Confluent's JavaScript client are installed, "" otherwise.
func findCKJS() (node, modules string) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", ""
	}
	modules = ckjsModules()
	if _, err := os.Stat(filepath.Join(modules, "@confluentinc", "kafka-javascript", "package.json")); err != nil {
		return "", ""
	}
	return node, modules
}

// ckjsOutput is what ckjs_consume_group.js prints.
type ckjsOutput struct {
	Librdkafka string `json:"librdkafka"`
	Records    []struct {
		pyRec
		Member string `json:"member"`
	} `json:"records"`
}

// TestConfluentJSConsumerProtocol: librdkafka (2.15, through Confluent's
// JavaScript client) with group.protocol=consumer joins a group through
// KIP-848: two members split the topic's four partitions (the brokers'
// default assignor, uniform, as librdkafka names none), and every record
// produced is read exactly once, by its partition's owner.
func TestConfluentJSConsumerProtocol(t *testing.T) {
	t.Parallel()
	node, modules := findCKJS()
	if node == "" {
		missing(t, "confluent-js", "node with @confluentinc/kafka-javascript (bash .ci/install-clients)", []string{consumerProtocolOp})
		return
	}
	lc := startLive(t, 1)
	op(t, "confluent-js", consumerProtocolOp, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		topic, group := "interop-kip848-ckjs", "interop-kip848-ckjs-group"
		lc.createTopic(t, ctx, topic, kip848Partitions)
		const n = 40
		cmd := exec.CommandContext(ctx, node, "testdata/ckjs_consume_group.js", lc.bootstraps(), topic, group, "consumer",
			fmt.Sprint(n), fmt.Sprint((90 * time.Second).Milliseconds()))
		cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Start())
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("ckjs_consume_group.js stderr:\n%s", stderr.String())
			}
		})
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		waited := false
		defer func() {
			if !waited {
				_ = cmd.Process.Kill()
				<-exited
			}
		}()

		owner := lc.waitForSplit(ctx, t, group, "uniform")
		lc.checkListGroupsV5(ctx, t, group)
		sent := lc.produceToEach(ctx, t, topic, rand.New(rand.NewPCG(seedOf(t), 848)), n)
		err := <-exited
		waited = true
		require.NoError(t, err, "ckjs_consume_group.js:\n%s", stderr.String())
		t.Logf("ckjs_consume_group.js stderr:\n%s", stderr.String())
		var out ckjsOutput
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), "ckjs_consume_group.js printed %q", stdout.String())
		require.True(t, strings.HasPrefix(out.Librdkafka, "2."), "librdkafka %s", out.Librdkafka)
		var log memberReads
		for _, r := range out.Records {
			v, err := hex.DecodeString(r.Value)
			require.NoError(t, err)
			log.add(r.Member, v)
		}
		checkReadOnceByOwner(ctx, t, &log, sent, owner)
	})
}
