package cluster

import (
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/internal/clonetest"
	"github.com/kafkalive/kafkalive/replica"
)

// sharedOnPurpose lists the memory a world's clone shares with its
// original on purpose, nothing changing it in place, by path (indexes and
// keys left out) and type:
//   - the history (events, actions, snapshots, violations): shared until
//     either side appends, which copies (the slices are clipped);
//   - a mirror's entries and lazy batches, a log's index and epoch entries
//     (written in place by neither below what they share), the epochs
//     handed out (replaced on a change), the recovery report;
//   - a leader's producer runs (sealed chunks; the growing one is copied
//     by whichever side writes it first), and a log's producer state (its
//     map and lists, copied whole by whichever side writes first);
//   - requests and answers held by a coordinator or a consumer, a group
//     member's protocols and assignment (replaced, never changed), the
//     assignments and protocols held for group records being stored; a
//     consumer-protocol group's members and target lists, which its
//     coordinator replaces whole;
//   - a partition's record at the controller (copied by whichever side
//     changes it first), its replica, ISR, ELR and last known leader lists, a topic's
//     replica lists and configs (replaced on a change);
//   - what a broker's heartbeats report (netsim.Known: a new one made on a
//     change, never changed in place), held by the broker and by the
//     controller for the last heartbeat it found nothing stale in; the
//     partitions of a broker's last recovery-point-offset-checkpoint
//     (replaced whole by the next);
//   - configurations, a result's batch list and the results a request in
//     flight carried (set once, when sent);
//   - and, below, the file systems' frozen page tables and the blocks of
//     seq.Vec (producers' results, mirrors' chunks), which whichever side
//     writes copies first.
var sharedOnPurpose = map[string]bool{}

func init() {
	for _, p := range []string{
		"*.actions ([]cluster.Action)", "*.events ([]cluster.Event)", "*.snaps ([]cluster.snapshot)", "*.check.violations ([]cluster.Violation)",
		"*.internal ([]cluster.InternalError)",
		"*.brokers[]*.replicas[]*.Log*.m.chunks[].batch (*replicalog.LazyBatch)",
		"*.brokers[]*.replicas[]*.Log*.m.chunks[].entries ([]replica.Entry)",
		"*.brokers[]*.replicas[]*.Log*.epochs ([]replica.EpochEntry)",
		"*.brokers[]*.replicas[]*.Log*.damaged[].raw ([]uint8)",
		"*.brokers[]*.replicas[]*.Log*.log*.epochs*.entries ([]kafkalog.EpochEntry)",
		"*.brokers[]*.replicas[]*.Log*.log*.segments[]*.tidx*.entries ([]kafkalog.timeEntry)",
		"*.brokers[]*.replicas[]*.Log*.log*.segments[]*.oidx*.entries ([]kafkalog.offsetEntry)",
		"*.brokers[]*.replicas[]*.Log*.log*.segments[]*.txn*.entries ([]kafkalog.AbortedTxn)",
		"*.brokers[]*.replicas[]*.Log*.log*.producers.entries (map[int64]kafkalog.ProducerSnapshotEntry)",
		"*.brokers[]*.replicas[]*.Log*.log*.producers.ongoing ([]kafkalog.OngoingTxn)",
		"*.brokers[]*.replicas[]*.Log*.log*.producers.unreplicated ([]kafkalog.CompletedTxn)",
		"*.brokers[]*.replicas[]*.Log*.log*.calls.Refused ([]string)",
		"*.brokers[]*.coord*.awaiting[].Protocols ([]group.Protocol)",
		"*.brokers[]*.coord*.awaiting[].Assignments ([]group.MemberAssignment)",
		"*.brokers[]*.coord*.c*.groups[]*.members[]*.assignment ([]group.TopicPartition)",
		"*.brokers[]*.coord*.c*.groups[]*.members[]*.protocols ([]group.Protocol)",
		"*.brokers[]*.coord*.c*.groups[]*.members[]*.assignmentData ([]uint8)",
		"*.brokers[]*.coord*.c*.stores[].assignments ([]group.MemberAssignment)",
		"*.brokers[]*.coord*.c*.stores[].static.oldProtocols ([]group.Protocol)",
		"*.brokers[]*.coord*.parked[][].Response.Offsets ([]group.PartitionOffset)",
		"*.consumers[]*.grp*.outbox[].Protocols ([]group.Protocol)",
		"*.consumers[]*.grp*.outbox[].Offsets ([]group.PartitionOffset)",
		"*.ctl*.parts[] (*controller.partition)", "*.ctl*.parts[]*.isr ([]int32)", "*.ctl*.parts[]*.replicas ([]int32)",
		"*.ctl*.parts[]*.elr ([]int32)", "*.ctl*.parts[]*.lastELR ([]int32)",
		"*.ctl*.topics[].Assignment[] ([]int32)", "*.ctl*.topics[].Config (*kafkalog.Config)",
		"*.ctl*.topics[].Overrides ([]string)", "*.ctl*.topics[].UncleanLeaderElectionEnable (*bool)",
		"*.cfg.Group (*group.Config)", "*.cfg.ConsumerGroup (*group.ConsumerGroupConfig)", "*.brokers[]*.cfg.ConsumerGroup.Assignors ([]string)", "*.brokers[]*.coord*.cg*.cfg.Assignors ([]string)",
		"*.brokers[]*.coord*.cg*.groups[]*.members[] (*group.consumerMember)",
		"*.brokers[]*.coord*.cg*.groups[]*.target[] ([]group.TopicPartition)", "*.producers[]*.cfg.EnableIdempotence (*bool)", "*.producers[]*.cfg.Keys ([]string)",
		"*.consumers[]*.cfg.Assignors ([]string)", "*.consumers[]*.cfg.Topics ([]string)",
		"*.consumers[]*.grp*.member*.cfg.Assignors ([]group.Assignor)", "*.consumers[]*.grp*.member*.cfg.Topics ([]string)",
		"*.brokers[]*.beat.known (*netsim.Known)", "*.brokers[]*.recoveryCheckpointed ([]kafkalog.TopicPartition)", "*.ctl*.brokers[].upToDate.known (*netsim.Known)",
		"*.producers[]*.results[].batch ([]int)", "*.producers[]*.inflight[].results ([]int)",
	} {
		sharedOnPurpose[p] = true
	}
}

