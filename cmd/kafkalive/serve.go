package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/notes"
	"github.com/kafkalive/kafkalive/web"
)

// serve runs the live cluster and serves it as a web page (package web).

func init() {
	register(command{
		name:    "serve",
		summary: "run the live cluster and serve it as a web page (the default)",
		run:     runServe,
	})
	defaultCommand = "serve"
}

var serveUsage = cli.Usage{Synopsis: "serve [--addr HOST:PORT] [--kafka-addr HOST:PORT | --no-kafka] [--max-streams N] [--exec-timeout D]", About: `Runs the live cluster and serves it as a web page at http://HOST:PORT/ (the
default command: "kafkalive" alone runs it). The page answers only itself: a
request must name the address it listens on (or localhost, 127.0.0.1, [::1]
with its port) and come from the page, not from another site. Anyone who can
reach the address can drive the cluster, so keep it on a loopback address
unless you mean to share it.

Each simulated broker also speaks Kafka's protocol, so that real clients
(kcat, franz-go, the Java client...) join the cluster: broker 1 listens on
--kafka-addr (127.0.0.1:9092), brokers 2 and 3 on the next two ports, and
Metadata advertises all three. Port 0 picks free ports. If a port is taken,
the page is served without the Kafka listeners (move them with --kafka-addr);
--no-kafka turns them off.

The page's server bounds what a client holds: 10 s to send a request's
headers and 30 s the whole request, 30 s to take an answer (a frame of the
update stream too, while the stream lasts as long as its page), 2 minutes
for a kept-alive connection without a request, --max-streams update
streams (a page each: one more is refused with 503 and why), and
--exec-timeout for a line of the page's terminal (a long run stops then and
says so). The README's table puts each beside Kafka's nearest setting.`}

func runServe(args []string, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("serve")
	addr := fset.String("addr", "127.0.0.1:7070", "`HOST:PORT` to listen on")
	kafkaAddr := fset.String("kafka-addr", "127.0.0.1:9092", "`HOST:PORT` of broker 1's Kafka listener (brokers 2 and 3 on the next ports)")
	noKafka := fset.Bool("no-kafka", false, "do not listen for Kafka clients")
	maxStreams := fset.Int("max-streams", web.DefaultLimits.MaxStreams, "the most update streams open at once (`N` pages)")
	execTimeout := fset.Duration("exec-timeout", web.DefaultLimits.ExecTimeout, "the longest a line of the page's terminal runs (`D`, e.g. 10m)")
	if code, ok := serveUsage.Parse(fset, args, stdout, stderr); !ok {
		return code
	}
	if *maxStreams < 1 || *execTimeout <= 0 {
		fmt.Fprintf(stderr, "kafkalive: --max-streams takes a number from 1 and --exec-timeout a duration above 0 (got %d and %v)\n", *maxStreams, *execTimeout)
		return 2
	}
	live, err := web.NewLiveWallClock(nil, func() int64 { return time.Now().UnixMilli() })
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	srv := web.NewServer(live, web.NewTerminal(live), notesFS())
	srv.Log = stderr
	srv.Limits.MaxStreams, srv.Limits.ExecTimeout = *maxStreams, *execTimeout
	if host, _, err := net.SplitHostPort(*addr); err == nil && host != "" {
		srv.Hosts = []string{*addr} // the name typed, as a browser sends it
	}
	ln, err := listen(*addr, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		if errors.Is(err, syscall.EADDRINUSE) {
			fmt.Fprintf(stderr, "kafkalive: %s is taken (another kafkalive?): choose another with --addr, e.g. kafkalive --addr 127.0.0.1:7071\n", *addr)
		}
		return 1
	}
	fmt.Fprintf(stdout, "kafkalive: the live cluster is at http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	hs := srv.HTTPServer()
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if !*noKafka {
		startKafka(ctx, live, *kafkaAddr, stdout, stderr)
	}
	go srv.Run(ctx) // it stops only with ctx; internal errors go to stderr and the page
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	return 0
}

// listen listens on addr, warning on stderr when that is not a loopback
// address: anyone who can reach it can drive the cluster.
func listen(addr string, stderr io.Writer) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
		fmt.Fprintf(stderr, "kafkalive: warning: listening on %s, not a loopback address: anyone who can reach it can drive the cluster (stop brokers, cut their power, reset the world)\n", ln.Addr())
	}
	return ln, nil
}

// startKafka starts the brokers' Kafka listeners, or says on stderr why
// not and how to move them: the page is served without them.
func startKafka(ctx context.Context, live *web.Live, addr string, stdout, stderr io.Writer) {
	ls, err := kafkaListeners(addr, live.Brokers())
	if err == nil {
		var ks *kafkawire.Server
		if ks, err = web.StartKafka(ctx, live, ls, nil); err == nil {
			var parts []string
			for _, id := range ks.Brokers() {
				parts = append(parts, fmt.Sprintf("broker %d at %s", id, ks.Addr(id)))
			}
			fmt.Fprintf(stdout, "kafkalive: Kafka listeners: %s (point a client at %s)\n", strings.Join(parts, ", "), ks.Addr(ks.Brokers()[0]))
			return
		}
	}
	fmt.Fprintf(stderr, "kafkalive: %v\n", err)
	if errors.Is(err, syscall.EADDRINUSE) {
		fmt.Fprintf(stderr, "kafkalive: a Kafka listener's port is taken (a Kafka broker or another kafkalive?): the page is served without them; move them with --kafka-addr, e.g. --kafka-addr %s (or port 0 for free ports), or turn them off with --no-kafka\n", otherPort(addr))
	} else {
		fmt.Fprintf(stderr, "kafkalive: the page is served without Kafka listeners\n")
	}
}

// otherPort suggests another address than addr: its port plus 10000, or 0.
func otherPort(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil {
		return "127.0.0.1:0"
	}
	if n += 10000; n > 65533 {
		n = 0
	}
	return net.JoinHostPort(host, strconv.Itoa(n))
}

// kafkaListeners are brokers 1..n on addr's host, broker 1 on its port and
// each next one on the next port (all on free ports for port 0).
func kafkaListeners(addr string, n int) ([]kafkawire.Listener, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--kafka-addr %q: %w", addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port+n-1 > 65535 {
		return nil, fmt.Errorf("--kafka-addr %q: a port from 0 to %d", addr, 65536-n)
	}
	var ls []kafkawire.Listener
	for i := range n {
		p := port
		if p != 0 {
			p += i
		}
		ls = append(ls, kafkawire.Listener{NodeID: int32(i + 1), Addr: net.JoinHostPort(host, strconv.Itoa(p))})
	}
	return ls, nil
}

// notesFS returns the notes' Markdown files, embedded in the binary.
func notesFS() fs.FS { return notes.FS }
