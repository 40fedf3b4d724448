package cluster_test

import (
	"flag"

	"runtime"
	"sync"
	"testing"


	"github.com/kafkalive/kafkalive/cluster"

)

var (
	exploreCount = flag.Int("explore.n", 0, "schedules per configuration (default 10000, 300 with -short)")
	exploreSeed  = flag.Uint64("explore.seed", 0, "replay one schedule by its seed")
)

// explore runs n schedules (seeds 1..n) over all CPUs and returns the
// failing seeds in order, with the count of schedules that failed.
func explore(cfg cluster.ExploreConfig, n int) (failing []uint64, acked int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := uint64(0)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				next++
				seed := next
				mu.Unlock()
				if seed > uint64(n) {
					return
				}
				o, _, err := cluster.RunSchedule(cfg, seed, cluster.Schedule(cfg, seed))
				mu.Lock()
				if err != nil || o.Failed() {
					failing = append(failing, seed)
				}
				acked += o.Acked
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return failing, acked
}

func TestExploreFlagsParsed(t *testing.T) { _ = *exploreCount; _ = *exploreSeed }
