package solutions

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/byteslate"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/bytesoneearly"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/deletesemptyactive"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/firstruleonly"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/firsttimestamp"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/ignoreshighwatermark"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/ignorespolicy"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/notaprefix"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/startoffsetownbase"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/timenotstrict"
)

type retentionFunc = func(retention.Log, retention.Config, int64) int

// retentionAdapter calls f with the solution's types, as the exercise's test file does.
func retentionAdapter(f retentionFunc) kafkalogkit.Retention {
	return kafkalogkit.Retention{DeletableSegments: func(l kafkalogkit.RetentionLog, c kafkalogkit.RetentionConfig, nowMs int64) int {
		log := retention.Log{LogEndOffset: l.LogEndOffset, HighWatermark: l.HighWatermark, LogStartOffset: l.LogStartOffset}
		for _, s := range l.Segments {
			log.Segments = append(log.Segments, retention.Segment(s))
		}
		return f(log, retention.Config(c), nowMs)
	}}
}

func retentionSubject(name string, f retentionFunc) subject {
	r := retentionAdapter(f)
	return subject{name: name, check: func() error { return kafkalogkit.CheckRetention(r) }, props: kafkalogkit.RetentionProperties(r)}
}

func retentionBank() bank {
	stub := func(retention.Log, retention.Config, int64) int { panic(stubTODO{}) }
	return bank{
		exercise: "ch03/retention",
		solution: retentionSubject("solution", retention.DeletableSegments),
		stub:     retentionSubject("stub", stub),
		stubTest: func(t *testing.T) { kafkalogkit.TestRetention(t, retentionAdapter(stub)) },
		mutants:  retentionMutantSubjects(),
	}
}

// retentionMutants are the bank's mistakes, by name.
var retentionMutants = []struct {
	name string
	f    retentionFunc
}{
	{"byteslate", byteslate.DeletableSegments},
	{"bytesoneearly", bytesoneearly.DeletableSegments},
	{"deletesemptyactive", deletesemptyactive.DeletableSegments},
	{"firstruleonly", firstruleonly.DeletableSegments},
	{"firsttimestamp", firsttimestamp.DeletableSegments},
	{"ignoreshighwatermark", ignoreshighwatermark.DeletableSegments},
	{"ignorespolicy", ignorespolicy.DeletableSegments},
	{"notaprefix", notaprefix.DeletableSegments},
	{"startoffsetownbase", startoffsetownbase.DeletableSegments},
	{"timenotstrict", timenotstrict.DeletableSegments},
}

func retentionMutantSubjects() []subject {
	var out []subject
	for _, m := range retentionMutants {
		out = append(out, retentionSubject(m.name, m.f))
	}
	return out
}
