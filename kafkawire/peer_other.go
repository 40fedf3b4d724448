//go:build !linux

package kafkawire

import "net"

// peerClosed cannot tell off Linux: a connection whose client went away while
// its request waits is closed when the request is answered or the broker's
// state changes.
func peerClosed(net.Conn) bool { return false }
