package kafkawire

import (
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Tap sees the server's exchanges with its clients, for a view of the
// wire (Config.Tap): each request a connection reads and how it ended.
// Both methods are called from connection goroutines, possibly at once,
// and must not block.
type Tap interface {
	// Tapping reports whether conn's next request is wanted. It is asked
	// as the request is served (conn.ClientID is the request's), so that
	// a client is recorded only while someone looks at it.
	Tapping(conn ConnInfo) bool
	// Exchanged is handed one exchange once it ended: the response
	// written, no response (a Produce with acks=0), or the connection
	// closed instead. x.Request and x.Response are the server's and the
	// Backend's: they must not be changed, nor kept past the call (a
	// Produce's record batches alias the frame the Backend owns).
	Exchanged(x Exchange)
}

// Exchange is one request and how it was answered.
type Exchange struct {
	// Conn is the connection, as of the request.
	Conn ConnInfo
	// Header is the request's header.
	Header RequestHeader
	// Request is the decoded request; Response the response written, nil
	// when none was (acks=0, or the connection closed: Closed says why).
	Request  kmsg.Request
	Response kmsg.Response
	Closed   string
	// Received is when the request was read in full, Answered when its
	// response was written (or the exchange otherwise ended).
	Received, Answered time.Time
}

// Latency is how long the request took, from its last byte read to its
// response written.
func (x Exchange) Latency() time.Duration { return x.Answered.Sub(x.Received) }

// closed notes on x (nil: not tapped) why its exchange ended without a
// response.
func (x *Exchange) closed(why string) {
	if x != nil {
		x.Closed = why
	}
}
