package solutions

// Code generated from the directories of the bank (solutions/chNN/<pkg>/mutants/<name>);
// add a mutant here when you add one to the bank. The adapters are the bank tests'.

import (
	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	batchsol "github.com/kafkalive/kafkalive/solutions/ch01/batch"
	batch_crcheaderonly "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcheaderonly"
	batch_crcieee "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcieee"
	batch_crcincludesepoch "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcincludesepoch"
	batch_crcrecordsonly "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcrecordsonly"
	batch_crcwholebatch "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcwholebatch"
	batch_lastdeltafromrecords "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lastdeltafromrecords"
	batch_lengthafterbaseoffset "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthafterbaseoffset"
	batch_lengthrecordsonly "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthrecordsonly"
	batch_lengthwholebatch "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthwholebatch"
	batch_littleendian "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/littleendian"
	batch_maxtimestampfromrecords "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/maxtimestampfromrecords"
	batch_nullasempty "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/nullasempty"
	batch_offsetdeltacounter "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/offsetdeltacounter"
	batch_recordlengthcountsitself "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/recordlengthcountsitself"
	batch_timestampdeltavarint "github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/timestampdeltavarint"
	varintsol "github.com/kafkalive/kafkalive/solutions/ch01/varint"
	varint_bigendiangroups "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/bigendiangroups"
	varint_eightbitshift "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/eightbitshift"
	varint_forgotzigzag "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/forgotzigzag"
	varint_fourbytes "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/fourbytes"
	varint_lastbytecontinuation "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/lastbytecontinuation"
	varint_logicalsignmask "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/logicalsignmask"
	varint_overwritesdst "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/overwritesdst"
	varint_signedshift "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/signedshift"
	varint_signmagnitude "github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/signmagnitude"
	indexsol "github.com/kafkalive/kafkalive/solutions/ch02/index"
	index_absoluteoffsets "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/absoluteoffsets"
	index_firstentrybelow "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/firstentrybelow"
	index_lastfromcount "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/lastfromcount"
	index_nextentry "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/nextentry"
	index_returnsbatchend "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/returnsbatchend"
	index_scanbaseoffset "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/scanbaseoffset"
	index_scanstrictlygreater "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/scanstrictlygreater"
	index_skipscontrol "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipscontrol"
	index_skipsempty "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipsempty"
	index_skipwithoutoverhead "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipwithoutoverhead"
	index_stopsoneearly "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/stopsoneearly"
	index_strictlyless "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/strictlyless"
	index_swappedfields "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/swappedfields"
	index_trustszeropadding "github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/trustszeropadding"
	retentionsol "github.com/kafkalive/kafkalive/solutions/ch03/retention"
	retention_byteslate "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/byteslate"
	retention_bytesoneearly "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/bytesoneearly"
	retention_deletesemptyactive "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/deletesemptyactive"
	retention_firstruleonly "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/firstruleonly"
	retention_firsttimestamp "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/firsttimestamp"
	retention_ignoreshighwatermark "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/ignoreshighwatermark"
	retention_ignorespolicy "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/ignorespolicy"
	retention_notaprefix "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/notaprefix"
	retention_startoffsetownbase "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/startoffsetownbase"
	retention_timenotstrict "github.com/kafkalive/kafkalive/solutions/ch03/retention/mutants/timenotstrict"
	recoverysol "github.com/kafkalive/kafkalive/solutions/ch04/recovery"
	recovery_crcwrongrange "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/crcwrongrange"
	recovery_cutatlastindexentry "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/cutatlastindexentry"
	recovery_indexabsolute "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexabsolute"
	recovery_indexatleast "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexatleast"
	recovery_indexbaseoffset "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexbaseoffset"
	recovery_keepstorntail "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/keepstorntail"
	recovery_keepszeropadding "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/keepszeropadding"
	recovery_lastfromcount "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/lastfromcount"
	recovery_nocrc "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nocrc"
	recovery_noindex "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/noindex"
	recovery_nomagic "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nomagic"
	recovery_nooffsetcheck "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nooffsetcheck"
	recovery_skipsbadbatch "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/skipsbadbatch"
	recovery_stopsatempty "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/stopsatempty"
	recovery_trustslength "github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/trustslength"
	truncationsol "github.com/kafkalive/kafkalive/solutions/ch05/truncation"
	truncation_asksonce "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/asksonce"
	truncation_endoffsetplusone "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/endoffsetplusone"
	truncation_exactepoch "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/exactepoch"
	truncation_forgetstrim "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/forgetstrim"
	truncation_ignoresleaderepoch "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/ignoresleaderepoch"
	truncation_keepshw "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/keepshw"
	truncation_keepsownleo "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/keepsownleo"
	truncation_neveranotherround "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/neveranotherround"
	truncation_neweranotherround "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/neweranotherround"
	truncation_newerkeepslog "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/newerkeepslog"
	truncation_toleaderend "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/toleaderend"
	truncation_truncatestohw "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/truncatestohw"
	truncation_undefinedtohw "github.com/kafkalive/kafkalive/solutions/ch05/truncation/mutants/undefinedtohw"
	cooperativesol "github.com/kafkalive/kafkalive/solutions/ch06/cooperative"
	cooperative_doubleassigns "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/doubleassigns"
	cooperative_flooronly "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/flooronly"
	cooperative_forgetsnewmembers "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/forgetsnewmembers"
	cooperative_freezesonrevoke "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/freezesonrevoke"
	cooperative_handsoutrevoked "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/handsoutrevoked"
	cooperative_ignoresowned "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/ignoresowned"
	cooperative_inputorder "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/inputorder"
	cooperative_keepsdeleted "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/keepsdeleted"
	cooperative_keepseverything "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/keepseverything"
	cooperative_maxforall "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/maxforall"
	cooperative_revokeseverything "github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/revokeseverything"
)

