package web

import (
	"slices"
	"strconv"

	"github.com/kafkalive/kafkalive/cluster"
)

// KafkaView is what the page shows of real Kafka clients: the brokers'
// listeners, the connections open now, and what the brokers saw of each
// client (the world's record: cluster.World.ExternalClients).
type KafkaView struct {
	// Listeners are "1 127.0.0.1:9092"..., one per broker.
	Listeners []string `json:"listeners"`
	// Connections counts the open connections.
	Connections int `json:"connections"`
	// Clients are the clients the world has seen, by number.
	Clients []KafkaClientView `json:"clients,omitempty"`
	// Notice is why the connections were last closed all at once (the
	// world went back in time, was reset), "" if never.
	Notice string `json:"notice,omitempty"`
	// PausedNote, while the clock is paused and clients are connected,
	// says that they will time out.
	PausedNote string `json:"paused_note,omitempty"`
}

// KafkaClientView is one external client.
type KafkaClientView struct {
	// Number is what "cut client N" names.
	Number   int32  `json:"n"`
	ClientID string `json:"client_id"`
	Remote   string `json:"remote"`
	// Connections counts its open connections.
	Connections int `json:"connections"`
	// Acks is the acks of its latest produce, "" if it never produced;
	// Idempotent whether its batches carry a producer id.
	Acks       string `json:"acks,omitempty"`
	Idempotent bool   `json:"idempotent,omitempty"`
	// Sent, Acked and Failed count its records as the leaders answered
	// them; Fetched the record bytes its fetches got.
	Sent    int   `json:"sent"`
	Acked   int   `json:"acked"`
	Failed  int   `json:"failed"`
	Fetched int64 `json:"fetched_bytes"`
	// Requests counts its requests by api name.
	Requests  map[string]int `json:"requests,omitempty"`
	LastError string         `json:"last_error,omitempty"`
	// Cut lists the brokers whose link to it is cut.
	Cut []int32 `json:"cut,omitempty"`
}

// decorateKafka adds the Kafka clients to a view; l.mu is held.
func (l *Live) decorateKafka(v *View) {
	k := l.kafka
	if k == nil {
		return
	}
	w := l.world()
	k.mu.Lock()
	defer k.mu.Unlock()
	kv := &KafkaView{Connections: len(k.conns), Notice: k.notice}
	if k.srv != nil {
		for _, id := range k.srv.Brokers() {
			if a := k.srv.Addr(id); a != nil {
				kv.Listeners = append(kv.Listeners, strconv.Itoa(int(id))+" "+a.String())
			}
		}
	}
	perClient := map[string]int{}
	for _, c := range k.conns {
		perClient[c.ClientID]++
	}
	for _, c := range w.ExternalClients() {
		cv := KafkaClientView{Number: c.Number, ClientID: c.ClientID, Remote: c.Remote, Connections: perClient[c.ClientID],
			Acks: c.Acks, Idempotent: c.Idempotent, Sent: c.Sent, Acked: c.Acked, Failed: c.Failed, Fetched: c.Fetched,
			Requests: c.Requests, LastError: c.LastError}
		if k.clients[c.ClientID] != c.Number {
			cv.Connections = 0 // a number the world gave another client before a fork
		}
		for id := int32(1); id <= int32(w.Config().Brokers); id++ {
			if w.LinkCut(id, cluster.ExternalNode(c.Number)) {
				cv.Cut = append(cv.Cut, id)
			}
		}
		kv.Clients = append(kv.Clients, cv)
	}
	slices.SortFunc(kv.Clients, func(a, b KafkaClientView) int { return int(a.Number - b.Number) })
	if l.paused && kv.Connections > 0 {
		kv.PausedNote = "the clock is paused: connected Kafka clients get no answers that need time (acks=all, long polls) and will time out"
	}
	v.Kafka = kv
}
