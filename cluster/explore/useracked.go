package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// checkAcked: every record acknowledged with acks=all is at its offset
// on the leader (unless retention deleted it), and no follower differs
// from the leader below the high watermark. On a partition whose files
// were damaged on one broker, a record missing from the leader is not
// lost while an in-sync replica has it, and the damaged replica (every
// replica, when it leads) is not compared; one damaged on more brokers
// is not judged. A follower that holds at an offset exactly what a
// damaged replica holds there, unlike the leader, got it from that
// replica while it led: a flipped byte of a batch's partition leader
// epoch lies outside the CRC, and passes a follower's checks as it
// passes Kafka's (UnifiedLog.analyzeAndValidateRecords), so it is not
// counted as a divergence.
func (u *userRun) checkAcked(st cluster.State) {
	type part struct {
		info    *cluster.PartitionInfo
		records map[int64]cluster.RecordInfo
		damaged []int32
	}
	parts := map[cluster.PartitionRef]*part{}
	for i := range st.Partitions {
		p := &st.Partitions[i]
		ref := cluster.PartitionRef{Topic: p.Topic, Partition: p.Partition}
		pp := &part{info: p, records: map[int64]cluster.RecordInfo{}, damaged: u.damagedOn(ref)}
		var fromDamaged []map[int64]cluster.RecordInfo // the damaged replicas' records
		for _, l := range p.Logs {
			if slices.Contains(pp.damaged, l.Broker) {
				recs := map[int64]cluster.RecordInfo{}
				for _, r := range l.Records {
					recs[r.Offset] = r
				}
				fromDamaged = append(fromDamaged, recs)
			}
		}
		propagated := func(r cluster.RecordInfo) bool {
			for _, recs := range fromDamaged {
				if d, ok := recs[r.Offset]; ok && d.Key == r.Key && d.Value == r.Value && d.LeaderEpoch == r.LeaderEpoch && d.Tombstone == r.Tombstone {
					return true
				}
			}
			return false
		}
		for _, l := range p.Logs {
			if l.Broker == p.Leader {
				for _, r := range l.Records {
					pp.records[r.Offset] = r
				}
				continue
			}
			if slices.Contains(pp.damaged, l.Broker) || slices.Contains(pp.damaged, p.Leader) {
				continue
			}
			for _, r := range l.Records {
				if r.DiffersFromLeader && r.Offset < p.HighWatermark && !propagated(r) {
					d := fmt.Sprintf("%s-%d: b%d differs from leader b%d at offset %d", p.Topic, p.Partition, l.Broker, p.Leader, r.Offset)
					u.out.Diverged = append(u.out.Diverged, d)
					u.fail("diverged", "%s", d)
					break
				}
			}
		}
		parts[ref] = pp
	}
	for _, p := range u.w.Producers() {
		cfg := p.Config()
		for _, r := range p.Results() {
			if !r.Acked || r.Offset < 0 || r.Acks != -1 {
				continue
			}
			pp := parts[cluster.PartitionRef{Topic: cfg.Topic, Partition: r.Partition}]
			if pp == nil || r.Offset < pp.info.LogStartOffset || len(pp.damaged) > 1 {
				continue
			}
			u.out.Acked++
			got, ok := pp.records[r.Offset]
			if ok && got.Value == r.Value && got.Key == r.Key {
				continue
			}
			if len(pp.damaged) == 1 && (inISRReplica(pp.info, r.Offset, r.Key, r.Value) || u.aloneInISR(pp.info, pp.damaged[0])) {
				continue
			}
			l := fmt.Sprintf("%s %s-%d@%d %q", cfg.Name, cfg.Topic, r.Partition, r.Offset, short(r.Value))
			u.out.Lost = append(u.out.Lost, l)
			if len(u.out.Lost) == 1 {
				if len(pp.damaged) == 1 {
					u.fail("acked-loss", "acknowledged with acks=all, damaged on b%d only and held by no in-sync replica (leader b%d, isr %v): %s", pp.damaged[0], pp.info.Leader, pp.info.ISR, l)
					continue
				}
				u.fail("acked-loss", "acknowledged with acks=all and gone from leader b%d: %s (there: %q)", pp.info.Leader, l, short(got.Value))
			}
		}
	}
}

// inISRReplica reports whether an in-sync replica of p holds the record
// (key, value) at offset.
func inISRReplica(p *cluster.PartitionInfo, offset int64, key, value string) bool {
	for _, l := range p.Logs {
		if !slices.Contains(p.ISR, l.Broker) {
			continue
		}
		for _, r := range l.Records {
			if r.Offset == offset && r.Key == key && r.Value == value {
				return true
			}
		}
	}
	return false
}

// aloneInISR reports whether the damaged broker id was, since the damage
// to partition p, the only member of its ISR, or was elected its last
// known leader (or whether that cannot be told: the events since fell off
// the timeline): it then led, or would have, with what its damaged log
// kept (a recovery may have cut it at the damage, a wipe emptied it), and
// Kafka promises nothing of the records it lost. Kafka 4's controller
// elects the last known leader when the ISR and the ELR are empty, and
// counts that election unclean (PartitionChangeBuilder.electAnyLeader's
// ElectionResult(lastKnownElr[0], true), KIP-966), even with
// unclean.leader.election.enable off.
func (u *userRun) aloneInISR(p *cluster.PartitionInfo, id int32) bool {
	since := -1
	for _, d := range u.damage {
		if d.broker == id && d.tp == (cluster.PartitionRef{Topic: p.Topic, Partition: p.Partition}) && (since < 0 || d.action < since) {
			since = d.action
		}
	}
	evs := u.w.Events()
	if len(evs) == 0 || evs[0].Step > since {
		return true
	}
	alone := fmt.Sprintf("isr [%d]", id)
	again := fmt.Sprintf("isr is now [%d]", id)
	lastKnown := fmt.Sprintf("elected the last known leader: leader %d,", id)
	for _, e := range evs {
		if e.Step >= since && e.Topic == p.Topic && e.Partition == p.Partition &&
			(strings.HasSuffix(e.Text, alone) || strings.HasSuffix(e.Text, again) || strings.Contains(e.Text, lastKnown)) {
			return true
		}
	}
	return false
}

// damagedOn lists the brokers on which a corrupt action damaged a file of
// partition tp.
func (u *userRun) damagedOn(tp cluster.PartitionRef) []int32 {
	var out []int32
	for _, d := range u.damage {
		if d.tp == tp && !slices.Contains(out, d.broker) {
			out = append(out, d.broker)
		}
	}
	return out
}
