package kafkawire_test

import (
	"encoding/binary"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/kafkawire/kafkawiretest"
)

type keyRange struct{ Key, Min, Max int16 }

func advertised(resp *kmsg.ApiVersionsResponse) []keyRange {
	var out []keyRange
	for _, k := range resp.ApiKeys {
		out = append(out, keyRange{k.ApiKey, k.MinVersion, k.MaxVersion})
	}
	return out
}

func TestApiVersions(t *testing.T) {
	srv, _, _ := serve(t, kafkawire.Config{})
	var table []keyRange
	for _, a := range kafkawiretest.APIVersions() {
		table = append(table, keyRange{a.Key, a.MinVersion, a.MaxVersion})
	}
	only := []keyRange{{18, 0, 3}}
	for _, tc := range []struct {
		name    string
		version int16
		sw      string
		// wantVersion is the layout of the answer.
		wantVersion int16
		wantErr     int16
		wantKeys    []keyRange
	}{
		{"v0", 0, "", 0, 0, table},
		{"v1", 1, "", 1, 0, table},
		{"v2", 2, "", 2, 0, table},
		{"v3", 3, "kafkawire-test", 3, 0, table},
		// KIP-511: a version the broker does not know is answered in the v0
		// layout with UNSUPPORTED_VERSION and ApiVersions' own range.
		{"v4 unsupported", 4, "kafkawire-test", 0, 35, only},
		{"v127 unsupported", 127, "kafkawire-test", 0, 35, only},
		{"negative version", -1, "", 0, 35, only},
		// ApiVersionsRequest.isValid: the software name must match the pattern.
		{"v3 bad software name", 3, "-bad name", 3, 42, nil},
		{"v3 empty software name", 3, "", 3, 42, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, srv, 1)
			req := apiVersions(tc.version)
			req.ClientSoftwareName = tc.sw
			// The frame is written at the asked version; the answer is read
			// at the layout the broker uses.
			c.send(req)
			b, err := c.readFrame(patience)
			require.NoError(t, err)
			layout := kmsg.NewPtrApiVersionsRequest()
			layout.SetVersion(tc.wantVersion)
			resp := decodeResponse(t, b, layout, c.corr).(*kmsg.ApiVersionsResponse)
			c.sent = c.sent[1:]
			if diff := cmp.Diff(tc.wantErr, resp.ErrorCode); diff != "" {
				t.Errorf("error code (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantKeys, advertised(resp)); diff != "" {
				t.Errorf("api keys (-want +got):\n%s", diff)
			}
			// The connection goes on (no close after ApiVersions).
			ok := c.roundTrip(apiVersions(3)).(*kmsg.ApiVersionsResponse)
			require.Zero(t, ok.ErrorCode)
		})
	}
}

func TestDefaultAPIVersionsAreKafka37s(t *testing.T) {
	// Kafka 3.7.0's validVersions (clients/src/main/resources/common/message),
	// except the raised minima DefaultAPIVersions documents, the consumer
	// group protocol's APIs at Kafka 4.0's (KIP-848: ListGroups v5,
	// ConsumerGroupHeartbeat and ConsumerGroupDescribe 0-1),
	// DescribeTopicPartitions (Kafka 3.8+), and the read-only admin APIs at
	// Kafka 4.0's.
	want := map[int16][2]int16{
		0: {3, 10}, 1: {4, 16}, 2: {1, 8}, 3: {0, 12}, 8: {0, 9}, 9: {0, 9}, 10: {0, 4},
		11: {0, 9}, 12: {0, 4}, 13: {0, 5}, 14: {0, 5}, 15: {0, 5}, 16: {0, 5}, 18: {0, 3},
		19: {0, 7}, 20: {0, 6}, 22: {0, 4}, 23: {0, 4}, 24: {0, 4}, 25: {0, 3}, 26: {0, 3}, 27: {0, 1}, 28: {0, 3},
		32: {0, 4}, 33: {0, 2}, 37: {0, 3}, 42: {0, 2}, 44: {0, 1}, 61: {0, 0}, 65: {0, 0}, 66: {0, 0},
		68: {0, 1}, 69: {0, 1}, 75: {0, 0},
		35: {1, 4}, 46: {0, 0}, 55: {0, 2}, 60: {0, 2},
	}
	got := map[int16][2]int16{}
	for _, a := range kafkawire.DefaultAPIVersions() {
		got[a.Key] = [2]int16{a.MinVersion, a.MaxVersion}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("DefaultAPIVersions (-want +got):\n%s", diff)
	}
	_, err := kafkawire.NewVersions(kafkawire.DefaultAPIVersions())
	require.NoError(t, err)
}

func TestNewVersionsRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		list []kafkawire.APIVersion
	}{
		{"unknown key", []kafkawire.APIVersion{{Key: 9999, MaxVersion: 0}}},
		{"beyond kmsg", []kafkawire.APIVersion{{Key: 0, MinVersion: 3, MaxVersion: 99}}},
		{"min above max", []kafkawire.APIVersion{{Key: 0, MinVersion: 5, MaxVersion: 4}}},
		{"negative min", []kafkawire.APIVersion{{Key: 0, MinVersion: -1, MaxVersion: 4}}},
		{"twice", []kafkawire.APIVersion{{Key: 3, MaxVersion: 4}, {Key: 3, MaxVersion: 5}}},
		{"ApiVersions other range", []kafkawire.APIVersion{{Key: 18, MaxVersion: 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kafkawire.NewVersions(tc.list)
			require.ErrorIs(t, err, kafkawire.ErrConfig)
		})
	}
}

// rawFrame is a size prefix and body.
func rawFrame(body []byte) []byte {
	return binary.BigEndian.AppendUint32(nil, uint32(len(body)))
}

// header is a request header v1 (or v2 with tags) for key and version.
func header(key, version int16, corr int32, clientID []byte, tags []byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(key))
	b = binary.BigEndian.AppendUint16(b, uint16(version))
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	b = append(b, clientID...)
	return append(b, tags...)
}

func str16(s string) []byte { return append(binary.BigEndian.AppendUint16(nil, uint16(len(s))), s...) }

// TestMalformed: every class of bad input gets Kafka's answer, a closed
// connection, and the server goes on serving other connections.
func TestMalformed(t *testing.T) {
	srv, _, sink := serve(t, kafkawire.Config{SocketRequestMaxBytes: 1 << 20})
	metadataBody := metadata(4, "t").AppendTo(nil)
	for _, tc := range []struct {
		name string
		// bytes are sent as they are (size prefix included).
		bytes []byte
		// wantLog is a piece of the log line of the close.
		wantLog string
	}{
		{"negative size", []byte{0xff, 0xff, 0xff, 0xfe}, "invalid request size: -2"},
		{"size above socket.request.max.bytes", []byte{0x00, 0x10, 0x00, 0x01, 1, 2, 3}, "invalid request size: 1048577"},
		{"100 MiB size", binary.BigEndian.AppendUint32(nil, 100<<20), "invalid request size: 104857600"},
		{"size 0", []byte{0, 0, 0, 0}, "malformed request header: 0 bytes"},
		{"header of 3 bytes", append(rawFrame(make([]byte, 3)), 0, 3, 0), "malformed request header: 3 bytes"},
		{"unknown api key", frameOf(header(9999, 0, 1, str16("c"), nil)), "unsupported api key: 9999"},
		{"negative api key", frameOf(header(-1, 0, 1, str16("c"), nil)), "unsupported api key: -1"},
		{"api key not served (SaslHandshake)", frameOf(header(17, 1, 1, str16("c"), nil)), "unsupported api key: 17"},
		{"api key not served by the backend (JoinGroup)", frameOf(header(11, 5, 1, str16("c"), nil)), "unsupported api key: 11"},
		{"Produce v2, below the range", frameOf(header(0, 2, 1, str16("c"), nil)), "unsupported api version: Produce version 2"},
		{"Metadata v13, above the range", frameOf(append(header(3, 13, 1, str16("c"), []byte{0}), 0)), "unsupported api version: Metadata version 13"},
		{"client id length -2", frameOf(header(3, 4, 1, []byte{0xff, 0xfe}, nil)), "client id length -2"},
		{"client id longer than the frame", frameOf(header(3, 4, 1, []byte{0, 50, 'a'}, nil)), "client id of 50 bytes, 1 present"},
		{"header v2 without tags", frameOf(header(3, 9, 1, str16("c"), nil)), "tagged field count"},
		{"header v2 tag past the end", frameOf(header(3, 9, 1, str16("c"), []byte{1, 0, 100})), "tagged field 0 of 1: size"},
		{"body cut", frameOf(append(header(3, 4, 1, str16("c"), nil), metadataBody[:len(metadataBody)-3]...)), "malformed request body: Metadata v4"},
		{"Metadata topic count beyond the bytes", frameOf(append(header(3, 4, 1, str16("c"), nil), 0x7f, 0, 0, 0)), "malformed request body"},
		{"half a frame, then the client goes", append(binary.BigEndian.AppendUint32(nil, 100), 0, 3, 0, 4), "the client closed the connection 4 bytes into 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, srv, 2)
			require.NoError(t, c.write(tc.bytes))
			if strings.HasPrefix(tc.name, "half a frame") {
				c.nc.(interface{ CloseWrite() error }).CloseWrite()
			}
			c.requireClosed()
			healthy(t, srv, 2)
			require.Eventually(t, func() bool {
				return slices.ContainsFunc(sink.all(), func(l string) bool { return strings.Contains(l, tc.wantLog) })
			}, patience, 10*time.Millisecond, "no log line with %q in\n%s", tc.wantLog, strings.Join(sink.all(), "\n"))
		})
	}
}

