package replicatest

import (
	"fmt"

	"github.com/kafkalive/kafkalive/replica"
)

// Checker asserts the replication invariants over an
// environment after every step.
type Checker struct {
	// ISRAgreement also checks that every member of a leader's ISR holds
	// exactly the leader's records below the leader's HW (WeakIsr). Older
	// rule sets break it on purpose (KIP-101 part 3), and so does a power cut
	// of an ISR member.
	ISRAgreement bool
	leaderHW     map[leadership]int64
	// last is the last broken invariant reported, so that one that stays
	// broken is printed once.
	last string
}

type leadership struct {
	id    int32
	epoch int32
}

// Check returns the first broken invariant: HW ≤ LEO and log start ≤ HW on
// every live replica; a leader's HW never moves back within its leader
// epoch; and, if enabled, ISR agreement below the HW.
func (c *Checker) Check(env *InteractionEnv) error {
	if c.leaderHW == nil {
		c.leaderHW = map[leadership]int64{}
	}
	for _, p := range env.Peers {
		if p.Node == nil {
			continue
		}
		s := p.Node.Status()
		if pr := p.Node.Progress(); pr != (replica.Progress{Role: s.Role, LeaderEpoch: s.LeaderEpoch, PartitionEpoch: s.PartitionEpoch, LogStartOffset: s.LogStartOffset, LogEndOffset: s.LogEndOffset, HighWatermark: s.HighWatermark}) {
			return fmt.Errorf("broker %d: Progress %+v disagrees with its Status", p.ID, pr)
		}
		if s.HighWatermark > s.LogEndOffset || s.HighWatermark < s.LogStartOffset {
			return fmt.Errorf("broker %d: HW %d outside [log start %d, LEO %d]", p.ID, s.HighWatermark, s.LogStartOffset, s.LogEndOffset)
		}
		if s.Role != replica.RoleLeader {
			continue
		}
		key := leadership{p.ID, s.LeaderEpoch}
		if prev, ok := c.leaderHW[key]; ok && s.HighWatermark < prev {
			return fmt.Errorf("broker %d: leader HW moved back from %d to %d in epoch %d", p.ID, prev, s.HighWatermark, s.LeaderEpoch)
		}
		c.leaderHW[key] = s.HighWatermark
		if c.ISRAgreement {
			if err := c.checkISRAgreement(env, p, s); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *Checker) checkISRAgreement(env *InteractionEnv, leader *Peer, s replica.Status) error {
	want := leader.Log.Entries()
	for _, id := range s.ISR {
		f, err := env.Peer(id)
		if err != nil || id == leader.ID {
			continue
		}
		got := f.Log.Entries()
		for off := s.LogStartOffset; off < s.HighWatermark; off++ {
			i := int(off - s.LogStartOffset)
			if i >= len(got) || i >= len(want) {
				return fmt.Errorf("broker %d in leader %d's ISR lacks offset %d below HW %d", id, leader.ID, off, s.HighWatermark)
			}
			if got[i].LeaderEpoch != want[i].LeaderEpoch || string(got[i].Value) != string(want[i].Value) {
				return fmt.Errorf("broker %d in leader %d's ISR holds %s at offset %d, leader holds %s (HW %d)",
					id, leader.ID, DescribeEntries(got[i:i+1], -1, s.Rules), off, DescribeEntries(want[i:i+1], -1, s.Rules), s.HighWatermark)
			}
		}
	}
	return nil
}