// liveBank is, per part, the solution's code and each mutant's, each plugged in alone.
var liveBank = []livePart{
	{
		part:     kitlive.PartVarint,
		solution: kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varintsol.AppendVarint}},
		mutants: []liveMutant{
			{"bigendiangroups", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_bigendiangroups.AppendVarint}}},
			{"eightbitshift", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_eightbitshift.AppendVarint}}},
			{"forgotzigzag", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_forgotzigzag.AppendVarint}}},
			{"fourbytes", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_fourbytes.AppendVarint}}},
			{"lastbytecontinuation", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_lastbytecontinuation.AppendVarint}}},
			{"logicalsignmask", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_logicalsignmask.AppendVarint}}},
			{"overwritesdst", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_overwritesdst.AppendVarint}}},
			{"signedshift", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_signedshift.AppendVarint}}},
			{"signmagnitude", kitlive.Code{Varint: kafkalogkit.VarintCodec{AppendVarint: varint_signmagnitude.AppendVarint}}},
		},
	},
	{
		part:     kitlive.PartBatch,
		solution: kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batchsol.AppendRecord, AppendBatch: batchsol.AppendBatch}},
		mutants: []liveMutant{
			{"crcheaderonly", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_crcheaderonly.AppendRecord, AppendBatch: batch_crcheaderonly.AppendBatch}}},
			{"crcieee", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_crcieee.AppendRecord, AppendBatch: batch_crcieee.AppendBatch}}},
			{"crcincludesepoch", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_crcincludesepoch.AppendRecord, AppendBatch: batch_crcincludesepoch.AppendBatch}}},
			{"crcrecordsonly", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_crcrecordsonly.AppendRecord, AppendBatch: batch_crcrecordsonly.AppendBatch}}},
			{"crcwholebatch", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_crcwholebatch.AppendRecord, AppendBatch: batch_crcwholebatch.AppendBatch}}},
			{"lastdeltafromrecords", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_lastdeltafromrecords.AppendRecord, AppendBatch: batch_lastdeltafromrecords.AppendBatch}}},
			{"lengthafterbaseoffset", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_lengthafterbaseoffset.AppendRecord, AppendBatch: batch_lengthafterbaseoffset.AppendBatch}}},
			{"lengthrecordsonly", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_lengthrecordsonly.AppendRecord, AppendBatch: batch_lengthrecordsonly.AppendBatch}}},
			{"lengthwholebatch", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_lengthwholebatch.AppendRecord, AppendBatch: batch_lengthwholebatch.AppendBatch}}},
			{"littleendian", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_littleendian.AppendRecord, AppendBatch: batch_littleendian.AppendBatch}}},
			{"maxtimestampfromrecords", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_maxtimestampfromrecords.AppendRecord, AppendBatch: batch_maxtimestampfromrecords.AppendBatch}}},
			{"nullasempty", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_nullasempty.AppendRecord, AppendBatch: batch_nullasempty.AppendBatch}}},
			{"offsetdeltacounter", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_offsetdeltacounter.AppendRecord, AppendBatch: batch_offsetdeltacounter.AppendBatch}}},
			{"recordlengthcountsitself", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_recordlengthcountsitself.AppendRecord, AppendBatch: batch_recordlengthcountsitself.AppendBatch}}},
			{"timestampdeltavarint", kitlive.Code{Batch: kafkalogkit.BatchEncoder{AppendRecord: batch_timestampdeltavarint.AppendRecord, AppendBatch: batch_timestampdeltavarint.AppendBatch}}},
		},
	},
	{
		part:     kitlive.PartIndex,
		solution: kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: indexsol.LookupIndex, FindBatch: indexsol.FindBatch}},
		mutants: []liveMutant{
			{"absoluteoffsets", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_absoluteoffsets.LookupIndex, FindBatch: index_absoluteoffsets.FindBatch}}},
			{"firstentrybelow", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_firstentrybelow.LookupIndex, FindBatch: index_firstentrybelow.FindBatch}}},
			{"lastfromcount", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_lastfromcount.LookupIndex, FindBatch: index_lastfromcount.FindBatch}}},
			{"nextentry", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_nextentry.LookupIndex, FindBatch: index_nextentry.FindBatch}}},
			{"returnsbatchend", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_returnsbatchend.LookupIndex, FindBatch: index_returnsbatchend.FindBatch}}},
			{"scanbaseoffset", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_scanbaseoffset.LookupIndex, FindBatch: index_scanbaseoffset.FindBatch}}},
			{"scanstrictlygreater", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_scanstrictlygreater.LookupIndex, FindBatch: index_scanstrictlygreater.FindBatch}}},
			{"skipscontrol", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_skipscontrol.LookupIndex, FindBatch: index_skipscontrol.FindBatch}}},
			{"skipsempty", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_skipsempty.LookupIndex, FindBatch: index_skipsempty.FindBatch}}},
			{"skipwithoutoverhead", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_skipwithoutoverhead.LookupIndex, FindBatch: index_skipwithoutoverhead.FindBatch}}},
			{"stopsoneearly", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_stopsoneearly.LookupIndex, FindBatch: index_stopsoneearly.FindBatch}}},
			{"strictlyless", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_strictlyless.LookupIndex, FindBatch: index_strictlyless.FindBatch}}},
			{"swappedfields", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_swappedfields.LookupIndex, FindBatch: index_swappedfields.FindBatch}}},
			{"trustszeropadding", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index_trustszeropadding.LookupIndex, FindBatch: index_trustszeropadding.FindBatch}}},
		},
	},
	{
		part:     kitlive.PartRetention,
		solution: kitlive.Code{Retention: retentionAdapter(retentionsol.DeletableSegments)},
		mutants: []liveMutant{
			{"byteslate", kitlive.Code{Retention: retentionAdapter(retention_byteslate.DeletableSegments)}},
			{"bytesoneearly", kitlive.Code{Retention: retentionAdapter(retention_bytesoneearly.DeletableSegments)}},
			{"deletesemptyactive", kitlive.Code{Retention: retentionAdapter(retention_deletesemptyactive.DeletableSegments)}},
			{"firstruleonly", kitlive.Code{Retention: retentionAdapter(retention_firstruleonly.DeletableSegments)}},
			{"firsttimestamp", kitlive.Code{Retention: retentionAdapter(retention_firsttimestamp.DeletableSegments)}},
			{"ignoreshighwatermark", kitlive.Code{Retention: retentionAdapter(retention_ignoreshighwatermark.DeletableSegments)}},
			{"ignorespolicy", kitlive.Code{Retention: retentionAdapter(retention_ignorespolicy.DeletableSegments)}},
			{"notaprefix", kitlive.Code{Retention: retentionAdapter(retention_notaprefix.DeletableSegments)}},
			{"startoffsetownbase", kitlive.Code{Retention: retentionAdapter(retention_startoffsetownbase.DeletableSegments)}},
			{"timenotstrict", kitlive.Code{Retention: retentionAdapter(retention_timenotstrict.DeletableSegments)}},
		},
	},
	{
		part:     kitlive.PartRecovery,
		solution: kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recoverysol.Recover}},
		mutants: []liveMutant{
			{"crcwrongrange", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_crcwrongrange.Recover}}},
			{"cutatlastindexentry", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_cutatlastindexentry.Recover}}},
			{"indexabsolute", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_indexabsolute.Recover}}},
			{"indexatleast", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_indexatleast.Recover}}},
			{"indexbaseoffset", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_indexbaseoffset.Recover}}},
			{"keepstorntail", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_keepstorntail.Recover}}},
			{"keepszeropadding", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_keepszeropadding.Recover}}},
			{"lastfromcount", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_lastfromcount.Recover}}},
			{"nocrc", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_nocrc.Recover}}},
			{"noindex", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_noindex.Recover}}},
			{"nomagic", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_nomagic.Recover}}},
			{"nooffsetcheck", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_nooffsetcheck.Recover}}},
			{"skipsbadbatch", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_skipsbadbatch.Recover}}},
			{"stopsatempty", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_stopsatempty.Recover}}},
			{"trustslength", kitlive.Code{Recovery: kafkalogkit.Recovery{Recover: recovery_trustslength.Recover}}},
		},
	},
	{
		part:     kitlive.PartTruncation,
		solution: kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncationsol.TruncationPoint, truncate: truncationsol.Truncate})},
		mutants: []liveMutant{
			{"asksonce", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_asksonce.TruncationPoint, truncate: truncation_asksonce.Truncate})}},
			{"endoffsetplusone", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_endoffsetplusone.TruncationPoint, truncate: truncation_endoffsetplusone.Truncate})}},
			{"exactepoch", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_exactepoch.TruncationPoint, truncate: truncation_exactepoch.Truncate})}},
			{"forgetstrim", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_forgetstrim.TruncationPoint, truncate: truncation_forgetstrim.Truncate})}},
			{"ignoresleaderepoch", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_ignoresleaderepoch.TruncationPoint, truncate: truncation_ignoresleaderepoch.Truncate})}},
			{"keepshw", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_keepshw.TruncationPoint, truncate: truncation_keepshw.Truncate})}},
			{"keepsownleo", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_keepsownleo.TruncationPoint, truncate: truncation_keepsownleo.Truncate})}},
			{"neveranotherround", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_neveranotherround.TruncationPoint, truncate: truncation_neveranotherround.Truncate})}},
			{"neweranotherround", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_neweranotherround.TruncationPoint, truncate: truncation_neweranotherround.Truncate})}},
			{"newerkeepslog", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_newerkeepslog.TruncationPoint, truncate: truncation_newerkeepslog.Truncate})}},
			{"toleaderend", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_toleaderend.TruncationPoint, truncate: truncation_toleaderend.Truncate})}},
			{"truncatestohw", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_truncatestohw.TruncationPoint, truncate: truncation_truncatestohw.Truncate})}},
			{"undefinedtohw", kitlive.Code{Truncation: truncationAdapter(truncationFuncs{point: truncation_undefinedtohw.TruncationPoint, truncate: truncation_undefinedtohw.Truncate})}},
		},
	},
	{
		part:     kitlive.PartCooperative,
		solution: kitlive.Code{Cooperative: cooperativeAdapter(cooperativesol.Assign)},
		mutants: []liveMutant{
			{"doubleassigns", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_doubleassigns.Assign)}},
			{"flooronly", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_flooronly.Assign)}},
			{"forgetsnewmembers", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_forgetsnewmembers.Assign)}},
			{"freezesonrevoke", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_freezesonrevoke.Assign)}},
			{"handsoutrevoked", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_handsoutrevoked.Assign)}},
			{"ignoresowned", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_ignoresowned.Assign)}},
			{"inputorder", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_inputorder.Assign)}},
			{"keepsdeleted", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_keepsdeleted.Assign)}},
			{"keepseverything", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_keepseverything.Assign)}},
			{"maxforall", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_maxforall.Assign)}},
			{"revokeseverything", kitlive.Code{Cooperative: cooperativeAdapter(cooperative_revokeseverything.Assign)}},
		},
	},
}
