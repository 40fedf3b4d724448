package kafkawire_test

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/kafkawire/kafkawiretest"
)

// patience bounds every wait for something that must happen (a response, a
// close): long enough never to fail a correct server on a loaded machine.
const patience = 20 * time.Second

// quiet is how long a test waits to see that nothing comes (a silent broker).
// Too short a wait can only let a wrong server pass, never fail a right one.
const quiet = 300 * time.Millisecond

// logSink collects the server's log lines for a test.
type logSink struct {
	mu    sync.Mutex
	lines []string
}

func (l *logSink) log(e kafkawire.Event) {
	l.mu.Lock()
	l.lines = append(l.lines, e.String())
	l.mu.Unlock()
}

func (l *logSink) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// serve starts a server over a new Mem for brokers 1-3 on free ports, with
// cfg's limits; it is closed when the test ends.
func serve(t testing.TB, cfg kafkawire.Config) (*kafkawire.Server, *kafkawiretest.Mem, *logSink) {
	t.Helper()
	mem := kafkawiretest.New(1, 2, 3)
	sink := &logSink{}
	cfg.Listeners = kafkawire.LoopbackListeners(1, 2, 3)
	cfg.Backend = mem
	if cfg.APIVersions == nil {
		cfg.APIVersions = kafkawiretest.APIVersions()
	}
	cfg.Log = sink.log
	srv, err := kafkawire.New(cfg)
	require.NoError(t, err)
	mem.SetServer(srv)
	srv.Start()
	t.Cleanup(func() { srv.Close() })
	return srv, mem, sink
}

// client is a raw Kafka client over one connection.
type client struct {
	t    testing.TB
	nc   net.Conn
	f    *kmsg.RequestFormatter
	corr int32
	// sent holds the requests sent and not yet answered, in order.
	sent []kmsg.Request
}

func dial(t testing.TB, srv *kafkawire.Server, broker int32) *client {
	t.Helper()
	nc, err := net.DialTimeout("tcp", srv.Addr(broker).String(), patience)
	require.NoError(t, err)
	t.Cleanup(func() { nc.Close() })
	return &client{t: t, nc: nc, f: kmsg.NewRequestFormatter(kmsg.FormatterClientID("raw-client"))}
}

func (c *client) write(b []byte) error {
	c.nc.SetWriteDeadline(time.Now().Add(patience))
	_, err := c.nc.Write(b)
	return err
}

// frame is req framed with the next correlation id.
func (c *client) frame(req kmsg.Request) []byte {
	c.corr++
	c.sent = append(c.sent, req)
	return c.f.AppendRequest(nil, req, c.corr)
}

func (c *client) send(req kmsg.Request) {
	c.t.Helper()
	require.NoError(c.t, c.write(c.frame(req)))
}

// readFrame reads one response frame within d.
func (c *client) readFrame(d time.Duration) ([]byte, error) {
	c.nc.SetReadDeadline(time.Now().Add(d))
	var size [4]byte
	if _, err := io.ReadFull(c.nc, size[:]); err != nil {
		return nil, err
	}
	b := make([]byte, binary.BigEndian.Uint32(size[:]))
	_, err := io.ReadFull(c.nc, b)
	return b, err
}

// recv reads the response to the oldest request sent, checking its
// correlation id, and decodes it at the request's version.
func (c *client) recv() kmsg.Response {
	c.t.Helper()
	b, err := c.readFrame(patience)
	require.NoError(c.t, err, "reading a response")
	require.NotEmpty(c.t, c.sent, "a response to no request")
	req := c.sent[0]
	c.sent = c.sent[1:]
	wantCorr := c.corr - int32(len(c.sent))
	return decodeResponse(c.t, b, req, wantCorr)
}

