package solutions

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/bigendiangroups"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/eightbitshift"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/forgotzigzag"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/fourbytes"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/lastbytecontinuation"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/logicalsignmask"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/overwritesdst"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/signedshift"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/signmagnitude"
)

func varintSubject(name string, f func([]byte, int32) []byte) subject {
	c := kafkalogkit.VarintCodec{AppendVarint: f}
	return subject{name: name, check: func() error { return kafkalogkit.CheckVarint(c) }, props: kafkalogkit.VarintProperties(c)}
}

func varintBank() bank {
	stub := func([]byte, int32) []byte { panic(stubTODO{}) }
	return bank{
		exercise: "ch01/varint",
		solution: varintSubject("solution", varint.AppendVarint),
		stub:     varintSubject("stub", stub),
		stubTest: func(t *testing.T) { kafkalogkit.TestVarint(t, kafkalogkit.VarintCodec{AppendVarint: stub}) },
		mutants: []subject{
			varintSubject("forgotzigzag", forgotzigzag.AppendVarint),
			varintSubject("lastbytecontinuation", lastbytecontinuation.AppendVarint),
			varintSubject("signedshift", signedshift.AppendVarint),
			varintSubject("logicalsignmask", logicalsignmask.AppendVarint),
			varintSubject("signmagnitude", signmagnitude.AppendVarint),
			varintSubject("bigendiangroups", bigendiangroups.AppendVarint),
			varintSubject("eightbitshift", eightbitshift.AppendVarint),
			varintSubject("fourbytes", fourbytes.AppendVarint),
			varintSubject("overwritesdst", overwritesdst.AppendVarint),
		},
	}
}
