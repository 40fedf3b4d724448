package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/txn"
)

// writeTxnMarkersReq answers a client's WriteTxnMarkers
// (KafkaApis.handleWriteTxnMarkersRequest): the broker's leaders append
// the markers (markers.go), and the request is answered once every one is
// written or refused. Admin clients send it to abort a hanging
// transaction (kafka-transactions abort, Admin.abortTransaction), to the
// leader of its partition.
func (rq *Requests) writeTxnMarkersReq(env Env, b *Broker, id uint64, x *Request, req *kmsg.WriteTxnMarkersRequest) {
	resp := req.ResponseKind().(*kmsg.WriteTxnMarkersResponse)
	msg := txn.WriteMarkers{Corr: rq.nextCorr()}
	for _, m := range req.Markers {
		ps := txnPartitions(m.Topics, func(t kmsg.WriteTxnMarkersRequestMarkerTopic) (string, []int32) { return t.Topic, t.Partitions })
		msg.Markers = append(msg.Markers, txn.Marker{ProducerID: m.ProducerID, Epoch: m.ProducerEpoch, Commit: m.Committed,
			CoordinatorEpoch: m.CoordinatorEpoch, Partitions: ps})
		noteTxn(env, x, "WriteTxnMarkers %s for producer id %d, epoch %d, coordinator epoch %d on %s", markerType(m.Committed), m.ProducerID, m.ProducerEpoch, m.CoordinatorEpoch, txn.PartitionsText(ps))
	}
	rq.waitTxn(b, id, req, resp, 0, nil, msg.Corr)
	b.WriteMarkers(env, clientNode(x.Client), msg)
}

// fillWriteMarkers writes the leaders' answer into resp.
func fillWriteMarkers(resp *kmsg.WriteTxnMarkersResponse, a txn.WriteMarkersResponse) {
	for _, res := range a.Results {
		rm := kmsg.NewWriteTxnMarkersResponseMarker()
		rm.ProducerID = res.ProducerID
		var topic *kmsg.WriteTxnMarkersResponseMarkerTopic
		for _, p := range res.Partitions {
			if topic == nil || topic.Topic != p.TP.Topic {
				rm.Topics = append(rm.Topics, kmsg.NewWriteTxnMarkersResponseMarkerTopic())
				topic = &rm.Topics[len(rm.Topics)-1]
				topic.Topic = p.TP.Topic
			}
			rp := kmsg.NewWriteTxnMarkersResponseMarkerTopicPartition()
			rp.Partition, rp.ErrorCode = p.TP.Partition, p.Error
			topic.Partitions = append(topic.Partitions, rp)
		}
		resp.Markers = append(resp.Markers, rm)
	}
}
