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
	"syscall"
	"time"

	"github.com/kafkalive/kafkalive/internal/cli"
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

var serveUsage = cli.Usage{Synopsis: "serve [--addr HOST:PORT]", About: `Runs the live cluster and serves it as a web page at http://HOST:PORT/ (the
default command: "kafkalive" alone runs it). The page answers only itself: a
request must name the address it listens on (or localhost, 127.0.0.1, [::1]
with its port) and come from the page, not from another site. Anyone who can
reach the address can drive the cluster, so keep it on a loopback address
unless you mean to share it.`}

func runServe(args []string, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("serve")
	addr := fset.String("addr", "127.0.0.1:7070", "`HOST:PORT` to listen on")
	if code, ok := serveUsage.Parse(fset, args, stdout, stderr); !ok {
		return code
	}
	live, err := web.NewLive()
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	srv := web.NewServer(live, web.NewTerminal(live), notesFS())
	srv.Log = stderr
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
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
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

// notesFS returns the notes' Markdown files, embedded in the binary.
func notesFS() fs.FS { return notes.FS }
