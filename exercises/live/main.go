// Command live starts the live cluster page of kafkalive with your code
// plugged in wherever you wrote it (go run ./exercises/live): the producers
// encode with your varint and batch encoder, fetches find batches with your
// index lookup, retention uses your rule, every broker start runs your
// recovery, followers truncate with your rule, and cooperative-sticky groups
// assign with your assignor. A function that still panics with TODO runs the
// reference; the page says, per part, "your code" or "reference", shows each
// call of yours that failed (a panic, an endless loop, a result out of range)
// with its input and stack, and lists a guided scenario per chapter on your
// code that ends by comparing its outcome with the reference's.
//
//	go run ./exercises/live [--addr HOST:PORT] [--list]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"

	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/notes"
	"github.com/kafkalive/kafkalive/web"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("live", flag.ContinueOnError)
	fset.SetOutput(stderr)
	addr := fset.String("addr", "127.0.0.1:7071", "`HOST:PORT` to listen on")
	list := fset.Bool("list", false, "print which parts run your code, and exit")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	code := yourCode()
	printParts(stdout, kitlive.New(code).Statuses())
	if *list {
		return 0
	}
	live, err := web.NewLearnerLive(code)
	if err != nil {
		fmt.Fprintf(stderr, "live: %v\n", err)
		return 1
	}
	if wd, err := os.Getwd(); err == nil {
		// a part whose files change while the page runs: it says to restart
		live.WatchLearnerCode(watchParts(wd, kitlive.Parts))
	}
	srv := web.NewServer(live, web.NewTerminal(live), notes.FS)
	srv.Log = stderr
	if host, _, err := net.SplitHostPort(*addr); err == nil && host != "" {
		srv.Hosts = []string{*addr}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "live: %v (choose another address with --addr)\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "live: the cluster on your code is at http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	hs := srv.HTTPServer()
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	go srv.Run(ctx)
	if err := hs.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintf(stderr, "live: %v\n", err)
		return 1
	}
	return 0
}

// printParts prints one line per part: what runs it and why.
func printParts(w io.Writer, sts []kitlive.Status) {
	for _, s := range sts {
		line := fmt.Sprintf("%-18s %-10s %s", s.Part, s.Runs, s.Used)
		if s.Why != "" {
			line += " (" + s.Why + ")"
		}
		fmt.Fprintln(w, line)
	}
}
