package solutions

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch02/index"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/absoluteoffsets"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/firstentrybelow"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/lastfromcount"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/nextentry"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/returnsbatchend"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/scanbaseoffset"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/scanstrictlygreater"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipscontrol"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipsempty"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipwithoutoverhead"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/stopsoneearly"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/strictlyless"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/swappedfields"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/trustszeropadding"
)

type (
	lookupFunc = func(index []byte, entries int, baseOffset, target int64) (int64, int32)
	findFunc   = func(log []byte, startPos int32, target int64) (int32, bool)
)

func indexSubject(name string, lookup lookupFunc, find findFunc) subject {
	l := kafkalogkit.IndexLookup{LookupIndex: lookup, FindBatch: find}
	return subject{name: name, check: func() error { return kafkalogkit.CheckIndex(l) }, props: kafkalogkit.IndexProperties(l)}
}

func indexBank() bank {
	stubLookup := func([]byte, int, int64, int64) (int64, int32) { panic(stubTODO{}) }
	stubFind := func([]byte, int32, int64) (int32, bool) { panic(stubTODO{}) }
	return bank{
		exercise: "ch02/index",
		solution: indexSubject("solution", index.LookupIndex, index.FindBatch),
		stub:     indexSubject("stub", stubLookup, stubFind),
		stubTest: func(t *testing.T) {
			kafkalogkit.TestIndex(t, kafkalogkit.IndexLookup{LookupIndex: stubLookup, FindBatch: stubFind})
		},
		mutants: []subject{
			indexSubject("absoluteoffsets", absoluteoffsets.LookupIndex, absoluteoffsets.FindBatch),
			indexSubject("firstentrybelow", firstentrybelow.LookupIndex, firstentrybelow.FindBatch),
			indexSubject("nextentry", nextentry.LookupIndex, nextentry.FindBatch),
			indexSubject("returnsbatchend", returnsbatchend.LookupIndex, returnsbatchend.FindBatch),
			indexSubject("scanbaseoffset", scanbaseoffset.LookupIndex, scanbaseoffset.FindBatch),
			indexSubject("scanstrictlygreater", scanstrictlygreater.LookupIndex, scanstrictlygreater.FindBatch),
			indexSubject("lastfromcount", lastfromcount.LookupIndex, lastfromcount.FindBatch),
			indexSubject("skipsempty", skipsempty.LookupIndex, skipsempty.FindBatch),
			indexSubject("skipscontrol", skipscontrol.LookupIndex, skipscontrol.FindBatch),
			indexSubject("skipwithoutoverhead", skipwithoutoverhead.LookupIndex, skipwithoutoverhead.FindBatch),
			indexSubject("stopsoneearly", stopsoneearly.LookupIndex, stopsoneearly.FindBatch),
			indexSubject("strictlyless", strictlyless.LookupIndex, strictlyless.FindBatch),
			indexSubject("swappedfields", swappedfields.LookupIndex, swappedfields.FindBatch),
			indexSubject("trustszeropadding", trustszeropadding.LookupIndex, trustszeropadding.FindBatch),
		},
	}
}
