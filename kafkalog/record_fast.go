package kafkalog

// The fast path of record decoding: one function over local indexes, with the
// 1- and 2-byte varint cases inline. It accepts exactly what recordReader
// accepts; on anything unusual it gives up and the caller re-reads the record
// with recordReader, which says what broke. FuzzReadBatch checks that the two
// agree.

// zigzag32 decodes a 1-byte zigzag varint.
func zigzag32(b byte) int32 { return int32(b>>1) ^ -int32(b&1) }

// zigzag2 decodes a 2-byte zigzag varint (b0 has the continuation bit).
func zigzag2(b0, b1 byte) int32 {
	u := uint32(b0&0x7f) | uint32(b1)<<7
	return int32(u>>1) ^ -int32(u&1)
}

// slowVarint reads a zigzag varint at p[i:], returning the value and the index after it, or i = -1 on truncation
// or overflow. The 2-byte case comes first: it is the length of every record
// between 64 and 8191 bytes.
func slowVarint(p []byte, i int) (int32, int) {
	if i < 0 || i >= len(p) {
		return 0, -1
	}
	if p[i] < 0x80 {
		return zigzag32(p[i]), i + 1
	}
	if i+1 < len(p) && p[i+1] < 0x80 {
		u := uint32(p[i]&0x7f) | uint32(p[i+1])<<7
		return int32(u>>1) ^ -int32(u&1), i + 2
	}
	v, n := Varint(p[i:])
	if n <= 0 {
		return 0, -1
	}
	return v, i + n
}

// slowVarlong reads a zigzag varlong at p[i:] (see slowVarint).
func slowVarlong(p []byte, i int) (int64, int) {
	if i >= len(p) {
		return 0, -1
	}
	v, n := Varlong(p[i:])
	if n <= 0 {
		return 0, -1
	}
	return v, i + n
}

// slowBytes reads a length-prefixed byte string at p[i:]; -1 is nil when
// nullable. It returns i = -1 when the length is invalid or runs past p.
func slowBytes(p []byte, i int, nullable bool) ([]byte, int) {
	l, i := slowVarint(p, i)
	if i < 0 {
		return nil, -1
	}
	if l < 0 {
		if l == -1 && nullable {
			return nil, i
		}
		return nil, -1
	}
	if int(l) > len(p)-i {
		return nil, -1
	}
	end := i + int(l)
	return p[i:end:end], end
}

// decodeRecordFast decodes the record at p[i:] into r, appending its headers to
// hdrs. It returns the index after the record, or -1 if the record is not
// well formed (the caller then asks recordReader why). Each varint takes the
// inline 1-byte path when it can (lengths below 64, deltas in [-64, 63]).
func decodeRecordFast(p []byte, i int, r *Record, hdrs []Header) (int, []Header) {
	var length int32
	if i+1 < len(p) && p[i] >= 0x80 && p[i+1] < 0x80 { // 64..8191 bytes: the usual record
		length, i = zigzag2(p[i], p[i+1]), i+2
	} else if i < len(p) && p[i] < 0x80 {
		length, i = zigzag32(p[i]), i+1
	} else if length, i = slowVarint(p, i); i < 0 {
		return -1, hdrs
	}
	if length <= 0 || int(length) > len(p)-i {
		return -1, hdrs
	}
	end := i + int(length)
	q := p[:end]
	r.Attributes = int8(q[i])
	i++
	if i < end && q[i] < 0x80 {
		r.TimestampDelta, i = int64(zigzag32(q[i])), i+1
	} else if i+1 < end && q[i+1] < 0x80 { // |delta| < 8192 ms
		r.TimestampDelta, i = int64(zigzag2(q[i], q[i+1])), i+2
	} else if r.TimestampDelta, i = slowVarlong(q, i); i < 0 {
		return -1, hdrs
	}
	if i < end && q[i] < 0x80 {
		r.OffsetDelta, i = zigzag32(q[i]), i+1
	} else if i+1 < end && q[i+1] < 0x80 { // offsets 64..8191 into the batch
		r.OffsetDelta, i = zigzag2(q[i], q[i+1]), i+2
	} else if r.OffsetDelta, i = slowVarint(q, i); i < 0 {
		return -1, hdrs
	}
	if i < end && q[i] == 1 { // -1: a null key, the producer's default
		r.Key, i = nil, i+1
	} else if i < end && q[i] < 0x80 && int(q[i]>>1) <= end-i-1 && q[i]&1 == 0 {
		l := int(q[i] >> 1)
		r.Key, i = q[i+1:i+1+l:i+1+l], i+1+l
	} else if r.Key, i = slowBytes(q, i, true); i < 0 {
		return -1, hdrs
	}
	if l := -1; i < end && q[i] < 0x80 && q[i]&1 == 0 {
		l = int(q[i] >> 1)
		if l <= end-i-1 {
			r.Value, i = q[i+1:i+1+l:i+1+l], i+1+l
		} else {
			return -1, hdrs
		}
	} else if i+1 < end && q[i] >= 0x80 && q[i+1] < 0x80 && q[i]&1 == 0 {
		l = int(zigzag2(q[i], q[i+1]))
		if l <= end-i-2 {
			r.Value, i = q[i+2:i+2+l:i+2+l], i+2+l
		} else {
			return -1, hdrs
		}
	} else if r.Value, i = slowBytes(q, i, true); i < 0 {
		return -1, hdrs
	}
	var n int32
	if i < end && q[i] < 0x80 {
		n, i = zigzag32(q[i]), i+1
	} else if n, i = slowVarint(q, i); i < 0 {
		return -1, hdrs
	}
	if n < 0 || int(n) > end-i {
		return -1, hdrs
	}
	r.Headers = nil
	if n > 0 {
		start := len(hdrs)
		for range n {
			var h Header
			if h.Key, i = slowBytes(q, i, false); i < 0 {
				return -1, hdrs[:start]
			}
			if h.Value, i = slowBytes(q, i, true); i < 0 {
				return -1, hdrs[:start]
			}
			hdrs = append(hdrs, h)
		}
		r.Headers = hdrs[start:len(hdrs):len(hdrs)]
	}
	if i != end {
		return -1, hdrs
	}
	return end, hdrs
}
