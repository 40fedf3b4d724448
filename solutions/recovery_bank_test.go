package solutions

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/crcwrongrange"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/cutatlastindexentry"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexabsolute"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexatleast"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexbaseoffset"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/keepstorntail"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/keepszeropadding"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/lastfromcount"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nocrc"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/noindex"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nomagic"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nooffsetcheck"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/skipsbadbatch"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/stopsatempty"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/trustslength"
)

func recoverySubject(name string, f func([]byte, int64, int) (int, []byte)) subject {
	r := kafkalogkit.Recovery{Recover: f}
	return subject{name: name, check: func() error { return kafkalogkit.CheckRecovery(r) }, props: kafkalogkit.RecoveryProperties(r)}
}

func recoveryBank() bank {
	stub := func([]byte, int64, int) (int, []byte) { panic(stubTODO{}) }
	return bank{
		exercise: "ch04/recovery",
		solution: recoverySubject("solution", recovery.Recover),
		stub:     recoverySubject("stub", stub),
		stubTest: func(t *testing.T) { kafkalogkit.TestRecovery(t, kafkalogkit.Recovery{Recover: stub}) },
		mutants: []subject{
			recoverySubject("crcwrongrange", crcwrongrange.Recover),
			recoverySubject("cutatlastindexentry", cutatlastindexentry.Recover),
			recoverySubject("indexabsolute", indexabsolute.Recover),
			recoverySubject("indexatleast", indexatleast.Recover),
			recoverySubject("indexbaseoffset", indexbaseoffset.Recover),
			recoverySubject("keepstorntail", keepstorntail.Recover),
			recoverySubject("keepszeropadding", keepszeropadding.Recover),
			recoverySubject("nocrc", nocrc.Recover),
			recoverySubject("noindex", noindex.Recover),
			recoverySubject("nomagic", nomagic.Recover),
			recoverySubject("nooffsetcheck", nooffsetcheck.Recover),
			recoverySubject("skipsbadbatch", skipsbadbatch.Recover),
			recoverySubject("trustslength", trustslength.Recover),
			recoverySubject("lastfromcount", lastfromcount.Recover),
			recoverySubject("stopsatempty", stopsatempty.Recover),
		},
	}
}
