// Package bench measures kafkalog against franz-go's kmsg, the fastest Go peer,
// and proves that the two agree byte for byte.
//
// It is a module of its own so that the library's go.mod stays lean. It holds:
//
//   - the workloads ([Workload]): one
//     uncompressed batch of 1, 10, 100 or 1000 records with 16-byte keys and
//     100-byte or 1 KiB random values, no headers, producer fields -1;
//   - an adapter that drives kmsg the way kgo's producer and consumer do
//     ([KmsgAppendBatch], [KmsgDecoder]);
//   - the floors the benchmarks are measured against ([AppendCopyCRC], the
//     least any encoder does, and [CheckCRC], the least a validating decoder does);
//   - the differential test (rapid) against kmsg and kgo's compressors, and the
//     benchmarks (go test -bench .), which cmd/benchreport runs for several
//     rounds and turns into a table of medians and same-run ratios.
//
// Benchmarks are named Benchmark<Op>/<workload>/impl=<impl>, so that every
// implementation of one workload runs back to back; an impl whose name starts
// with "limit-" is the floor of its workload.
package bench
