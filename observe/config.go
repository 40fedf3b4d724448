package observe

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// Defaults applied to zero [Config] fields.
const (
	// DefaultInterval is how often the observer polls.
	DefaultInterval = time.Second
	// DefaultMaxSamples bounds the samples kept: an hour at one a second.
	DefaultMaxSamples = 3600
	// DefaultMaxBytes bounds the bytes of what the samples kept hold
	// beyond what they share with the sample before (an estimate:
	// [Sample] sizes).
	DefaultMaxBytes = 64 << 20
	// DefaultMaxEvents bounds the events kept.
	DefaultMaxEvents = 10000
	// DefaultClientID is the client.id of the observer's requests.
	DefaultClientID = "kafkalive-observer"
)

// The SASL mechanisms the observer authenticates with.
const (
	SASLPlain       = "PLAIN"
	SASLScramSHA256 = "SCRAM-SHA-256"
	SASLScramSHA512 = "SCRAM-SHA-512"
)

// ErrConfig means a [Config] that cannot be used.
var ErrConfig = errors.New("observe: config")

// Config says which cluster to observe and how.
type Config struct {
	// Bootstrap are the brokers to ask first, HOST:PORT each.
	Bootstrap []string
	// TLS, when set, connects with TLS (an empty config: the system's
	// roots, the broker's host name).
	TLS *tls.Config
	// SASLMechanism is "" (none), PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512,
	// with SASLUser and SASLPassword.
	SASLMechanism, SASLUser, SASLPassword string
	// ClientID is the requests' client.id (default DefaultClientID).
	ClientID string
	// Interval is how often to poll (default DefaultInterval); a poll
	// that takes longer delays the next.
	Interval time.Duration
	// PollTimeout bounds a poll (default the interval, at least a
	// second): what has not answered by then is not observed in that
	// sample. A broker whose host does not answer at all (powered off, or
	// cut off by the network) costs a poll at most this.
	PollTimeout time.Duration
	// MaxSamples and MaxBytes bound the timeline ([Timeline]); MaxEvents
	// the events kept.
	MaxSamples, MaxEvents int
	MaxBytes              int64
	// Dial, when set, opens the connections (tests put a recorder in
	// front of the brokers).
	Dial func(ctx context.Context, network, host string) (net.Conn, error)
}

// withDefaults checks c and fills in its defaults.
func (c Config) withDefaults() (Config, error) {
	if len(c.Bootstrap) == 0 {
		return c, fmt.Errorf("%w: no bootstrap broker (--bootstrap HOST:PORT[,HOST:PORT])", ErrConfig)
	}
	for _, b := range c.Bootstrap {
		host, port, err := net.SplitHostPort(b)
		if err != nil || host == "" {
			return c, fmt.Errorf("%w: bootstrap broker %q is not HOST:PORT", ErrConfig, b)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return c, fmt.Errorf("%w: bootstrap broker %q: port %q", ErrConfig, b, port)
		}
	}
	switch c.SASLMechanism {
	case "":
		if c.SASLUser != "" || c.SASLPassword != "" {
			return c, fmt.Errorf("%w: a SASL user or password without --sasl-mechanism", ErrConfig)
		}
	case SASLPlain, SASLScramSHA256, SASLScramSHA512:
		if c.SASLUser == "" {
			return c, fmt.Errorf("%w: SASL %s needs a user", ErrConfig, c.SASLMechanism)
		}
	default:
		return c, fmt.Errorf("%w: SASL mechanism %q (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)", ErrConfig, c.SASLMechanism)
	}
	if c.ClientID == "" {
		c.ClientID = DefaultClientID
	}
	if c.Interval == 0 {
		c.Interval = DefaultInterval
	}
	if c.PollTimeout == 0 {
		c.PollTimeout = max(c.Interval, time.Second)
	}
	if c.MaxSamples == 0 {
		c.MaxSamples = DefaultMaxSamples
	}
	if c.MaxBytes == 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MaxEvents == 0 {
		c.MaxEvents = DefaultMaxEvents
	}
	if c.Interval < 0 || c.PollTimeout < 10*time.Millisecond || c.MaxSamples < 1 || c.MaxBytes < 1 || c.MaxEvents < 1 {
		return c, fmt.Errorf("%w: interval %s, poll timeout %s, %d samples, %d bytes, %d events",
			ErrConfig, c.Interval, c.PollTimeout, c.MaxSamples, c.MaxBytes, c.MaxEvents)
	}
	return c, nil
}

// ParseBootstrap splits a --bootstrap list, HOST:PORT[,HOST:PORT].
func ParseBootstrap(s string) []string {
	var out []string
	for _, b := range strings.Split(s, ",") {
		if b = strings.TrimSpace(b); b != "" {
			out = append(out, b)
		}
	}
	return out
}

// clientOpts are the franz-go options of a client of c, with hooks.
func (c Config) clientOpts(hooks ...kgo.Hook) []kgo.Opt {
	opts := []kgo.Opt{
		kgo.SeedBrokers(c.Bootstrap...),
		kgo.ClientID(c.ClientID),
		kgo.WithHooks(hooks...),
		// a request the client may send to any broker goes to another
		// when one is down; a poll asks again at the next one, so no retry
		// may hold it up long
		kgo.RequestRetries(2),
		kgo.RetryBackoffFn(func(int) time.Duration { return 50 * time.Millisecond }),
		kgo.RetryTimeout(c.PollTimeout / 2),
		// a broker whose host does not answer (a powered-off one: the
		// connection hangs) costs a request half a poll, so that the
		// poll has time to ask another
		kgo.DialTimeout(c.PollTimeout / 2),
		kgo.RequestTimeoutOverhead(c.PollTimeout / 2),
		kgo.MetadataMinAge(max(c.Interval/2, 10*time.Millisecond)),
	}
	if c.TLS != nil {
		opts = append(opts, kgo.DialTLSConfig(c.TLS))
	}
	if c.Dial != nil {
		opts = append(opts, kgo.Dialer(c.Dial))
	}
	switch c.SASLMechanism {
	case SASLPlain:
		opts = append(opts, kgo.SASL(plain.Auth{User: c.SASLUser, Pass: c.SASLPassword}.AsMechanism()))
	case SASLScramSHA256:
		opts = append(opts, kgo.SASL(scram.Auth{User: c.SASLUser, Pass: c.SASLPassword}.AsSha256Mechanism()))
	case SASLScramSHA512:
		opts = append(opts, kgo.SASL(scram.Auth{User: c.SASLUser, Pass: c.SASLPassword}.AsSha512Mechanism()))
	}
	return opts
}
