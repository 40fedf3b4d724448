package groupkit

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/group"
	"pgregory.net/rapid"
)

// These tests check the suite's model and rules against the library's
// assignor and against answers written down by hand from the scenarios, so
// that the suite cannot be wrong the way a solution is.

func TestMain(m *testing.M) {
	flag.Parse()
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestKnownAnswersByHand(t *testing.T) {
	o := func(ps ...int32) []group.TopicPartition { return tps("orders", ps...) }
	want := map[string]group.Assignment{
		"eager-vs-cooperative step 0":     {"K1": o(0, 2, 4), "K2": o(1, 3, 5)},
		"eager-vs-cooperative steps 3-4":  {"K1": o(0, 2), "K2": o(1, 3), "K3": o()},
		"eager-vs-cooperative step 5":     {"K1": o(0, 2), "K2": o(1, 3), "K3": o(4, 5)},
		"sticky, 6 partitions":            {"M1": o(0, 3), "M2": o(1, 4), "M3": o(2, 5)},
		"M2 left a group of three":        {"M1": o(0, 1, 3), "M3": o(2, 4, 5)},
		"crash-is-not-a-goodbye steps A2": {"W2": tps("tasks", 0, 1)},
	}
	for prefix, w := range want {
		found := false
		for _, c := range cooperativeKnownAnswers() {
			if strings.HasPrefix(c.name, prefix) {
				found = true
				if diff := cmp.Diff(w, kafkaAssign(c.in)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", c.name, diff)
				}
			}
		}
		if !found {
			t.Errorf("no known answer is named %q...", prefix)
		}
	}
}

func TestKafkaPassesItsOwnRules(t *testing.T) {
	kafka := CooperativeSticky{Assign: func(ms []Member, ts []group.TopicMetadata) group.Assignment {
		return kafkaAssign(roundInput{ms, ts})
	}}
	if err := CheckCooperativeSticky(kafka); err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, CooperativeStickyProperties(kafka))
}
