//go:build !js

package web

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/replica"
)

// TestServedApiVersionsFollowTheRules: a world under Kafka 4's rules
// answers ApiVersions as Kafka 4.1 does (KIP-896's floors, 4.1's finalized
// features with transaction.version 2 and the versions it needs: Produce
// 12, EndTxn 5, TxnOffsetCommit 5), one under 3.7's as 3.7 does.
func TestServedApiVersionsFollowTheRules(t *testing.T) {
	for _, tc := range []struct {
		rules            replica.RuleSet
		offsetCommitMin  int16
		finalized        map[string]int16
		metadataVersions [2]int16
		txnMaxima        map[int16]int16
	}{
		{replica.V4, 2, map[string]int16{"metadata.version": 27, "group.version": 1, "kraft.version": 1, "eligible.leader.replicas.version": 1,
			"transaction.version": 2}, [2]int16{7, 27}, map[int16]int16{0: 12, 26: 5, 28: 5}},
		{replica.V3_7, 0, map[string]int16{"metadata.version": 19}, [2]int16{1, 19}, map[int16]int16{0: 10, 26: 3, 28: 3}},
	} {
		t.Run(tc.rules.String(), func(t *testing.T) {
			live, err := NewLiveConfig(cluster.Config{Seed: 1, Rules: tc.rules})
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			srv, err := StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
			require.NoError(t, err)
			cl, err := kgo.NewClient(kgo.SeedBrokers(srv.Addr(1).String()))
			require.NoError(t, err)
			defer cl.Close()
			resp, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, cl)
			require.NoError(t, err)
			require.Zero(t, resp.ErrorCode)
			maxima := map[int16]int16{}
			for _, k := range resp.ApiKeys {
				if k.ApiKey == 8 {
					require.Equal(t, tc.offsetCommitMin, k.MinVersion, "OffsetCommit's floor")
				}
				if _, ok := tc.txnMaxima[k.ApiKey]; ok {
					maxima[k.ApiKey] = k.MaxVersion
				}
			}
			require.Equal(t, tc.txnMaxima, maxima, "Produce's, EndTxn's and TxnOffsetCommit's maxima")
			got := map[string]int16{}
			for _, f := range resp.FinalizedFeatures {
				got[f.Name] = f.MaxVersionLevel
			}
			require.Equal(t, tc.finalized, got)
			for _, f := range resp.SupportedFeatures {
				if f.Name == "metadata.version" {
					require.Equal(t, tc.metadataVersions, [2]int16{f.MinVersion, f.MaxVersion})
				}
			}
		})
	}
}
