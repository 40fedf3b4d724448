package controller

import (
	"fmt"
	"strings"
)

// describeQuorum prints what DescribeQuorum answers of c's quorum
// (testdata/describequorum.txt: show describe).
func describeQuorum(c *Controller, env *fakeEnv) string {
	d, ok := c.DescribeQuorum(env)
	if !ok {
		return "no active controller\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "leader %d epoch %d hw %d\n", d.LeaderID, d.LeaderEpoch, d.HighWatermark)
	for _, r := range d.Voters {
		fmt.Fprintf(&b, "  voter %d leo %d fetch %d caught-up %d\n", r.ID, r.LogEndOffset, r.LastFetchMs, r.LastCaughtUpMs)
	}
	for _, r := range d.Observers {
		fmt.Fprintf(&b, "  observer %d leo %d fetch %d caught-up %d\n", r.ID, r.LogEndOffset, r.LastFetchMs, r.LastCaughtUpMs)
	}
	return b.String()
}
