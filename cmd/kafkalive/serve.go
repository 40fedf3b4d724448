package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/kafkalive/kafkalive/notes"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"

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

func runServe(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("serve", flag.ContinueOnError)
	fset.SetOutput(stderr)
	addr := fset.String("addr", "127.0.0.1:7070", "HOST:PORT to listen on")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	live, err := web.NewLive()
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	srv := web.NewServer(live, web.NewTerminal(live), notesFS())
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "kafkalive: the live cluster is at http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	hs := &http.Server{Handler: srv}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	go func() {
		if err := srv.Run(ctx); err != nil {
			fmt.Fprintf(stderr, "kafkalive: the cluster stopped: %v\n", err)
		}
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	return 0
}

// notesFS returns the notes' Markdown files, embedded in the binary.
func notesFS() fs.FS { return notes.FS }
