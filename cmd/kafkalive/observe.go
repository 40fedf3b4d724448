package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web/observed"
)

// observe watches a real Kafka cluster from outside with read-only
// requests (package observe).

func init() {
	register(command{
		name:    "observe",
		summary: "watch any Kafka cluster from outside, read-only: brokers, partitions, offsets, groups, lag",
		run:     runObserve,
	})
}

var observeUsage = cli.Usage{Synopsis: "observe --bootstrap HOST:PORT[,HOST:PORT] [--tls] [--sasl-mechanism M --sasl-user U --sasl-password-file F] [--once] [--json] [--shell | TOOL ARGS...]", About: `Watches a Kafka cluster from outside, as any client could, through franz-go:
every broker (up, unreachable, fenced by the controller, down), every partition
with its leader, leader epoch, replicas, ISR, eligible leader replicas, log
start, high watermark, last stable offset, each replica's own log end offset
and the producers with state on it, the consumer groups with their members,
committed offsets and lag, and the metadata quorum.

It sends only requests that change nothing (Metadata, ListOffsets,
DescribeCluster, DescribeConfigs, DescribeLogDirs, DescribeQuorum,
DescribeTopicPartitions, DescribeProducers, ListGroups, DescribeGroups,
OffsetFetch, FindCoordinator...), about once a second, at most
5 + ceil(N/2000) + 9B requests a poll for N partitions on B brokers. Each poll
prints what changed since the one before (leaders, epochs, the ISR shrinking
and expanding, brokers going down and coming back, groups rebalancing), and a
progress line on standard error. What the cluster did not answer is shown as
"-" (not observed), never guessed; what no observer outside the brokers can
see is listed by --once.

--once polls once and prints the cluster; --json prints each poll as one JSON
object a line instead. Point it at "kafkalive serve" (127.0.0.1:9092) to watch
the simulated cluster. --addr serves the simulated cluster's page showing the
observed one while it polls: brokers, partitions, each replica's log end,
groups with their lag drawn over time, the quorum, the events, a timeline of
the samples kept (an hour at a poll a second) to drag back, and the read-only
tools; nothing on it acts on the cluster.

Kafka's read-only tools run on a fresh poll: name one after the flags
(kafkalive observe --bootstrap B kafka-topics --describe), or give --shell to
type them one a line (help lists them): kafka-topics --describe|--list,
kafka-consumer-groups --list|--describe --group G [--members|--state],
kafka-configs --describe, kafka-metadata-quorum describe
--status|--replication, kafka-log-dirs --describe. A command that would change
the cluster (--create, --alter, --delete, --reset-offsets...) is refused and
never sent.`}

// observeFlags are the command's flags, parsed.
type observeFlags struct {
	bootstrap, clientID             string
	tls                             bool
	tlsCA, tlsServerName            string
	saslMechanism, saslUser, saslPw string
	interval, pollTimeout           time.Duration
	once, json                      bool
	polls                           int
}

