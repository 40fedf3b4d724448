//go:build !js

package web

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// advertiseCluster fills in the host and port of the brokers a
// DescribeCluster answer lists (advertised.listeners), as advertise does
// for Metadata: a broker without a listener is left out.
func advertiseCluster(srv *kafkawire.Server, resp kmsg.Response) {
	dc, ok := resp.(*kmsg.DescribeClusterResponse)
	if !ok {
		return
	}
	dc.Brokers = slices.DeleteFunc(dc.Brokers, func(b kmsg.DescribeClusterResponseBroker) bool {
		return srv.Addr(b.NodeID) == nil
	})
	for i := range dc.Brokers {
		dc.Brokers[i].Host, dc.Brokers[i].Port, _ = srv.Advertised(dc.Brokers[i].NodeID)
	}
	if dc.ControllerID >= 0 && srv.Addr(dc.ControllerID) == nil {
		dc.ControllerID = -1 // AuthHelper.computeDescribeClusterResponse: a controller not listed is -1
	}
}
