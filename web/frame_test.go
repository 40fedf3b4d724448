package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/defaultworld"
)

// canonical decodes a JSON document, so that two encodings of the same
// value compare equal whatever their key order.
func canonical(t require.TestingT, b []byte) any {
	var v any
	require.NoError(t, json.Unmarshal(b, &v), "%.200s", b)
	return v
}

// page is one page's end of the update stream in a test: the frames the
// server made for it and the store the page keeps.
type page struct {
	focus Focus
	fr    frames
	store Store
}

// drawTableQuery draws a partition table's page a page may ask for.
func drawTableQuery(t *rapid.T, label string) TableQuery {
	return TableQuery{
		Topic:  rapid.SampledFrom([]string{"", "", "orders", "big", "o", "nope"}).Draw(t, label+" topic"),
		Status: rapid.SampledFrom([]string{"", "", StatusUnderReplicated, StatusUnavailable, StatusUnderMinISR, StatusAtMinISR}).Draw(t, label+" status"),
		Leader: rapid.SampledFrom([]int32{0, 0, 1, 2, 3}).Draw(t, label+" leader"),
		Sort:   rapid.SampledFrom([]string{"", SortLeader, SortUnderReplicated, SortLag}).Draw(t, label+" sort"),
		Page:   rapid.IntRange(0, 4).Draw(t, label+" page"),
	}
}

// drawLine draws a terminal line that changes what pages show: brokers
// stopped and started, topics of many partitions made and deleted,
// producers, consumers, the network.
func drawLine(t *rapid.T) string {
	return rapid.SampledFrom([]string{
		"stop 2", "start 2", "kill 3", "start 3", "power-cut 1", "start 1", "cut 1 2,3", "heal",
		"kafka-topics --create --topic big --partitions 60 --replication-factor 3",
		"kafka-topics --create --topic big2 --partitions 30 --replication-factor 2",
		"kafka-topics --delete --topic big", "kafka-topics --alter --topic orders --partitions 5",
		"produce checkout hello --key alice", "set-producer clicks --rate 40 --acks all --keys none",
		"add-consumer billing-3 --group billing --topics orders", "add-consumer wide-1 --group wide --topics big",
		"remove-consumer billing-2", "crash-consumer billing-1", "kafka-consumer-groups --delete --group search-index",
		"run 3000",
	}).Draw(t, "line")
}

// TestStreamPatchesMakeTheWholeUpdate plays random actions on default
// worlds of random seeds, with pages showing random partitions and pages
// of the partition table: after each step, every page's store, patched by
// the frame the stream made for it, is the whole update the server would
// send a page that opened the stream then. A page that misses a frame is
// told to start again (ErrResync), and does. An entity keeps its version
// exactly while it stays the same.
func TestStreamPatchesMakeTheWholeUpdate(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64Range(1, 1<<20).Draw(rt, "seed")
		live, err := NewLiveConfig(defaultworld.Config(seed))
		require.NoError(rt, err)
		term := NewTerminal(live)
		pages := make([]*page, rapid.IntRange(1, 3).Draw(rt, "pages"))
		for i := range pages {
			pages[i] = &page{focus: Focus{Topic: rapid.SampledFrom([]string{"orders", "profiles", "big"}).Draw(rt, "detail"),
				Partition: int32(rapid.IntRange(0, 2).Draw(rt, "partition")), Table: drawTableQuery(rt, "table")}}
		}
		seen := map[entityKey]seenEntity{}
		steps := rapid.IntRange(1, 25).Draw(rt, "steps")
		for step := 0; step < steps; step++ {
			switch rapid.IntRange(0, 9).Draw(rt, "action") {
			case 0, 1, 2:
				require.NoError(rt, live.Advance(int64(rapid.IntRange(1, 2000).Draw(rt, "ms"))))
			case 3:
				p := pages[rapid.IntRange(0, len(pages)-1).Draw(rt, "page")]
				p.focus.Table = drawTableQuery(rt, "new table")
			case 4:
				if rapid.Bool().Draw(rt, "scenario") {
					_, _ = live.StartScenario(rapid.SampledFrom([]string{"kip101-part3", "life-of-a-record"}).Draw(rt, "name"), 0, nil)
				} else {
					require.NoError(rt, live.Reset())
				}
			default:
				_ = term.Exec(drawLine(rt), nil, io.Discard)
			}
			for i, p := range pages {
				e, _, err := live.Present(p.focus)
				require.NoError(rt, err)
				checkVersions(rt, seen, e)
				b, ok, err := p.fr.next(e)
				require.NoError(rt, err)
				if !ok {
					continue
				}
				if rapid.IntRange(0, 9).Draw(rt, "frame lost") == 0 {
					continue // the page misses this frame: the next one cannot apply
				}
				if err := p.store.Apply(b); err != nil {
					if !errors.Is(err, ErrResync) {
						rt.Fatalf("step %d, page %d: %v", step, i, err)
					}
					p.fr, p.store = frames{}, Store{} // the page opens the stream again
					b, _, err = p.fr.next(e)
					require.NoError(rt, err)
					require.NoError(rt, p.store.Apply(b))
				}
				if d := cmp.Diff(canonical(rt, e.Bytes()), canonical(rt, p.store.JSON())); d != "" {
					rt.Fatalf("step %d, page %d (%+v): the store patched by frame %d is not the whole update (-whole +store):\n%s\nframe: %.2000s",
						step, i, p.focus, p.store.Seq(), d, b)
				}
			}
		}
	})
}

