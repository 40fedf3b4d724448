package observe

// Summary counts what a sample saw, as a status line or a page's header
// shows it.
type Summary struct {
	// BrokersUp are the brokers in state up.
	BrokersUp int `json:"brokers_up"`
	// UnderReplicated are the partitions whose ISR is smaller than their
	// replicas; Offline those without a leader.
	UnderReplicated int `json:"under_replicated"`
	Offline         int `json:"offline"`
	// Lag is the groups' lag summed over every partition whose lag was
	// observed (NotObserved when none was).
	Lag int64 `json:"lag"`
}

// Summarize counts s.
func Summarize(s *Sample) Summary {
	sum := Summary{Lag: NotObserved}
	for _, b := range s.Brokers {
		if b.State == BrokerUp {
			sum.BrokersUp++
		}
	}
	for _, p := range s.Partitions {
		switch {
		case p.Leader < 0:
			sum.Offline++
		case len(p.ISR) < len(p.Replicas):
			sum.UnderReplicated++
		}
	}
	for _, g := range s.Groups {
		for _, o := range g.Offsets {
			if o.Lag != NotObserved {
				sum.Lag = max(sum.Lag, 0) + o.Lag
			}
		}
	}
	return sum
}