var indexes = regexp.MustCompile(`\[[^\]]*\]`)

// TestCloneSharesOnlyWhatNeverChanges: after any schedule of produces,
// group work and faults, a world's clone reaches no memory of the world's
// but what the world shares on purpose (sharedOnPurpose); the behavioural
// tests (snapshot_prop_test.go) check that the two then go on apart.
func TestCloneSharesOnlyWhatNeverChanges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1000).Draw(t, "seed")
		log := DefaultLogConfig()
		log.SegmentBytes, log.RetentionMs = 2048, 20_000
		w, err := New(Config{Seed: seed, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2, CombinedControllers: seed%2 == 0,
			Log: log, LogRetentionCheckIntervalMs: 5000, OffsetsTopicNumPartitions: 3, Timeline: TimelineConfig{SnapshotEveryMs: 2000}})
		if err != nil {
			t.Fatal(err)
		}
		_ = w.CreateTopic(TopicSpec{Name: "t", Partitions: 3, ReplicationFactor: 3})
		_ = w.AddProducer(ProducerConfig{Name: "p", Topic: "t", Keys: []string{"a", "b", "c"}, RecordsPerSec: 20})
		_ = w.AddProducer(ProducerConfig{Name: "q", Topic: "t", Acks: "1", LingerMs: 50, RecordsPerSec: 30})
		for _, name := range []string{"c1", "c2"} {
			_ = w.AddConsumer(ConsumerConfig{Name: name, Group: "g", Topics: []string{"t"}})
		}
		for _, a := range drawSchedule(t) {
			_ = w.Do(a)
		}
		for _, s := range clonetest.Shared(w, w.Clone()) {
			typ := s.Type().String()
			if typ == "*vfs.pageTable" && s.Value.Elem().FieldByName("frozen").Bool() || strings.HasPrefix(typ, "*seq.block[") {
				continue // shared until written: whichever side writes it copies it first (vfs, seq)
			}
			path := indexes.ReplaceAllString(s.Path, "[]")
			if strings.HasPrefix(path, "*.brokers[]*.replicas[]*.Log*.log*.report.") { // a log's recovery report: never changed after Open
				continue
			}
			if !sharedOnPurpose[path+" ("+typ+")"] {
				t.Fatalf("seed %d: the clone shares %s with the world", seed, s)
			}
		}
	})
}

// drawSchedule draws runs, faults and group work.
func drawSchedule(t *rapid.T) []Action {
	var out []Action
	for range rapid.IntRange(1, 12).Draw(t, "steps") {
		b := rapid.Int32Range(1, 3).Draw(t, "broker")
		switch rapid.IntRange(0, 7).Draw(t, "kind") {
		case 0:
			out = append(out, Action{Kind: ActKill, Broker: b})
		case 1:
			out = append(out, Action{Kind: ActPowerCut, Broker: b, Torn: rapid.Bool().Draw(t, "torn")})
		case 2:
			out = append(out, Action{Kind: ActStart, Broker: b})
		case 3:
			out = append(out, Action{Kind: ActCrashConsumer, Name: "c2"}, Action{Kind: ActRestartConsumer, Name: "c2"})
		case 4:
			out = append(out, Action{Kind: ActPartition, A: []int32{b}, B: []int32{1, 2, 3}})
		case 5:
			out = append(out, Action{Kind: ActHeal})
		}
		out = append(out, Action{Kind: ActRun, Ms: rapid.Int64Range(1, 8000).Draw(t, "run ms")})
	}
	return out
}