func decodeResponse(t testing.TB, b []byte, req kmsg.Request, corr int32) kmsg.Response {
	t.Helper()
	require.GreaterOrEqual(t, len(b), 4)
	require.Equal(t, corr, int32(binary.BigEndian.Uint32(b)), "correlation id")
	b = b[4:]
	resp := req.ResponseKind()
	resp.SetVersion(req.GetVersion())
	if resp.IsFlexible() && resp.Key() != 18 {
		require.NotEmpty(t, b)
		require.Equal(t, byte(0), b[0], "response header tagged fields")
		b = b[1:]
	}
	require.NoError(t, resp.ReadFrom(b), "decoding %s v%d", kmsg.NameForKey(req.Key()), req.GetVersion())
	return resp
}

func (c *client) roundTrip(req kmsg.Request) kmsg.Response {
	c.t.Helper()
	c.send(req)
	return c.recv()
}

// closedErr reads until the connection ends and returns why; nil if it did
// not end within d, or if bytes came instead.
func (c *client) closedErr(d time.Duration) error {
	c.nc.SetReadDeadline(time.Now().Add(d))
	var b [1]byte
	n, err := c.nc.Read(b[:])
	if n > 0 {
		c.t.Logf("a byte came instead of a close: %x", b)
	}
	var ne net.Error
	if err == nil || (errors.As(err, &ne) && ne.Timeout()) {
		return nil
	}
	return err
}

func (c *client) requireClosed() {
	c.t.Helper()
	require.Error(c.t, c.closedErr(patience), "the server should have closed the connection")
}

// requireQuiet checks nothing comes back for a while and the connection
// stays open.
func (c *client) requireQuiet() {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(quiet))
	var b [1]byte
	n, err := c.nc.Read(b[:])
	require.Zero(c.t, n, "the server answered")
	var ne net.Error
	require.True(c.t, errors.As(err, &ne) && ne.Timeout(), "the connection should hang, got %v", err)
}

// healthy checks that a fresh connection to broker is served.
func healthy(t testing.TB, srv *kafkawire.Server, broker int32) {
	t.Helper()
	c := dial(t, srv, broker)
	resp := c.roundTrip(apiVersions(3)).(*kmsg.ApiVersionsResponse)
	require.Zero(t, resp.ErrorCode)
	c.nc.Close()
}

func apiVersions(v int16) *kmsg.ApiVersionsRequest {
	r := kmsg.NewPtrApiVersionsRequest()
	r.SetVersion(v)
	r.ClientSoftwareName, r.ClientSoftwareVersion = "kafkawire-test", "1.0"
	return r
}

func metadata(v int16, topics ...string) *kmsg.MetadataRequest {
	r := kmsg.NewPtrMetadataRequest()
	r.SetVersion(v)
	r.AllowAutoTopicCreation = true
	for _, n := range topics {
		mt := kmsg.NewMetadataRequestTopic()
		mt.Topic = kmsg.StringPtr(n)
		r.Topics = append(r.Topics, mt)
	}
	return r
}

// batch is a v2 batch of values, base offset 0, no producer.
func batch(values ...string) []byte {
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}}
	for i, v := range values {
		b.AppendRecord(int64(i), 1700000000000+int64(i), nil, []byte(v))
	}
	return b.AppendTo(nil)
}

func produce(v int16, acks int16, topic string, records []byte) *kmsg.ProduceRequest {
	r := kmsg.NewPtrProduceRequest()
	r.SetVersion(v)
	r.Acks, r.TimeoutMillis = acks, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Records = records
	rt.Partitions = []kmsg.ProduceRequestTopicPartition{rp}
	r.Topics = []kmsg.ProduceRequestTopic{rt}
	return r
}

func fetch(v int16, topic string, id [16]byte, offset int64, maxBytes int32) *kmsg.FetchRequest {
	r := kmsg.NewPtrFetchRequest()
	r.SetVersion(v)
	r.MaxWaitMillis, r.MinBytes, r.MaxBytes = 0, 0, maxBytes
	r.SessionEpoch = -1
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic, rt.TopicID = topic, id
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.FetchOffset, rp.PartitionMaxBytes = offset, maxBytes
	rt.Partitions = []kmsg.FetchRequestTopicPartition{rp}
	r.Topics = []kmsg.FetchRequestTopic{rt}
	return r
}
