//go:build !js

package web

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// TestAdvertiseLeaders: the leaders a Produce or Fetch answer points a
// client to (KIP-951) get their listener's host and port; one without a
// listener is left out.
func TestAdvertiseLeaders(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2), nil)
	require.NoError(t, err)
	host, port, ok := srv.Advertised(2)
	require.True(t, ok)

	produce := kmsg.NewPtrProduceResponse()
	produce.Brokers = []kmsg.ProduceResponseBroker{{NodeID: 2}, {NodeID: 3}}
	advertiseLeaders(srv, produce)
	if diff := cmp.Diff([]kmsg.ProduceResponseBroker{{NodeID: 2, Host: host, Port: port}}, produce.Brokers, cmpopts.IgnoreUnexported(kmsg.Tags{})); diff != "" {
		t.Errorf("Produce's NodeEndpoints (-want +got):\n%s", diff)
	}
	fetch := kmsg.NewPtrFetchResponse()
	fetch.Brokers = []kmsg.FetchResponseBroker{{NodeID: 3}, {NodeID: 2}}
	advertiseLeaders(srv, fetch)
	if diff := cmp.Diff([]kmsg.FetchResponseBroker{{NodeID: 2, Host: host, Port: port}}, fetch.Brokers, cmpopts.IgnoreUnexported(kmsg.Tags{})); diff != "" {
		t.Errorf("Fetch's NodeEndpoints (-want +got):\n%s", diff)
	}
}
