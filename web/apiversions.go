//go:build !js

package web

import (
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/replica"
)

// servedVersions is what the Kafka listeners advertise for a world of
// rules: Kafka 4.1's version floors and features under Kafka 4's rules
// (KIP-896, KIP-584), Kafka 3.7's under 3.7's and older (the wire layer
// speaks no protocol older than record batches v2 in any case).
func servedVersions(rules replica.RuleSet) ([]kafkawire.APIVersion, *kafkawire.Features) {
	if rules >= replica.V4 {
		f := kafkawire.Kafka41Features()
		return kafkawire.Kafka4APIVersions(), &f
	}
	f := kafkawire.Kafka37Features()
	return kafkawire.DefaultAPIVersions(), &f
}

// serveVersionsOf makes srv advertise what w's rules call for. A world
// replaced by one of other rules has had its connections closed first:
// clients ask ApiVersions again when they reconnect.
func serveVersionsOf(srv *kafkawire.Server, w *cluster.World) error {
	list, features := servedVersions(w.Config().Rules)
	return srv.SetVersions(list, features)
}
