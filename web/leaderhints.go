//go:build !js

package web

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// advertiseLeaders fills in the host and port of the leaders a Produce
// (v10+) or Fetch (v16+) answer points a client to (KIP-951's
// NodeEndpoints) from the listeners, as advertise does for Metadata; a
// leader without a listener is left out.
func advertiseLeaders(srv *kafkawire.Server, resp kmsg.Response) {
	switch r := resp.(type) {
	case *kmsg.ProduceResponse:
		r.Brokers = slices.DeleteFunc(r.Brokers, func(b kmsg.ProduceResponseBroker) bool { return srv.Addr(b.NodeID) == nil })
		for i := range r.Brokers {
			r.Brokers[i].Host, r.Brokers[i].Port, _ = srv.Advertised(r.Brokers[i].NodeID)
		}
	case *kmsg.FetchResponse:
		r.Brokers = slices.DeleteFunc(r.Brokers, func(b kmsg.FetchResponseBroker) bool { return srv.Addr(b.NodeID) == nil })
		for i := range r.Brokers {
			r.Brokers[i].Host, r.Brokers[i].Port, _ = srv.Advertised(r.Brokers[i].NodeID)
		}
	}
}
