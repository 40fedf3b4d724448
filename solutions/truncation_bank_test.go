package solutions

import (
	"testing"

	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/asksonce"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/endoffsetplusone"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/exactepoch"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/forgetstrim"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/ignoresleaderepoch"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/keepshw"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/keepsownleo"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/neveranotherround"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/neweranotherround"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/newerkeepslog"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/toleaderend"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/truncatestohw"
	"github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/undefinedtohw"
)

// truncationFuncs are the two functions of exercise ch05/truncation.
type truncationFuncs struct {
	point    func([]truncation.EpochEntry, int64, int64, truncation.EpochEndOffset) (int64, bool)
	truncate func(truncation.Follower, func(int32) truncation.EpochEndOffset) truncation.Follower
}

// truncationAdapter calls the functions with the solution's types, as the
// exercise's test file does.
func truncationAdapter(fs truncationFuncs) replicakit.Truncation {
	fromSuite := func(es []replica.EpochEntry) []truncation.EpochEntry {
		var out []truncation.EpochEntry
		for _, e := range es {
			out = append(out, truncation.EpochEntry(e))
		}
		return out
	}
	return replicakit.Truncation{
		TruncationPoint: func(own []replica.EpochEntry, leo, hw int64, a replica.EpochEndOffset) (int64, bool) {
			return fs.point(fromSuite(own), leo, hw, truncation.EpochEndOffset(a))
		},
		Truncate: func(f replicakit.Follower, ask func(int32) replica.EpochEndOffset) replicakit.Follower {
			got := fs.truncate(truncation.Follower{Epochs: fromSuite(f.Epochs), LogEndOffset: f.LogEndOffset, HighWatermark: f.HighWatermark},
				func(e int32) truncation.EpochEndOffset { return truncation.EpochEndOffset(ask(e)) })
			out := replicakit.Follower{LogEndOffset: got.LogEndOffset, HighWatermark: got.HighWatermark}
			for _, e := range got.Epochs {
				out.Epochs = append(out.Epochs, replica.EpochEntry(e))
			}
			return out
		},
	}
}

func truncationSubject(name string, fs truncationFuncs) subject {
	tr := truncationAdapter(fs)
	return subject{name: name, check: func() error { return replicakit.CheckTruncation(tr) }, props: replicakit.TruncationProperties(tr)}
}

func truncationBank() bank {
	stub := truncationFuncs{
		point: func([]truncation.EpochEntry, int64, int64, truncation.EpochEndOffset) (int64, bool) {
			panic(stubTODO{})
		},
		truncate: func(truncation.Follower, func(int32) truncation.EpochEndOffset) truncation.Follower {
			panic(stubTODO{})
		},
	}
	return bank{
		exercise: "ch05/truncation",
		solution: truncationSubject("solution", truncationFuncs{truncation.TruncationPoint, truncation.Truncate}),
		stub:     truncationSubject("stub", stub),
		stubTest: func(t *testing.T) { replicakit.TestTruncation(t, truncationAdapter(stub)) },
		mutants:  truncationMutantSubjects(),
	}
}

// truncationMutants are the bank's mistakes, by name.
var truncationMutants = []struct {
	name string
	fs   truncationFuncs
}{
	{"asksonce", truncationFuncs{asksonce.TruncationPoint, asksonce.Truncate}},
	{"endoffsetplusone", truncationFuncs{endoffsetplusone.TruncationPoint, endoffsetplusone.Truncate}},
	{"exactepoch", truncationFuncs{exactepoch.TruncationPoint, exactepoch.Truncate}},
	{"forgetstrim", truncationFuncs{forgetstrim.TruncationPoint, forgetstrim.Truncate}},
	{"ignoresleaderepoch", truncationFuncs{ignoresleaderepoch.TruncationPoint, ignoresleaderepoch.Truncate}},
	{"keepshw", truncationFuncs{keepshw.TruncationPoint, keepshw.Truncate}},
	{"keepsownleo", truncationFuncs{keepsownleo.TruncationPoint, keepsownleo.Truncate}},
	{"neveranotherround", truncationFuncs{neveranotherround.TruncationPoint, neveranotherround.Truncate}},
	{"neweranotherround", truncationFuncs{neweranotherround.TruncationPoint, neweranotherround.Truncate}},
	{"newerkeepslog", truncationFuncs{newerkeepslog.TruncationPoint, newerkeepslog.Truncate}},
	{"toleaderend", truncationFuncs{toleaderend.TruncationPoint, toleaderend.Truncate}},
	{"truncatestohw", truncationFuncs{truncatestohw.TruncationPoint, truncatestohw.Truncate}},
	{"undefinedtohw", truncationFuncs{undefinedtohw.TruncationPoint, undefinedtohw.Truncate}},
}

func truncationMutantSubjects() []subject {
	var out []subject
	for _, m := range truncationMutants {
		out = append(out, truncationSubject(m.name, m.fs))
	}
	return out
}
