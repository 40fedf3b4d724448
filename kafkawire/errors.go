package kafkawire

import "errors"

// Sentinel errors. A request the server cannot take produces one of these,
// wrapped with where it happened, and the connection is closed (Kafka's
// SocketServer closes a connection on an InvalidReceiveException or an
// InvalidRequestException). Test with errors.Is.
var (
	// ErrFrameSize means a request's size prefix is negative or above
	// socket.request.max.bytes (Kafka: InvalidReceiveException in
	// NetworkReceive.readFrom).
	ErrFrameSize = errors.New("kafkawire: invalid request size")

	// ErrMalformedHeader means the request header does not parse: fewer bytes
	// than its fields, a bad client id length or bad tagged fields (Kafka:
	// InvalidRequestException from RequestHeader.parse).
	ErrMalformedHeader = errors.New("kafkawire: malformed request header")

	// ErrUnsupportedAPI means an API key the server does not serve (Kafka:
	// "Unknown API key" or "... which is not enabled").
	ErrUnsupportedAPI = errors.New("kafkawire: unsupported api key")

	// ErrUnsupportedVersion means a version outside the served range. For
	// ApiVersions the server answers UNSUPPORTED_VERSION instead of closing.
	ErrUnsupportedVersion = errors.New("kafkawire: unsupported api version")

	// ErrMalformedRequest means a request body that does not parse at its
	// version (Kafka: InvalidRequestException from AbstractRequest.parseRequest).
	ErrMalformedRequest = errors.New("kafkawire: malformed request body")

	// ErrConfig means a Config the server cannot run with.
	ErrConfig = errors.New("kafkawire: invalid config")
)
