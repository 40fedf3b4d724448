package broker

import (
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
)

// MarkLostAfterAck marks lost the records of k acknowledged to the
// clients at or above leo, and says so in an event: broker became k's
// leader in epoch with its log ending at leo, so the partition no longer
// holds them (an acks=1 write the followers never fetched, an unclean
// election, a power cut of the last in-sync replica, Kafka 0.10's
// truncation to the high watermark). The client still holds its
// acknowledgement.
func (rq *Requests) MarkLostAfterAck(env Env, broker int32, k tp, epoch int32, leo int64) {
	for i := range rq.clients {
		c := &rq.clients[i]
		n := 0
		for j := range c.acked {
			a := &c.acked[j]
			if a.tp != k || a.end <= leo {
				continue
			}
			from := max(a.start, leo)
			n += int(a.end - from)
			a.end = from // what stays below leo is still there
		}
		if n > 0 {
			c.LostAfterAck += n
			env.Record(event.Produce, broker, &k, "client %d: %d acknowledged record(s) lost from offset %d (broker %d leads epoch %d from offset %d)", c.Number, n, leo, broker, epoch, leo)
		}
	}
}

// ackedRange is a run of offsets [start, end) of tp acknowledged to a
// client.
type ackedRange struct {
	tp         tp
	start, end int64
}

// noteAcked keeps that c's records [base, base+n) of k were acknowledged,
// joining k's latest run when they follow it; over MaxAckedRanges runs the
// oldest is forgotten.
func (c *Client) noteAcked(k tp, base int64, n int) {
	if base < 0 || n <= 0 {
		return
	}
	for j := len(c.acked) - 1; j >= 0; j-- {
		if a := &c.acked[j]; a.tp == k {
			if a.end == base {
				a.end += int64(n)
				return
			}
			break
		}
	}
	if len(c.acked) >= MaxAckedRanges {
		c.acked = slices.Delete(c.acked, 0, 1)
	}
	c.acked = append(c.acked, ackedRange{tp: k, start: base, end: base + int64(n)})
}