func frameOf(body []byte) []byte { return append(rawFrame(body), body...) }

// TestStalledHalfRequest: a client that sends half a request and stalls blocks
// nobody, and is closed after connections.max.idle.ms; a whole request in
// progress is not idle.
func TestStalledHalfRequest(t *testing.T) {
	srv, mem, sink := serve(t, kafkawire.Config{ConnectionsMaxIdle: 500 * time.Millisecond})
	stalled := dial(t, srv, 1)
	frame := stalled.frame(metadata(4, "t"))
	require.NoError(t, stalled.write(frame[:len(frame)/2]))
	for range 3 {
		healthy(t, srv, 1)
	}
	stalled.requireClosed()
	require.Eventually(t, func() bool {
		return strings.Contains(strings.Join(sink.all(), "\n"), "closed: idle for connections.max.idle.ms")
	}, patience, 10*time.Millisecond)

	// A request waiting for the world is not idle.
	mem.Hold()
	c := dial(t, srv, 1)
	c.send(metadata(4, "t"))
	time.Sleep(3 * 500 * time.Millisecond)
	mem.Release()
	resp := c.recv().(*kmsg.MetadataResponse)
	require.Len(t, resp.Topics, 1)
}

// TestPipelining: requests written at once are answered one by one in request
// order, also when their answers were held back and released together.
func TestPipelining(t *testing.T) {
	srv, mem, _ := serve(t, kafkawire.Config{})
	mem.CreateTopic("p")
	c := dial(t, srv, 1)
	var frames []byte
	var want []string
	for i := range 40 {
		var req kmsg.Request
		switch i % 4 {
		case 0:
			req = apiVersions(int16(i % 4))
		case 1:
			req = metadata(int16(i%13), "p")
		case 2:
			req = produce(int16(3+i%8), -1, "p", batch(fmt.Sprint(i)))
		case 3:
			req = fetch(int16(4+i%9), "p", [16]byte{}, 0, 1<<20)
		}
		frames = append(frames, c.frame(req)...)
		want = append(want, kmsg.NameForKey(req.Key()))
	}
	mem.Hold()
	require.NoError(t, c.write(frames))
	time.Sleep(50 * time.Millisecond)
	mem.Release()
	var got []string
	var bases []int64
	for range want {
		resp := c.recv() // checks the correlation id
		got = append(got, kmsg.NameForKey(resp.Key()))
		if p, ok := resp.(*kmsg.ProduceResponse); ok {
			bases = append(bases, p.Topics[0].Partitions[0].BaseOffset)
		}
		mem.Release() // answers held after the first release
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("responses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, bases); diff != "" {
		t.Fatalf("produce base offsets, in request order (-want +got):\n%s", diff)
	}
}

// TestBrokerStates: a refusing broker closes new and open connections; a
// silent one keeps them open and answers nothing until it serves again; a
// Disconnect closes a broker's connections and DisconnectAll every one.
func TestBrokerStates(t *testing.T) {
	srv, mem, sink := serve(t, kafkawire.Config{})
	mem.CreateTopic("s")

	open := dial(t, srv, 3)
	open.roundTrip(apiVersions(3))
	mem.SetState(3, kafkawire.Refusing)
	open.requireClosed()
	requireRefused(t, srv, 3)
	healthy(t, srv, 2)
	mem.SetState(3, kafkawire.Serving)
	healthy(t, srv, 3)

	// Silent: nothing comes back, neither ApiVersions nor a backend answer,
	// and the connection stays open; the answers come once it serves again.
	c := dial(t, srv, 1)
	mem.SetState(1, kafkawire.Silent)
	c.send(apiVersions(3))
	c.send(produce(7, -1, "s", batch("during the cut")))
	c.requireQuiet()
	mem.SetState(1, kafkawire.Serving)
	c.recv()
	p := c.recv().(*kmsg.ProduceResponse)
	require.Zero(t, p.Topics[0].Partitions[0].ErrorCode)

	// A silent broker accepts and never answers, nor closes on bad bytes.
	mem.SetState(1, kafkawire.Silent)
	late := dial(t, srv, 1)
	late.send(apiVersions(3))
	late.requireQuiet()
	garbage := dial(t, srv, 1)
	require.NoError(t, garbage.write([]byte{0xff, 0xff, 0xff, 0xff}))
	garbage.requireQuiet()
	bystander := dial(t, srv, 2)
	bystander.roundTrip(apiVersions(3))
	// Powered on again: the connections of before the cut are gone (the
	// world disconnects them before it serves again).
	require.Equal(t, 3, srv.Disconnect(1, "broker 1 powered on"))
	mem.SetState(1, kafkawire.Serving)
	c.requireClosed()
	late.requireClosed()
	garbage.requireClosed()
	bystander.roundTrip(apiVersions(3)) // broker 2's connections stay
	bystander.nc.Close()
	require.Eventually(t, func() bool { return len(srv.Connections()) == 0 }, patience, 10*time.Millisecond)

	a, b := dial(t, srv, 1), dial(t, srv, 2)
	a.roundTrip(apiVersions(3))
	b.roundTrip(apiVersions(3))
	require.Equal(t, 2, srv.DisconnectAll("the world jumped back to 12:00:01"))
	a.requireClosed()
	b.requireClosed()
	require.Contains(t, strings.Join(sink.all(), "\n"), "closed: the world jumped back to 12:00:01")
	healthy(t, srv, 1)
}

// TestProduceFetch: a batch is appended byte for byte but its base offset and
// leader epoch; a non-leader answers NOT_LEADER_OR_FOLLOWER; a fetch cut by
// its byte limit ends in an incomplete batch yet returns the first whole.
func TestProduceFetch(t *testing.T) {
	srv, mem, _ := serve(t, kafkawire.Config{})
	mem.CreateTopic("f")
	mem.SetLeader(1) // epoch 1
	c := dial(t, srv, 1)
	b0, b1 := batch("a", "b", "c"), batch("d")
	for i, b := range [][]byte{b0, b1} {
		resp := c.roundTrip(produce(9, -1, "f", b)).(*kmsg.ProduceResponse)
		got := resp.Topics[0].Partitions[0]
		require.Zero(t, got.ErrorCode)
		require.Equal(t, []int64{0, 3}[i], got.BaseOffset)
	}
	log := mem.Log("f")
	require.Len(t, log, len(b0)+len(b1))
	want0 := slices.Clone(b0)
	binary.BigEndian.PutUint32(want0[12:], 1)
	want1 := slices.Clone(b1)
	binary.BigEndian.PutUint64(want1, 3)
	binary.BigEndian.PutUint32(want1[12:], 1)
	if diff := cmp.Diff(append(want0, want1...), log); diff != "" {
		t.Fatalf("log bytes (-want +got):\n%s", diff)
	}

	other := dial(t, srv, 2)
	resp := other.roundTrip(produce(9, -1, "f", batch("x"))).(*kmsg.ProduceResponse)
	require.Equal(t, kafkawiretest.ErrNotLeaderOrFollower, resp.Topics[0].Partitions[0].ErrorCode)
	bad := batch("x")
	bad[len(bad)-1] ^= 1
	resp = c.roundTrip(produce(9, -1, "f", bad)).(*kmsg.ProduceResponse)
	require.Equal(t, kafkawiretest.ErrCorruptMessage, resp.Topics[0].Partitions[0].ErrorCode)

	f := c.roundTrip(fetch(11, "f", [16]byte{}, 0, 10)).(*kmsg.FetchResponse)
	require.Equal(t, log[:len(b0)], f.Topics[0].Partitions[0].RecordBatches, "the first batch whole")
	f = c.roundTrip(fetch(11, "f", [16]byte{}, 1, int32(len(b0)+5))).(*kmsg.FetchResponse)
	require.Equal(t, log[:len(b0)+5], f.Topics[0].Partitions[0].RecordBatches, "cut 5 bytes into the second batch")
	require.Equal(t, int64(4), f.Topics[0].Partitions[0].HighWatermark)

	// A client behind on the leader epoch is fenced, one ahead is told the
	// epoch is unknown (Partition.checkCurrentLeaderEpoch).
	for epoch, code := range map[int32]int16{0: kafkawiretest.ErrFencedLeaderEpoch, 2: kafkawiretest.ErrUnknownLeaderEpoch, 1: 0, -1: 0} {
		req := fetch(11, "f", [16]byte{}, 0, 100)
		req.Topics[0].Partitions[0].CurrentLeaderEpoch = epoch
		f := c.roundTrip(req).(*kmsg.FetchResponse)
		require.Equal(t, code, f.Topics[0].Partitions[0].ErrorCode, "current leader epoch %d", epoch)
	}
}

// TestFetchSessions: Kafka 3.7 without session cache slots answers full
// fetches with session id 0 and an incremental one with
// FETCH_SESSION_ID_NOT_FOUND.
func TestFetchSessions(t *testing.T) {
	srv, mem, _ := serve(t, kafkawire.Config{})
	mem.CreateTopic("s")
	c := dial(t, srv, 1)
	full := fetch(12, "s", [16]byte{}, 0, 100)
	full.SessionEpoch = 0
	resp := c.roundTrip(full).(*kmsg.FetchResponse)
	require.Zero(t, resp.ErrorCode)
	require.Zero(t, resp.SessionID)
	inc := fetch(12, "s", [16]byte{}, 0, 100)
	inc.SessionID, inc.SessionEpoch = 12345, 1
	resp = c.roundTrip(inc).(*kmsg.FetchResponse)
	require.Equal(t, int16(70), resp.ErrorCode)
	require.Zero(t, resp.SessionID)
	require.Empty(t, resp.Topics)
}

// TestAcksZero: acks=0 gets no response (the next request's response is the
// next frame) and a failed partition closes the connection.
func TestAcksZero(t *testing.T) {
	srv, mem, _ := serve(t, kafkawire.Config{})
	mem.CreateTopic("z")
	c := dial(t, srv, 1)
	require.NoError(t, c.write(c.frame(produce(8, 0, "z", batch("fire and forget")))))
	c.sent = c.sent[:0]
	c.send(apiVersions(3))
	c.recv()
	mem.FailProduce("z", 7)
	c.send(produce(8, 0, "z", batch("lost")))
	c.requireClosed()
}

// misbehaving answers every request with a Metadata response.
type misbehaving struct{}

func (misbehaving) State(int32, kafkawire.ConnInfo) kafkawire.State { return kafkawire.Serving }
func (misbehaving) Submit(int32, kafkawire.ConnInfo, kmsg.Request, []byte) kafkawire.Pending {
	return kafkawire.Ready(kafkawire.Respond(kmsg.NewPtrMetadataResponse()))
}

func TestBackendWrongKeyClosesConnection(t *testing.T) {
	srv, err := kafkawire.New(kafkawire.Config{Listeners: kafkawire.LoopbackListeners(1), Backend: misbehaving{}})
	require.NoError(t, err)
	srv.Start()
	defer srv.Close()
	c := dial(t, srv, 1)
	c.send(kmsg.NewPtrInitProducerIDRequest())
	c.requireClosed()
}

func TestConnectionsAndCounts(t *testing.T) {
	srv, _, _ := serve(t, kafkawire.Config{})
	a := dial(t, srv, 1)
	a.roundTrip(apiVersions(3))
	b := dial(t, srv, 1)
	b.f = kmsg.NewRequestFormatter(kmsg.FormatterClientID("other"))
	b.roundTrip(apiVersions(2))
	c := dial(t, srv, 2)
	c.roundTrip(apiVersions(0))
	got := srv.Counts()
	want := kafkawire.ConnCounts{ByBroker: map[int32]int{1: 2, 2: 1}, ByClient: map[string]int{"raw-client": 2, "other": 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("counts (-want +got):\n%s", diff)
	}
	conns := srv.Connections()
	require.Len(t, conns, 3)
	require.Equal(t, "kafkawire-test", conns[0].ClientSoftwareName, "from ApiVersions v3")
	require.Equal(t, "", conns[1].ClientSoftwareName, "ApiVersions v2 has none")
	a.nc.Close()
	require.Eventually(t, func() bool { return len(srv.Connections()) == 2 }, patience, 10*time.Millisecond)
}

// requireRefused checks that a connection to broker is reset: at once by the
// dial, or as the first read.
func requireRefused(t *testing.T, srv *kafkawire.Server, broker int32) {
	t.Helper()
	nc, err := net.DialTimeout("tcp", srv.Addr(broker).String(), patience)
	if err != nil {
		return
	}
	defer nc.Close()
	(&client{t: t, nc: nc}).requireClosed()
}

func TestNewRejects(t *testing.T) {
	_, err := kafkawire.New(kafkawire.Config{})
	require.ErrorIs(t, err, kafkawire.ErrConfig)
	_, err = kafkawire.New(kafkawire.Config{Backend: misbehaving{}, Listeners: []kafkawire.Listener{{1, "127.0.0.1:0"}, {1, "127.0.0.1:0"}}})
	require.ErrorIs(t, err, kafkawire.ErrConfig)
}

// TestGoneClientsAreClosed: a client that gives up on a silent broker, or on a
// request the world holds, and closes its connection is no longer counted,
// even with pipelined requests the server had no room to read.
func TestGoneClientsAreClosed(t *testing.T) {
	srv, mem, _ := serve(t, kafkawire.Config{})
	mem.SetState(1, kafkawire.Silent)
	mem.Hold()
	var cs []*client
	for i := range 6 {
		c := dial(t, srv, int32(1+i%2)) // broker 1 is silent, broker 2 holds the answers
		var frames []byte
		for range 5 {
			frames = append(frames, c.frame(metadata(4, "g"))...)
		}
		require.NoError(t, c.write(frames))
		cs = append(cs, c)
	}
	require.Eventually(t, func() bool { return len(srv.Connections()) == 6 }, patience, 10*time.Millisecond)
	// The clients time out and close.
	for _, c := range cs {
		c.nc.Close()
	}
	require.Eventually(t, func() bool { return len(srv.Connections()) == 0 }, patience, 10*time.Millisecond,
		"connections left: %v", srv.Connections())
}
