package client

// recordBatchOverhead is the v2 batch header (DefaultRecordBatch.RECORD_BATCH_OVERHEAD).
const recordBatchOverhead = 61

// batchSize is the size in bytes of a v2 record batch holding one record
// (61 bytes of batch header, then the record: its length, attributes,
// timestamp and offset deltas, key, value, no headers), which is what
// ProducerBatch.estimatedSizeInBytes counts toward batch.size for a new
// batch without compression.
func batchSize(key, value string, null bool) int {
	keyLen, valueLen := -1, len(value)
	if key != "" {
		keyLen = len(key)
	}
	if null {
		valueLen = -1
	}
	body := 1 + varintSize(0) + varintSize(0) + varintSize(keyLen) + max(0, keyLen) + varintSize(valueLen) + max(0, valueLen) + varintSize(0)
	return recordBatchOverhead + varintSize(body) + body
}

// varintSize is the length of n as a zig-zag varint.
func varintSize(n int) int {
	z := uint64(n<<1) ^ uint64(n>>63)
	size := 1
	for z >= 0x80 {
		z >>= 7
		size++
	}
	return size
}
