package cluster

// Lost after ack: a record its producer was told is stored (acks=1 or
// all, an offset in the answer) and that the partition no longer holds,
// because a replica that lacks it became leader: its log ended at or
// before the record's offset when it took over (an acks=1 write the
// followers never fetched, an unclean election, a power cut of the last
// in-sync replica, Kafka 0.10's truncation to the high watermark). The
// producer still holds its acknowledgement; the world marks the record
// lost (Result.Lost, ExternalClient.LostAfterAck) and says so in an event.

// markLostAfterAck marks the acknowledged records of tp at or above leo
// lost: broker became tp's leader in epoch with its log ending at leo.
func (w *World) markLostAfterAck(broker int32, tp partitionKey, epoch int32, leo int64) {
	for _, p := range w.producers {
		if p.Config().Topic != tp.Topic {
			continue
		}
		if lost := p.MarkLost(tp.Partition, leo); len(lost) > 0 {
			w.record(EventProduce, broker, &tp, "producer %s: %d acknowledged record(s) lost: %v (broker %d leads epoch %d from offset %d)", p.Name(), len(lost), lost, broker, epoch, leo)
		}
	}
	for i := range w.ext.clients {
		c := &w.ext.clients[i]
		n := 0
		for j := range c.acked {
			a := &c.acked[j]
			if a.tp != tp || a.end <= leo {
				continue
			}
			from := max(a.start, leo)
			n += int(a.end - from)
			a.end = from // what stays below leo is still there
		}
		if n > 0 {
			c.LostAfterAck += n
			w.record(EventProduce, broker, &tp, "client %d: %d acknowledged record(s) lost from offset %d (broker %d leads epoch %d from offset %d)", c.Number, n, leo, broker, epoch, leo)
		}
	}
}

// ackedRange is a run of offsets [start, end) of tp acknowledged to an
// external client.
type ackedRange struct {
	tp         partitionKey
	start, end int64
}

// noteAcked keeps that c's records [base, base+n) of tp were acknowledged,
// joining the run before when they follow it.
func (c *ExternalClient) noteAcked(tp partitionKey, base int64, n int) {
	if base < 0 || n <= 0 {
		return
	}
	if k := len(c.acked); k > 0 && c.acked[k-1].tp == tp && c.acked[k-1].end == base {
		c.acked[k-1].end += int64(n)
		return
	}
	c.acked = append(c.acked, ackedRange{tp: tp, start: base, end: base + int64(n)})
}