func runObserve(args []string, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("observe")
	var f observeFlags
	fset.StringVar(&f.bootstrap, "bootstrap", "", "the brokers to ask first, `HOST:PORT[,HOST:PORT]`")
	fset.BoolVar(&f.tls, "tls", false, "connect with TLS (the system's certificate authorities, or --tls-ca)")
	fset.StringVar(&f.tlsCA, "tls-ca", "", "PEM `FILE` of the certificate authorities to trust (implies --tls)")
	fset.StringVar(&f.tlsServerName, "tls-server-name", "", "the `NAME` the brokers' certificates must carry (default: each broker's host)")
	fset.StringVar(&f.saslMechanism, "sasl-mechanism", "", "`MECHANISM` to authenticate with: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512")
	fset.StringVar(&f.saslUser, "sasl-user", "", "SASL `USER`")
	fset.StringVar(&f.saslPw, "sasl-password-file", "", "`FILE` holding the SASL password (its first line), so that it is not on the command line")
	fset.StringVar(&f.clientID, "client-id", observe.DefaultClientID, "the requests' client.id, as the brokers' logs and quotas see it")
	fset.DurationVar(&f.interval, "interval", observe.DefaultInterval, "how often to poll")
	fset.DurationVar(&f.pollTimeout, "poll-timeout", 0, "how long a poll may wait for answers (default: the interval, at least 1s)")
	fset.BoolVar(&f.once, "once", false, "poll once, print the cluster and exit")
	fset.BoolVar(&f.json, "json", false, "print each poll as a JSON object a line")
	fset.IntVar(&f.polls, "polls", 0, "stop after `N` polls (0: until Ctrl-C)")
	shell := fset.Bool("shell", false, "read Kafka's read-only tools' commands from standard input, one a line")
	addr := fset.String("addr", "", "serve the observed cluster's page, read-only, at `HOST:PORT` (e.g. 127.0.0.1:7071)")
	if code, ok := observeUsage.Parse(fset, args, stdout, stderr); !ok {
		return code
	}
	cfg, err := f.config()
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive observe: %v\n", err)
		return 2
	}
	o, err := observe.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive %v\n", err) // "observe: config: ..."
		return 2
	}
	defer o.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch {
	case *shell && fset.NArg() > 0:
		observeUsage.Fail(fset, stderr, "--shell reads its commands from standard input: no tool after the flags")
		return 2
	case *shell:
		return observedShell(ctx, o, observeInput, stdout, stderr)
	case fset.NArg() > 0:
		return runObservedTool(ctx, o, fset.Args(), stdout, stderr)
	}
	if f.once {
		f.polls = 1
	}
	if *addr != "" {
		stopPage, err := servePage(ctx, o, *addr, stdout, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "kafkalive observe: --addr %s: %v\n", *addr, err)
			return 1
		}
		defer stopPage()
	}
	return watch(ctx, o, f, stdout, stderr)
}

// servePage serves the observed cluster's page at addr until stop.
func servePage(ctx context.Context, o *observe.Observer, addr string, stdout, stderr io.Writer) (stop func(), err error) {
	ln, err := listen(addr, stderr)
	if err != nil {
		return nil, err
	}
	page := observed.NewServer(o)
	page.Notes = notesFS()
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		page.Hosts = []string{addr}
	}
	hs := &http.Server{Handler: page, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	fmt.Fprintf(stdout, "kafkalive observe: the observed cluster's page is at http://%s/ (read-only)\n", ln.Addr())
	return func() { hs.Close() }, nil
}

// observeInput is where --shell reads its lines (tests replace it).
var observeInput io.Reader = os.Stdin

// config is the observer's config from the flags.
func (f observeFlags) config() (observe.Config, error) {
	cfg := observe.Config{Bootstrap: observe.ParseBootstrap(f.bootstrap), ClientID: f.clientID,
		Interval: f.interval, PollTimeout: f.pollTimeout, SASLMechanism: strings.ToUpper(f.saslMechanism), SASLUser: f.saslUser}
	if f.interval <= 0 {
		return cfg, fmt.Errorf("--interval %s: a positive duration, e.g. 1s", f.interval)
	}
	if f.polls < 0 {
		return cfg, fmt.Errorf("--polls %d: 0 (until Ctrl-C) or more", f.polls)
	}
	if f.tls || f.tlsCA != "" || f.tlsServerName != "" {
		cfg.TLS = &tls.Config{ServerName: f.tlsServerName, MinVersion: tls.VersionTLS12}
		if f.tlsCA != "" {
			pem, err := os.ReadFile(f.tlsCA)
			if err != nil {
				return cfg, fmt.Errorf("--tls-ca: %w", err)
			}
			cfg.TLS.RootCAs = x509.NewCertPool()
			if !cfg.TLS.RootCAs.AppendCertsFromPEM(pem) {
				return cfg, fmt.Errorf("--tls-ca %s: no PEM certificate in it", f.tlsCA)
			}
		}
	}
	if f.saslPw != "" {
		b, err := os.ReadFile(f.saslPw)
		if err != nil {
			return cfg, fmt.Errorf("--sasl-password-file: %w", err)
		}
		pw, _, _ := strings.Cut(string(b), "\n")
		cfg.SASLPassword = strings.TrimSuffix(pw, "\r")
		if cfg.SASLPassword == "" {
			return cfg, fmt.Errorf("--sasl-password-file %s: its first line is empty", f.saslPw)
		}
	}
	if cfg.SASLMechanism != "" && cfg.SASLPassword == "" {
		return cfg, fmt.Errorf("--sasl-mechanism %s needs --sasl-password-file", cfg.SASLMechanism)
	}
	return cfg, nil
}

