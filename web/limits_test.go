//go:build !js

package web

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// serveWithLimits serves a fresh default world with limits on a real
// listener (the http.Server HTTPServer makes), its clock running, and
// returns its address.
func serveWithLimits(t *testing.T, limits Limits) (string, *Server) {
	t.Helper()
	live, err := NewLive()
	require.NoError(t, err)
	srv := NewServer(live, NewTerminal(live), nil)
	srv.Limits = limits
	hs := srv.HTTPServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, stop := context.WithCancel(context.Background())
	go srv.Run(ctx)
	go hs.Serve(ln)
	t.Cleanup(func() {
		stop()
		hs.Close()
	})
	return ln.Addr().String(), srv
}

// closedWithin says whether the server closes conn within d (reading
// and dropping what it sends).
func closedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	return !errors.As(err, &ne) || !ne.Timeout()
}

// A connection that sends half its headers, one that sends half its body,
// and one kept alive without a request are closed; the server answers on.
func TestSlowAndIdleConnectionsAreClosed(t *testing.T) {
	addr, _ := serveWithLimits(t, Limits{ReadHeaderTimeout: 200 * time.Millisecond, ReadTimeout: 400 * time.Millisecond, IdleTimeout: 300 * time.Millisecond})
	for name, send := range map[string]string{
		"half its headers":                     "GET /api/view HTTP/1.1\r\nHost: " + addr + "\r\n",
		"half its body":                        "POST /api/exec HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"line\":",
		"nothing after an answer (kept alive)": "GET /style.css HTTP/1.1\r\nHost: " + addr + "\r\n\r\n",
	} {
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		_, err = io.WriteString(conn, send)
		require.NoError(t, err)
		if !closedWithin(conn, 5*time.Second) {
			t.Errorf("a connection that sent %s is still open after 5 s", name)
		}
		conn.Close()
	}
	resp, err := http.Get("http://" + addr + "/api/view")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// An update stream outlives the read and write timeouts (it lasts as long
// as its page); past MaxStreams one more gets 503 and why, and one closed
// makes room.
func TestStreamsOutliveTheTimeoutsAndAreCapped(t *testing.T) {
	addr, srv := serveWithLimits(t, Limits{ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond, MaxStreams: 2})
	open := func() (*http.Response, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		req, err := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/api/stream", nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		return resp, cancel
	}
	first, stop1 := open()
	defer stop1()
	second, stop2 := open()
	defer stop2()
	require.Equal(t, http.StatusOK, first.StatusCode)
	require.Equal(t, http.StatusOK, second.StatusCode)
	third, stop3 := open()
	body, _ := io.ReadAll(third.Body)
	stop3()
	if third.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), ErrTooManyStreams.Error()) ||
		!strings.Contains(string(body), "2 of 2 in use") || third.Header.Get("Retry-After") == "" {
		t.Fatalf("a third stream of two at most: status %d, Retry-After %q, %q", third.StatusCode, third.Header.Get("Retry-After"), body)
	}
	// the first one goes on for a second, three times the timeouts
	r := &stream{r: bufio.NewReader(first.Body)}
	var last Update
	for start := time.Now(); time.Since(start) < time.Second; {
		last = r.next(t)
	}
	require.Positive(t, last.TimeMs)
	stop2()
	second.Body.Close()
	require.Eventually(t, func() bool {
		srv.streamsMu.Lock()
		defer srv.streamsMu.Unlock()
		return srv.streams == 1
	}, 5*time.Second, 10*time.Millisecond, "a stream closed is counted out")
	again, stop4 := open()
	defer stop4()
	require.Equal(t, http.StatusOK, again.StatusCode)
}

// A terminal line that runs longer than ExecTimeout stops and says why,
// in time to answer.
func TestALongTerminalLineStopsAtExecTimeout(t *testing.T) {
	addr, _ := serveWithLimits(t, Limits{ExecTimeout: 500 * time.Millisecond, WriteTimeout: 100 * time.Millisecond})
	resp, err := http.Post("http://"+addr+"/api/exec", "application/json", strings.NewReader(`{"line": "run 3600000"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	for _, want := range []string{ErrRunInterrupted.Error(), "runs at most 500ms", "--exec-timeout"} {
		require.Contains(t, string(b), want)
	}
}

// Pages open and close update streams in any order, some closing before
// their first frame: a stream is served exactly while fewer than
// MaxStreams are open, a refused one is told why, and the server's count
// comes back to the streams still open.
func TestStreamCapUnderRandomOpensAndCloses(t *testing.T) {
	addr, srv := serveWithLimits(t, Limits{MaxStreams: 3})
	count := func() int {
		srv.streamsMu.Lock()
		defer srv.streamsMu.Unlock()
		return srv.streams
	}
	rapid.Check(t, func(rt *rapid.T) {
		type open struct {
			resp   *http.Response
			cancel context.CancelFunc
		}
		var opened []open
		defer func() {
			for _, o := range opened {
				o.cancel()
				o.resp.Body.Close()
			}
			require.Eventually(t, func() bool { return count() == 0 }, 5*time.Second, 5*time.Millisecond)
		}()
		for range rapid.IntRange(1, 12).Draw(rt, "actions") {
			if len(opened) > 0 && rapid.Bool().Draw(rt, "close one") {
				i := rapid.IntRange(0, len(opened)-1).Draw(rt, "which")
				opened[i].cancel()
				opened[i].resp.Body.Close()
				opened = append(opened[:i], opened[i+1:]...)
				require.Eventually(rt, func() bool { return count() == len(opened) }, 5*time.Second, 5*time.Millisecond, "a closed stream is counted out")
				continue
			}
			ctx, cancel := context.WithCancel(context.Background())
			req, err := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/api/stream?topic=orders", nil)
			require.NoError(rt, err)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(rt, err)
			if len(opened) < 3 {
				if resp.StatusCode != http.StatusOK {
					rt.Fatalf("stream %d of at most 3: status %d", len(opened)+1, resp.StatusCode)
				}
				if rapid.Bool().Draw(rt, "read a frame") {
					(&stream{r: bufio.NewReader(resp.Body)}).next(t)
				}
				opened = append(opened, open{resp, cancel})
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			cancel()
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), ErrTooManyStreams.Error()) {
				rt.Fatalf("a fourth stream of at most 3: status %d, %q", resp.StatusCode, body)
			}
		}
	})
}
