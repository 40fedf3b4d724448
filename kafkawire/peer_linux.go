//go:build linux

package kafkawire

import (
	"net"
	"syscall"
	"unsafe"
)

// The TCP states of Linux's tcp_states.h that mean the client has sent its
// FIN (or a reset): it will send nothing more.
const (
	tcpClose     = 7
	tcpCloseWait = 8
)

// peerClosed reports whether the client has closed its side of nc, even
// with bytes of it still unread: the first byte of struct tcp_info
// (getsockopt TCP_INFO) is the connection's state.
func peerClosed(nc net.Conn) bool {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return false
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return false
	}
	var info [256]byte
	size := uint32(len(info))
	var errno syscall.Errno
	err = rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall6(syscall.SYS_GETSOCKOPT, fd, syscall.IPPROTO_TCP, syscall.TCP_INFO,
			uintptr(unsafe.Pointer(&info[0])), uintptr(unsafe.Pointer(&size)), 0)
	})
	if err != nil || errno != 0 || size == 0 {
		return false
	}
	return info[0] == tcpClose || info[0] == tcpCloseWait
}
