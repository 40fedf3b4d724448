package cluster

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// What the packages above the World read of it besides [World.State]: the
// explorers (cluster/explore), which judge a world as a whole, and Kafka's
// command-line tools (internal/kafkatools), which print what Kafka's print.
// Each is a read: none changes the world.

// ConsumerNode is the network node of the world's consumers (all of them:
// an [ActPartition] that cuts it from a broker cuts every consumer).
const ConsumerNode = netsim.ConsumerNode

// ProducerNode returns the network node of the world's i-th producer
// (0-based, in the order they were added), for [ActPartition].
func ProducerNode(i int) int32 { return netsim.ProducerBase + int32(i) }

// ActionCount returns how many actions the world has taken since it
// started, those fallen off its timeline (TimelineConfig.KeepMs) included:
// [World.Actions] holds the last ones, and [World.At] takes an action's
// index from ActionCount()-len(Actions()) to ActionCount()-1.
func (w *World) ActionCount() int { return w.actionBase + len(w.actions) }

// BrokerSession is the controller's record of a broker's session beside
// the broker's own heartbeat schedule: whether the controller counts the
// broker as alive, and until when it will.
type BrokerSession struct {
	// Unfenced: the controller has the broker registered and not fenced.
	Unfenced bool
	// CurrentIncarnation: that registration is of the process that runs
	// now (no restart is still on its way to the controller).
	CurrentIncarnation bool
	// LastHeartbeatMs is when the controller last heard from the broker;
	// the controller fences it once broker.session.timeout.ms passes
	// after that ([Config.BrokerSessionTimeoutMs]).
	LastHeartbeatMs int64
	// NextHeartbeatMs is when the broker sends its next heartbeat.
	NextHeartbeatMs int64
}

// BrokerSession returns broker id's session as the controller has it;
// false when there is no such broker.
func (w *World) BrokerSession(id int32) (BrokerSession, bool) {
	b, err := w.broker(id)
	if err != nil {
		return BrokerSession{}, false
	}
	r := w.ctl.Registration(id)
	return BrokerSession{Unfenced: w.ctl.Unfenced(id), CurrentIncarnation: r.Incarnation == b.Incarnation(),
		LastHeartbeatMs: w.cfg.worldMs(r.LastHeartbeatMs), NextHeartbeatMs: w.cfg.worldMs(b.NextHeartbeatMs())}, true
}

// StartFailurePath returns the path under [LogDir] (a partition directory
// or a checkpoint file) whose file failed broker id's last start: what an
// operator wipes ([ActWipe]) before starting it again. It is "" unless the
// broker is [BrokerFailed] ([World.StartFailure] says why).
func (w *World) StartFailurePath(id int32) string {
	b, err := w.broker(id)
	if err != nil || b.State() != BrokerFailed {
		return ""
	}
	_, path := b.Failure()
	return path
}

// DurableFileSize returns how many bytes of file name (a path under
// [LogDir], such as "orders-0/00000000000000000000.log") are on broker
// id's disk: those its last sync made durable, which a power cut keeps.
// False when the broker or the file does not exist.
func (w *World) DurableFileSize(id int32, name string) (int64, bool) {
	b, err := w.broker(id)
	if err != nil {
		return 0, false
	}
	n, _, err := b.FS().SizeOnDisk(LogDir + "/" + name)
	return n, err == nil
}

// MirrorProblem checks the in-memory copy every running replica keeps of
// its log (its mirror) against its segment files, decoded from its log
// start on, and returns the first difference ("broker 2's orders-0: ...");
// "" when every mirror holds what its files hold. A replica whose files
// hold damaged bytes is left out: its mirror holds what decodes.
func (w *World) MirrorProblem() string {
	for _, b := range w.brokers {
		if b.State() != BrokerRunning {
			continue
		}
		for _, tp := range b.Partitions() {
			s := b.Partition(tp)
			if s == nil || s.Log.Damaged() {
				continue
			}
			if problem := s.Log.MirrorProblem(); problem != "" {
				return fmt.Sprintf("broker %d's %s: %s", b.ID(), tp, problem)
			}
		}
	}
	return ""
}

// TopicSettings are the settings a topic's partitions follow: its own
// where it sets them, else the brokers'.
type TopicSettings struct {
	// Log is the topic's log configuration (its own, else [Config.Log]).
	Log kafkalog.Config
	// MinInsyncReplicas is its min.insync.replicas.
	MinInsyncReplicas int
	// UncleanLeaderElectionEnable is its unclean.leader.election.enable.
	UncleanLeaderElectionEnable bool
}

// TopicSettings returns the settings topic's partitions follow; false for
// a topic the world does not have.
func (w *World) TopicSettings(topic string) (TopicSettings, bool) {
	if w.ctl.Topic(topic) == nil {
		return TopicSettings{}, false
	}
	s := w.ctl.Settings(topic)
	return TopicSettings{Log: s.Log, MinInsyncReplicas: s.MinInsyncReplicas, UncleanLeaderElectionEnable: s.UncleanLeaderElectionEnable}, true
}

// NonDefaultTopicConfigs returns topic's configs whose value is not Kafka's
// default, as name=value (ConfigEntry.isDefault is false for a topic's
// overrides and the brokers' settings alike, so the world's [Config.Log]
// shows on every topic): the log configs first, in alphabetical order,
// then min.insync.replicas and unclean.leader.election.enable, those
// named in skip left out (a topic the world does not have has the
// brokers'). kafka-topics --describe lists them in its Configs column.
func (w *World) NonDefaultTopicConfigs(topic string, skip ...string) []string {
	return topicconfig.Column(w.ctl.Settings(topic), skip...)
}
