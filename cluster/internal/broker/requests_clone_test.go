package broker

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// busyRequests is a fake world whose Requests hold one of everything
// that waits: an acks=all produce whose follower is down (its answer half
// filled in: the other partition refused), a fetch waiting for bytes, and
// a JoinGroup waiting for the join phase; plus answers not taken yet and
// a client seen.
func busyRequests(t *testing.T) *fakeEnv {
	t.Helper()
	f := newFakeEnv(3, 2)
	for _, b := range f.brokers {
		require.NoError(t, b.Start(f))
	}
	f.quiet()
	serve := func(req kmsg.Request) {
		t.Helper()
		served, err := f.serve(1, req)
		require.NoError(t, err)
		require.True(t, served)
	}
	a := func(line string) args {
		t.Helper()
		cmd, cmdArgs, err := datadriven.ParseLine(line)
		require.NoError(t, err)
		return args{t: t, d: &datadriven.TestData{Cmd: cmd, CmdArgs: cmdArgs}}
	}
	serve(a("create-topics topic=t partitions=1 rf=3").request())
	serve(a("find-coordinator group=g").request())
	f.run(100)
	require.NoError(t, f.brokers[2].Kill(f))
	produce := a("produce topic=t acks=-1 records=2 timeout=30000").request().(*kmsg.ProduceRequest)
	produce.Topics[0].Partitions = append(produce.Topics[0].Partitions, kmsg.ProduceRequestTopicPartition{Partition: 9, Records: produce.Topics[0].Partitions[0].Records})
	serve(produce)
	serve(a("fetch topic=t offset=2 max-wait=20000 min-bytes=100000").request())
	coordinator, ok := f.Coordinator("g")
	require.True(t, ok, "group g has a coordinator")
	_, err := f.serve(coordinator, a("join-group group=g").request())
	require.NoError(t, err)
	require.Equal(t, 2, f.rq.Pending(), "a produce and a fetch wait")
	require.Len(t, f.rq.groups, 1, "a JoinGroup waits")
	return f
}

// dump prints everything rq holds, the responses it fills in as their
// bytes, so that two dumps are equal exactly when the contents are.
func dump(rq *Requests) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ids %d corr %d pid %d sweep %d\n", rq.nextID, rq.corr, rq.nextPID, rq.sweepMs)
	for _, c := range rq.clients {
		fmt.Fprintf(&b, "client %+v requests %v\n", c, c.Requests)
	}
	for _, a := range rq.answers {
		fmt.Fprintf(&b, "answer %d %x\n", a.ID, a.Response.AppendTo(nil))
	}
	for _, id := range slices.Sorted(maps.Keys(rq.pending)) {
		p := rq.pending[id]
		fmt.Fprintf(&b, "pending %d client %d broker %d inc %d open %d deadline %d", p.id, p.client, p.broker, p.incarnation, p.open, p.deadlineMs)
		if p.produce != nil {
			fmt.Fprintf(&b, " produce %x", p.produce.AppendTo(nil))
		}
		b.WriteString("\n")
	}
	for _, corr := range slices.Sorted(maps.Keys(rq.waiting)) {
		fmt.Fprintf(&b, "waiting %d %+v\n", corr, rq.waiting[corr])
	}
	for _, addr := range slices.Sorted(maps.Keys(rq.groups)) {
		w := rq.groups[addr]
		fmt.Fprintf(&b, "group %s id %d broker %d inc %d part %d open %d resp %x\n", addr, w.id, w.broker, w.incarnation, w.part, *w.open, w.resp.AppendTo(nil))
	}
	return b.String()
}

// TestCloneSharesNothingMutable: a clone of the Requests holds what the
// original holds; then the world answers everything the original waits
// for (the produce once the ISR shrinks, the fetch at its deadline, the
// JoinGroup after the join phase), the client asks again, and the clone
// has not changed; and the
// other way round, a world answering through the clone leaves the
// original as it was.
func TestCloneSharesNothingMutable(t *testing.T) {
	for _, drive := range []string{"original", "clone"} {
		t.Run("drive the "+drive, func(t *testing.T) {
			f := busyRequests(t)
			before := dump(f.rq)
			c := f.rq.Clone()
			if diff := cmp.Diff(before, dump(c)); diff != "" {
				t.Fatalf("the clone differs from the original (-original +clone):\n%s", diff)
			}
			still := c // the one left alone
			if drive == "clone" {
				f.rq, still = c, f.rq
			}
			f.run(25000)
			if _, err := f.serve(1, kmsg.NewPtrMetadataRequest()); err != nil { // one more of the client's requests
				t.Fatal(err)
			}
			f.rq.Answers()
			if dump(f.rq) == before {
				t.Fatal("the driven Requests did not change: the test proves nothing")
			}
			if diff := cmp.Diff(before, dump(still)); diff != "" {
				t.Fatalf("driving the %s changed the other (-before +after):\n%s", drive, diff)
			}
		})
	}
}

// TestCloneKeepsAckedApart: the offsets acknowledged to a client, whose
// runs shrink in place when a leader without them takes over, are the
// clone's own.
func TestCloneKeepsAckedApart(t *testing.T) {
	f := newFakeEnv(3, 1)
	rq := &Requests{}
	k := tp{Topic: "t", Partition: 0}
	rq.client(f, &Request{Client: 1, ClientID: "c", Broker: 1, Key: 0})
	rq.clients[0].noteAcked(k, 0, 5)
	rq.clients[0].noteAcked(k, 5, 5)
	before := dump(rq)
	c := rq.Clone()
	rq.MarkLostAfterAck(f, 2, k, 1, 3)
	require.Equal(t, 7, rq.clients[0].LostAfterAck, "records 3 to 9 were lost")
	if diff := cmp.Diff(before, dump(c)); diff != "" {
		t.Fatalf("marking the original's records lost changed the clone (-before +after):\n%s", diff)
	}
	c.MarkLostAfterAck(f, 2, k, 1, 8)
	require.Equal(t, 2, c.clients[0].LostAfterAck, "the clone still held records 8 and 9")
}
