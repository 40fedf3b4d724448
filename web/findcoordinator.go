//go:build !js

package web

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// advertiseCoordinators fills in the host and port of the coordinators a
// FindCoordinator answer names (advertised.listeners), as advertise does
// for Metadata; a coordinator without a listener is COORDINATOR_NOT_AVAILABLE.
func advertiseCoordinators(srv *kafkawire.Server, resp kmsg.Response) {
	fc, ok := resp.(*kmsg.FindCoordinatorResponse)
	if !ok {
		return
	}
	fill := func(node *int32, host *string, port *int32, code *int16) {
		if *code != 0 || *node < 0 {
			return
		}
		h, p, ok := srv.Advertised(*node)
		if !ok {
			*node, *port, *code = -1, -1, 15
			return
		}
		*host, *port = h, p
	}
	fill(&fc.NodeID, &fc.Host, &fc.Port, &fc.ErrorCode)
	for i := range fc.Coordinators {
		c := &fc.Coordinators[i]
		fill(&c.NodeID, &c.Host, &c.Port, &c.ErrorCode)
	}
}
