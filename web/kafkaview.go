package web

// KafkaView is what the page shows of real Kafka clients: the brokers'
// listeners, the connections open now, and what the brokers saw of each
// client (the world's record: cluster.World.ExternalClients).
type KafkaView struct {
	// Listeners are "1 127.0.0.1:9092"..., one per broker.
	Listeners []string `json:"listeners"`
	// Connections counts the open connections.
	Connections int `json:"connections"`
	// Clients are the clients the world has seen, by number: every one
	// connected now, and of the others the MaxClientsShown latest to
	// send a request; Hidden counts the others left out.
	Clients []KafkaClientView `json:"clients,omitempty"`
	Hidden  int               `json:"hidden,omitempty"`
	// Notice is why the connections were last closed all at once (the
	// world went back in time, was reset), "" if never.
	Notice string `json:"notice,omitempty"`
	// PausedNote, while the clock is paused and clients are connected,
	// says that they will time out.
	PausedNote string `json:"paused_note,omitempty"`
	// Unavailable, for a world that cannot have listeners (one running
	// in a browser tab), says so and how to get a world that has them.
	Unavailable string `json:"unavailable,omitempty"`
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
	// them, LostAfterAck the acknowledged ones the partition no longer
	// holds, SentNoAck those sent with acks=0; Fetched the record bytes
	// its fetches got.
	Sent         int   `json:"sent"`
	Acked        int   `json:"acked"`
	LostAfterAck int   `json:"lost_after_ack"`
	SentNoAck    int   `json:"sent_no_ack"`
	Failed       int   `json:"failed"`
	Fetched      int64 `json:"fetched_bytes"`
	// Requests counts its requests by api name.
	Requests  map[string]int `json:"requests,omitempty"`
	LastError string         `json:"last_error,omitempty"`
	// Cut lists the brokers whose link to it is cut.
	Cut []int32 `json:"cut,omitempty"`
}

// MaxClientsShown bounds the Kafka clients the page lists besides those
// connected now: a script that opens clients under new client ids by the
// thousand would otherwise make every update of the page as long.
const MaxClientsShown = 20
