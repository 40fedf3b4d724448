package kafkalog

import "hash/crc32"

// castagnoli is the CRC-32C table; hash/crc32 uses the SSE4.2 instruction for it
// where the CPU has one.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC32C returns the CRC-32C (Castagnoli) checksum of b, the checksum of record
// batch v2 and of producer state snapshots. "123456789" gives 0xE3069283.
func CRC32C(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// UpdateCRC32C continues a CRC-32C over more bytes: UpdateCRC32C(CRC32C(a), b) ==
// CRC32C(a+b).
func UpdateCRC32C(crc uint32, b []byte) uint32 { return crc32.Update(crc, castagnoli, b) }
