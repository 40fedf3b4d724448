package group

// State is a classic group's state (ClassicGroupState.java).
type State int8

const (
	// Empty: no members. Committed offsets may remain; a simple (generation
	// -1) commit is allowed. The first join waits
	// group.initial.rebalance.delay.ms for more members.
	Empty State = iota
	// PreparingRebalance: waiting for every known member to (re)join, or for
	// the rebalance timeout, after which missing members are removed.
	PreparingRebalance
	// CompletingRebalance: the join phase is over (generation bumped); waiting
	// for the leader's SyncGroup with the assignment.
	CompletingRebalance
	// Stable: the assignment is handed out; heartbeats answer NONE.
	Stable
	// Dead: the group was deleted (or its coordinator moved); every request
	// for it fails.
	Dead
)

var stateNames = [...]string{"Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"}

// String returns Kafka's name for the state, e.g. PreparingRebalance.
func (s State) String() string {
	if int(s) < len(stateNames) && s >= 0 {
		return stateNames[s]
	}
	return "Unknown"
}