// watch polls until ctx is done or f.polls polls were made, printing each
// poll's events (or its JSON) on stdout and a progress line on stderr. It
// returns 1 when the cluster never answered.
func watch(ctx context.Context, o *observe.Observer, f observeFlags, stdout, stderr io.Writer) int {
	progress := newProgress(stderr)
	answered, told := false, false
	var printed int // events printed so far
	for n := 1; ; n++ {
		start := time.Now()
		s := o.Poll(ctx)
		if ctx.Err() != nil {
			progress.done()
			return exitFor(answered)
		}
		switch {
		case s.Partitions != nil || s.ClusterID != "" || len(s.Unanswered) == 0:
			answered = true
		case !told:
			// said once; the polls go on (the cluster may be starting) but
			// for a single one
			progress.clear()
			fmt.Fprintf(stderr, "kafkalive observe: %s\n", unreachable(f, s.Unanswered[0]))
			told = true
			if f.polls == 1 {
				return 1
			}
		}
		switch {
		case f.json:
			progress.clear()
			if err := json.NewEncoder(stdout).Encode(s); err != nil {
				fmt.Fprintf(stderr, "kafkalive observe: %v\n", err)
				return 1
			}
		case f.once:
			progress.clear()
			printSample(stdout, s)
		default:
			var evs []observe.Event
			o.Look(func(t *observe.Timeline) {
				all := t.Events()
				_, dropped := t.Dropped()
				evs = append(evs, all[max(0, printed-dropped):]...)
				printed = dropped + len(all)
			})
			progress.clear()
			for _, e := range evs {
				fmt.Fprintf(stdout, "%s  %s\n", e.At.Format("15:04:05"), e.Text)
			}
		}
		progress.show(progressLine(s))
		if f.polls > 0 && n >= f.polls {
			progress.done()
			return exitFor(answered)
		}
		select {
		case <-ctx.Done():
			progress.done()
			return exitFor(answered)
		case <-time.After(time.Until(start.Add(f.interval))):
		}
	}
}

func exitFor(answered bool) int {
	if answered {
		return 0
	}
	return 1
}

// unreachable says why the cluster did not answer and what to try.
func unreachable(f observeFlags, why string) string {
	msg := fmt.Sprintf("the cluster at %s does not answer: %s", f.bootstrap, why)
	switch {
	case strings.Contains(why, "connection refused"):
		return msg + "\n  nothing listens there: is the broker running, and is HOST:PORT its listener? (kafkalive serve listens on 127.0.0.1:9092)"
	case strings.Contains(why, "no such host"):
		return msg + "\n  the host's name does not resolve"
	case strings.Contains(why, "requires TLS") && f.TLSOff():
		return msg + "\n  connect with --tls (and --tls-ca FILE when the brokers' certificates are not signed by an authority this system trusts)"
	case strings.Contains(why, "first record does not look like a TLS handshake"):
		return msg + "\n  the listener does not speak TLS: drop --tls"
	case strings.Contains(why, "certificate"):
		return msg + "\n  the broker's certificate is not trusted: give its authority with --tls-ca FILE, or its name with --tls-server-name"
	case strings.Contains(why, "SASL") || strings.Contains(why, "sasl") || strings.Contains(why, "authentication"):
		return msg + "\n  check --sasl-mechanism, --sasl-user and the password file"
	}
	closed := strings.Contains(why, "EOF") || strings.Contains(why, "timeout") || strings.Contains(why, "reset")
	switch {
	case closed && f.TLSOff():
		return msg + "\n  the connection opened but nothing answered: the listener may expect TLS (--tls) or SASL (--sasl-mechanism)"
	case closed && f.saslMechanism != "":
		return msg + "\n  the broker closed the connection, as it does to a client that fails to authenticate: check --sasl-mechanism, --sasl-user and the password file"
	case closed:
		return msg + "\n  the broker closed the connection: does the listener expect SASL (--sasl-mechanism)?"
	}
	return msg
}

// TLSOff reports whether no TLS flag was given.
func (f observeFlags) TLSOff() bool { return !f.tls && f.tlsCA == "" && f.tlsServerName == "" }
