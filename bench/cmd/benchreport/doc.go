// Command benchreport runs the bench module's benchmarks for several rounds and
// prints a table of medians and same-run ratios, the method of
// bench/README.md: each round is one process that runs every
// benchmark once, so that every implementation sees the same drift of this
// shared machine; ratios (x kmsg, x floor) are computed within each round and
// then the median over rounds is taken. It needs nothing but the go command.
//
// Usage, from the bench module:
//
//	go run ./cmd/benchreport                 # 5 rounds of every benchmark
//	go run ./cmd/benchreport -rounds 3 -bench 'Encode|Decode' -benchtime 500ms
//	go run ./cmd/benchreport -from round1.txt,round2.txt   # re-render saved output
//	go run ./cmd/benchreport -bench KgoProduce -benchtime 10000000x -rounds 9 \
//		-separate kafkalive,kfake,kfake-validating       # each implementation in a process of its own
//	go run ./cmd/benchreport -bench KgoProduce -benchtime 10000000x -- -throughput.warm
//
// Arguments after -- go to the benchmarks' test binary.
//
// A benchmark named <family>/<workload>/impl=<impl> is grouped by family and
// workload; the impl named kmsg is the peer (kfake for KgoProduce, whose
// subject is kafkalive), and an impl whose name starts with "limit-" is the
// floor. The last section checks the codec's and the log's performance goals.
package main