// seenEntity is an entity as an update carried it: its version and its
// JSON without it.
type seenEntity struct {
	v   uint64
	raw string
}

// checkVersions checks that e's entities keep their versions while they
// stay the same, and get a new one when they change.
func checkVersions(t *rapid.T, seen map[entityKey]seenEntity, e *EncodedUpdate) {
	for list, ents := range e.lists {
		for _, en := range ents {
			var m map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(en.raw, &m))
			delete(m, "v")
			rawb, err := json.Marshal(m)
			require.NoError(t, err)
			raw := string(rawb)
			k := entityKey{list, en.id}
			if before, ok := seen[k]; ok {
				if (before.raw == raw) != (before.v == en.v) {
					t.Fatalf("%s %s: version %d then %d, while it went from %s to %s", list, en.id, before.v, en.v, before.raw, raw)
				}
			}
			seen[k] = seenEntity{en.v, raw}
		}
	}
}

// TestStoreRefusesWhatDoesNotApply: a patch of another frame, of a list
// that is not one, or that places an entity nowhere, is an ErrResync and
// leaves the store as it was.
func TestStoreRefusesWhatDoesNotApply(t *testing.T) {
	full := `{"seq":1,"full":{"t":1,"brokers":[{"id":1,"v":1}],"parts":[{"topic":"a","p":0,"v":2}],"producers":[],"groups":[]}}`
	for _, tc := range []struct{ name, frame string }{
		{"a frame missed", `{"seq":3,"base":2,"set":{"t":3}}`},
		{"a list that is not one", `{"seq":2,"base":1,"lists":{"topics":{"ids":[]}}}`},
		{"a list set as a field", `{"seq":2,"base":1,"set":{"parts":[]}}`},
		{"a new entity placed nowhere", `{"seq":2,"base":1,"lists":{"parts":{"put":{"a-1":{"topic":"a","p":1,"v":3}}}}}`},
		{"an id neither held nor sent", `{"seq":2,"base":1,"lists":{"parts":{"ids":["a-0","a-9"]}}}`},
		{"not JSON", `{"seq":2,`},
		{"a whole update without its lists", `{"seq":2,"full":{"t":2}}`},
		{"a broker without its id", `{"seq":2,"full":{"brokers":[{"v":1}],"parts":[],"producers":[],"groups":[]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Store
			require.NoError(t, s.Apply([]byte(full)))
			before := string(s.JSON())
			err := s.Apply([]byte(tc.frame))
			if !errors.Is(err, ErrResync) {
				t.Fatalf("applying %s: %v, want ErrResync", tc.frame, err)
			}
			if got := string(s.JSON()); got != before || s.Seq() != 1 {
				t.Fatalf("a frame refused changed the store: %s (frame %d)", got, s.Seq())
			}
		})
	}
}

// TestPageStoreAppliesTheServersFrames runs the page's own store
// (static/js/viewstore.js, under node) on the frames of real streams:
// random actions on the default world, with frames lost. After each frame
// the page's update must be the whole update the server had, and a lost
// frame must make the page start the stream again.
func TestPageStoreAppliesTheServersFrames(t *testing.T) {
	bin := node(t)
	// step is a frame the page gets (Whole: the update it makes), one it
	// misses (Lost), or one it must refuse (Resync: a frame before it was
	// missed), after which the stream starts again.
	type step struct {
		Frame  string `json:"frame,omitempty"`
		Whole  string `json:"whole,omitempty"`
		Lost   bool   `json:"lost,omitempty"`
		Resync bool   `json:"resync,omitempty"`
	}
	js := startNode(t, bin, "jstest/frames.mjs")
	var steps []step
	rapid.Check(t, func(rt *rapid.T) {
		steps = steps[:0]
		live, err := NewLive()
		require.NoError(rt, err)
		term := NewTerminal(live)
		p := &page{focus: Focus{Topic: "orders", Table: drawTableQuery(rt, "table")}}
		missed := false
		for i, n := 0, rapid.IntRange(1, 20).Draw(rt, "steps"); i < n; i++ {
			if rapid.Bool().Draw(rt, "run") {
				require.NoError(rt, live.Advance(int64(rapid.IntRange(1, 3000).Draw(rt, "ms"))))
			} else {
				_ = term.Exec(drawLine(rt), nil, io.Discard)
			}
			if rapid.IntRange(0, 4).Draw(rt, "new table") == 0 {
				p.focus.Table = drawTableQuery(rt, "table")
			}
			e, _, err := live.Present(p.focus)
			require.NoError(rt, err)
			b, ok, err := p.fr.next(e)
			require.NoError(rt, err)
			switch {
			case !ok:
			case missed:
				// the patch after the missed frame: the page refuses it and
				// opens the stream again
				steps = append(steps, step{Frame: string(b), Resync: true})
				p.fr, missed = frames{}, false
				b, _, err = p.fr.next(e)
				require.NoError(rt, err)
				steps = append(steps, step{Frame: string(b), Whole: string(e.Bytes())})
			case len(steps) > 0 && rapid.IntRange(0, 7).Draw(rt, "lost") == 0:
				steps = append(steps, step{Frame: string(b), Lost: true})
				missed = true
			default:
				steps = append(steps, step{Frame: string(b), Whole: string(e.Bytes())})
			}
		}
		b, err := json.Marshal(steps)
		require.NoError(rt, err)
		_, err = fmt.Fprintf(js.in, "%s\n", b)
		require.NoError(rt, err)
		answer, err := js.out.ReadString('\n')
		require.NoError(rt, err, "the page's store under node stopped")
		if answer != "ok\n" {
			rt.Fatalf("the page's store on the server's frames (%d steps): %s", len(steps), answer)
		}
	})
}

// nodeProcess is a node script that answers lines with lines.
type nodeProcess struct {
	in  io.WriteCloser
	out *bufio.Reader
}

// startNode runs script under node for the test's length.
func startNode(t *testing.T, bin, script string) nodeProcess {
	cmd := exec.Command(bin, script)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	return nodeProcess{in: in, out: bufio.NewReader(out)}
}

// ExampleStore follows a stream: the whole update, then a patch.
func ExampleStore() {
	var s Store
	for _, frame := range []string{
		`{"seq":1,"full":{"t":100,"brokers":[{"v":1,"id":1,"state":"running"}],"parts":[],"producers":[],"groups":[]}}`,
		`{"seq":2,"base":1,"set":{"t":200},"lists":{"brokers":{"put":{"1":{"v":2,"id":1,"state":"stopped"}}}}}`,
	} {
		if err := s.Apply([]byte(frame)); err != nil {
			fmt.Println(err)
		}
	}
	var out bytes.Buffer
	json.Indent(&out, s.JSON(), "", "")
	fmt.Println(strings.ReplaceAll(out.String(), "\n", ""))
	// Output:
	// {"brokers": [{"v": 2,"id": 1,"state": "stopped"}],"groups": [],"parts": [],"producers": [],"t": 200}
}
