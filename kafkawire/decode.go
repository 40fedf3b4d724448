package kafkawire

import (
	"encoding/binary"
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// RequestHeader is a request's header (RequestHeader.json): v1 is api key,
// api version, correlation id and a nullable client id; v2, used by flexible
// versions (KIP-482), adds tagged fields.
type RequestHeader struct {
	APIKey        int16
	APIVersion    int16
	CorrelationID int32
	// ClientID is "" for a null client id, as Kafka reads it.
	ClientID string
	// HeaderVersion is 1 or 2.
	HeaderVersion int8
	// Size is the header's length in bytes.
	Size int
}

// Decode parses one request frame (the bytes after the int32 size prefix):
// the header, then the body with kmsg at the header's version. It checks the
// key and version against the table before it reads the body, as Kafka's
// SocketServer.parseRequestHeader does, and returns:
//   - ErrMalformedHeader when the header does not parse;
//   - ErrUnsupportedAPI or ErrUnsupportedVersion for a key or version the
//     table does not serve (with the header parsed as far as it goes: for
//     ApiVersions the whole header, so that the server can answer
//     UNSUPPORTED_VERSION to its correlation id);
//   - ErrMalformedRequest when the body does not parse.
//
// Bytes after the body are ignored, as Kafka does. Strings and byte slices of
// the request alias frame.
func (v *Versions) Decode(frame []byte) (RequestHeader, kmsg.Request, error) {
	var h RequestHeader
	if len(frame) < 4 {
		return h, nil, fmt.Errorf("%w: %d bytes, api key and version need 4", ErrMalformedHeader, len(frame))
	}
	h.APIKey = int16(binary.BigEndian.Uint16(frame))
	h.APIVersion = int16(binary.BigEndian.Uint16(frame[2:]))
	if _, ok := v.served[h.APIKey]; !ok {
		return h, nil, fmt.Errorf("%w: %d (%s) version %d", ErrUnsupportedAPI, h.APIKey, keyName(h.APIKey), h.APIVersion)
	}
	req := kmsg.RequestForKey(h.APIKey)
	// The header version follows from the api version (ApiMessageType
	// .requestHeaderVersion): 2 where the api version is flexible. For
	// ApiVersions at a version beyond kmsg's, IsFlexible (version >= 3)
	// still gives Kafka's answer.
	req.SetVersion(h.APIVersion)
	h.HeaderVersion = 1
	if req.IsFlexible() {
		h.HeaderVersion = 2
	}
	n, err := readHeaderRest(frame, &h)
	if err != nil {
		return h, nil, err
	}
	h.Size = n
	if !v.Supports(h.APIKey, h.APIVersion) {
		return h, nil, fmt.Errorf("%w: %s version %d (served %d-%d)", ErrUnsupportedVersion, keyName(h.APIKey), h.APIVersion, v.served[h.APIKey].MinVersion, v.served[h.APIKey].MaxVersion)
	}
	if err := req.ReadFrom(frame[n:]); err != nil {
		return h, nil, fmt.Errorf("%w: %s v%d: %v", ErrMalformedRequest, keyName(h.APIKey), h.APIVersion, err)
	}
	return h, req, nil
}

// readHeaderRest reads the correlation id, the client id and (v2) the tagged
// fields after the api key and version, and returns the header's length.
func readHeaderRest(frame []byte, h *RequestHeader) (int, error) {
	if len(frame) < 10 {
		return 0, fmt.Errorf("%w: %d bytes, header v%d needs at least 10", ErrMalformedHeader, len(frame), h.HeaderVersion)
	}
	h.CorrelationID = int32(binary.BigEndian.Uint32(frame[4:]))
	p := 8
	l := int(int16(binary.BigEndian.Uint16(frame[p:])))
	p += 2
	switch {
	case l == -1:
	case l < -1:
		return 0, fmt.Errorf("%w: client id length %d", ErrMalformedHeader, l)
	case l > len(frame)-p:
		return 0, fmt.Errorf("%w: client id of %d bytes, %d present", ErrMalformedHeader, l, len(frame)-p)
	default:
		h.ClientID = string(frame[p : p+l])
		p += l
	}
	if h.HeaderVersion < 2 {
		return p, nil
	}
	count, m := binary.Uvarint(frame[p:])
	if m <= 0 {
		return 0, fmt.Errorf("%w: tagged field count", ErrMalformedHeader)
	}
	p += m
	for i := uint64(0); i < count; i++ {
		_, m := binary.Uvarint(frame[p:])
		if m <= 0 {
			return 0, fmt.Errorf("%w: tag %d of %d", ErrMalformedHeader, i, count)
		}
		p += m
		size, m := binary.Uvarint(frame[p:])
		if m <= 0 || size > uint64(len(frame)-p-m) {
			return 0, fmt.Errorf("%w: tagged field %d of %d: size", ErrMalformedHeader, i, count)
		}
		p += m + int(size)
	}
	return p, nil
}

// keyName is kmsg's name of an api key, or "unknown".
func keyName(key int16) string {
	if n := kmsg.NameForKey(key); n != "" {
		return n
	}
	return "unknown"
}
