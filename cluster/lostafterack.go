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
	w.reqs.MarkLostAfterAck(w.env(), broker, tp, epoch, leo)
}
