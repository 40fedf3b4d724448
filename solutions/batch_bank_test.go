package solutions

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcheaderonly"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcieee"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcincludesepoch"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcrecordsonly"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcwholebatch"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lastdeltafromrecords"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthafterbaseoffset"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthrecordsonly"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthwholebatch"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/littleendian"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/maxtimestampfromrecords"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/nullasempty"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/offsetdeltacounter"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/recordlengthcountsitself"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/timestampdeltavarint"
)

func batchSubject(name string, r func([]byte, *kafkalog.Record) []byte, b func([]byte, *kafkalog.RecordBatch) []byte) subject {
	e := kafkalogkit.BatchEncoder{AppendRecord: r, AppendBatch: b}
	return subject{name: name, check: func() error { return kafkalogkit.CheckBatch(e) }, props: kafkalogkit.BatchProperties(e)}
}

func batchBank() bank {
	stubRecord := func([]byte, *kafkalog.Record) []byte { panic(stubTODO{}) }
	stubBatch := func([]byte, *kafkalog.RecordBatch) []byte { panic(stubTODO{}) }
	return bank{
		exercise: "ch01/batch",
		solution: batchSubject("solution", batch.AppendRecord, batch.AppendBatch),
		stub:     batchSubject("stub", stubRecord, stubBatch),
		stubTest: func(t *testing.T) {
			kafkalogkit.TestBatch(t, kafkalogkit.BatchEncoder{AppendRecord: stubRecord, AppendBatch: stubBatch})
		},
		mutants: []subject{
			batchSubject("crcheaderonly", crcheaderonly.AppendRecord, crcheaderonly.AppendBatch),
			batchSubject("crcieee", crcieee.AppendRecord, crcieee.AppendBatch),
			batchSubject("crcincludesepoch", crcincludesepoch.AppendRecord, crcincludesepoch.AppendBatch),
			batchSubject("crcrecordsonly", crcrecordsonly.AppendRecord, crcrecordsonly.AppendBatch),
			batchSubject("crcwholebatch", crcwholebatch.AppendRecord, crcwholebatch.AppendBatch),
			batchSubject("lengthafterbaseoffset", lengthafterbaseoffset.AppendRecord, lengthafterbaseoffset.AppendBatch),
			batchSubject("lengthrecordsonly", lengthrecordsonly.AppendRecord, lengthrecordsonly.AppendBatch),
			batchSubject("lengthwholebatch", lengthwholebatch.AppendRecord, lengthwholebatch.AppendBatch),
			batchSubject("littleendian", littleendian.AppendRecord, littleendian.AppendBatch),
			batchSubject("nullasempty", nullasempty.AppendRecord, nullasempty.AppendBatch),
			batchSubject("offsetdeltacounter", offsetdeltacounter.AppendRecord, offsetdeltacounter.AppendBatch),
			batchSubject("recordlengthcountsitself", recordlengthcountsitself.AppendRecord, recordlengthcountsitself.AppendBatch),
			batchSubject("timestampdeltavarint", timestampdeltavarint.AppendRecord, timestampdeltavarint.AppendBatch),
			batchSubject("lastdeltafromrecords", lastdeltafromrecords.AppendRecord, lastdeltafromrecords.AppendBatch),
			batchSubject("maxtimestampfromrecords", maxtimestampfromrecords.AppendRecord, maxtimestampfromrecords.AppendBatch),
		},
	}
}
