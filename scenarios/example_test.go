package scenarios_test

import (
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/scenarios"
)

// Play KIP-101 part 3 to the end and print the two replicas: under Kafka
// 0.10's rules offset 1 holds m2 on broker 1 and m3 on broker 2.
func ExampleRun() {
	sc, err := scenarios.Get("kip101-part3")
	if err != nil {
		panic(err)
	}
	r, err := scenarios.NewRun(sc, 0)
	if err != nil {
		panic(err)
	}
	var last scenarios.Outcome
	for {
		o, err := r.Next()
		if errors.Is(err, scenarios.ErrDone) {
			break
		}
		if err != nil {
			panic(err)
		}
		last = o
	}
	for _, l := range last.After.Partitions[0].Logs {
		fmt.Println(l.Text())
	}
	fmt.Println("expected facts not reached:", len(last.Failed()))
	// Output:
	// b1 follower [0 m1, 1 m2!, 2 m4*] 3/3 EC []
	// b2 leader [0 m1, 1 m3*, 2 m4*] 3/3 EC []
	// expected facts not reached: 0
}
