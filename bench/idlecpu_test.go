package bench

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestIdleCPUAfterClients measures what clients that came and went leave
// behind in a kafkalive server: the CPU `kafkalive serve` spends idle
// (nobody connected, no page open) before and after a number of clients,
// each with a client.id of its own, connected, asked for metadata and
// closed; beside a control server of the same binary that no client
// visits, measured over the same windows (the idle cost also drifts as
// the world's logs and history fill). It prints the medians of the
// windows and their ratio, after/before, for each server.
//
// It runs only when asked:
//
//	KAFKALIVE_IDLE_CPU=/path/to/kafkalive [KAFKALIVE_IDLE_CPU_VS=/path/to/other] \
//	    go test ./bench -run TestIdleCPUAfterClients -v -timeout 30m
//
// with KAFKALIVE_IDLE_CPU_CLIENTS (5000), _WINDOW (the seconds of each
// measuring window, 20) and _WINDOWS (3 before and 3 after). Linux only
// (it reads the servers' CPU time from /proc).
func TestIdleCPUAfterClients(t *testing.T) {
	bin := os.Getenv("KAFKALIVE_IDLE_CPU")
	if bin == "" {
		t.Skip("set KAFKALIVE_IDLE_CPU to a kafkalive binary to measure it")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	clients := envInt(t, "KAFKALIVE_IDLE_CPU_CLIENTS", 5000)
	window := time.Duration(envInt(t, "KAFKALIVE_IDLE_CPU_WINDOW", 20)) * time.Second
	windows := envInt(t, "KAFKALIVE_IDLE_CPU_WINDOWS", 3)
	bins := []string{bin}
	if vs := os.Getenv("KAFKALIVE_IDLE_CPU_VS"); vs != "" {
		bins = append(bins, vs)
	}
	for _, b := range bins {
		visited, control := startServe(t, b), startServe(t, b)
		time.Sleep(10 * time.Second) // both start their worlds
		before := [2][]float64{}
		for range windows {
			for i, s := range []*serveProc{visited, control} {
				before[i] = append(before[i], s.idleShare(t, window))
			}
		}
		start := time.Now()
		comeAndGo(t, visited.kafka, clients)
		t.Logf("%s: %d clients came and went in %s", b, clients, time.Since(start).Round(time.Millisecond))
		time.Sleep(5 * time.Second)
		after := [2][]float64{}
		for range windows {
			for i, s := range []*serveProc{visited, control} {
				after[i] = append(after[i], s.idleShare(t, window))
			}
		}
		for i, name := range []string{fmt.Sprintf("%d clients came and went", clients), "control, no client"} {
			mb, ma := median(before[i]), median(after[i])
			t.Logf("%s: %s: idle CPU %.2f%% of a core before, %.2f%% after (medians of %d windows of %s): after/before %.2fx",
				b, name, 100*mb, 100*ma, windows, window, ma/mb)
		}
		visited.stop()
		control.stop()
	}
}

// serveProc is a running `kafkalive serve`.
type serveProc struct {
	cmd   *exec.Cmd
	kafka string // broker 1's listener
	done  chan struct{}
}

var listenersLine = regexp.MustCompile(`point a client at (\S+)\)`)

// startServe runs bin's serve on free ports and waits for its Kafka
// listeners.
func startServe(t *testing.T, bin string) *serveProc {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--kafka-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &serveProc{cmd: cmd, done: make(chan struct{})}
	t.Cleanup(s.stop)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := listenersLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case s.kafka = <-found:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s serve printed no Kafka listeners within 30 s", bin)
	}
	return s
}

func (s *serveProc) stop() {
	select {
	case <-s.done:
		return
	default:
		close(s.done)
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	waited := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-waited
	}
}

// idleShare is the share of a core s spent over d.
func (s *serveProc) idleShare(t *testing.T, d time.Duration) float64 {
	t.Helper()
	c0, t0 := procCPU(t, s.cmd.Process.Pid), time.Now()
	time.Sleep(d)
	c1, t1 := procCPU(t, s.cmd.Process.Pid), time.Now()
	return (c1 - c0).Seconds() / t1.Sub(t0).Seconds()
}

// procCPU is process pid's user and system time.
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// the fields after the command's name, in parentheses: utime and
	// stime are the 14th and 15th of the line, in clock ticks (100 Hz)
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// comeAndGo connects n clients to addr, each with a client.id of its own,
// sends a Metadata request, reads the answer and closes, 16 at a time.
func comeAndGo(t *testing.T, addr string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	next := make(chan int)
	errs := make(chan error, n)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := metadataOnce(addr, fmt.Sprintf("come-and-go-%d", i)); err != nil {
					errs <- fmt.Errorf("client %d: %w", i, err)
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// metadataOnce sends one Metadata v1 request as client.id id over a
// connection of its own and reads the answer.
func metadataOnce(addr, id string) error {
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	req := kmsg.NewPtrMetadataRequest()
	req.SetVersion(1)
	msg := []byte{0, 0, 0, 0}
	msg = binary.BigEndian.AppendUint16(msg, uint16(req.Key()))
	msg = binary.BigEndian.AppendUint16(msg, uint16(req.GetVersion()))
	msg = binary.BigEndian.AppendUint32(msg, 1) // correlation id
	msg = binary.BigEndian.AppendUint16(msg, uint16(len(id)))
	msg = append(msg, id...)
	msg = req.AppendTo(msg)
	binary.BigEndian.PutUint32(msg, uint32(len(msg)-4))
	if _, err := c.Write(msg); err != nil {
		return err
	}
	var size [4]byte
	if _, err := io.ReadFull(c, size[:]); err != nil {
		return err
	}
	_, err = io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(size[:])))
	return err
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive number", name, s)
	}
	return n
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
