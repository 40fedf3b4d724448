package kit

import (
	"fmt"
	"strings"
)

// Hexdump formats b in the classic 16-bytes-a-line layout (offset, hex, ASCII).
// If mark is a valid index into b (or equal to len(b), meaning "a byte is
// missing here"), a caret line under the marked byte's line points at it, and
// only the lines around it are shown, so that long batches stay readable.
func Hexdump(b []byte, mark int) string {
	var sb strings.Builder
	first, last := 0, (len(b)-1)/16
	if mark >= 0 && mark <= len(b) {
		first = max(0, mark/16-2)
		last = min(last, mark/16+2)
		if mark == len(b) {
			last = max(last, mark/16)
		}
	}
	if first > 0 {
		fmt.Fprintf(&sb, "%08x  ...\n", 0)
	}
	for line := first; line <= last; line++ {
		writeHexLine(&sb, b, line*16)
		if mark >= 0 && mark/16 == line {
			col := 10 + 3*(mark%16)
			if mark%16 >= 8 {
				col++
			}
			what := "first wrong byte"
			if mark == len(b) {
				what = "bytes missing from here"
			}
			fmt.Fprintf(&sb, "%s^^ %s, position %d\n", strings.Repeat(" ", col), what, mark)
		}
	}
	if last < (len(b)-1)/16 {
		fmt.Fprintf(&sb, "%08x  ... (%d bytes in all)\n", (last+1)*16, len(b))
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

func writeHexLine(sb *strings.Builder, b []byte, at int) {
	fmt.Fprintf(sb, "%08x  ", at)
	for i := 0; i < 16; i++ {
		if i == 8 {
			sb.WriteByte(' ')
		}
		if at+i < len(b) {
			fmt.Fprintf(sb, "%02x ", b[at+i])
		} else {
			sb.WriteString("   ")
		}
	}
	sb.WriteString(" |")
	for i := at; i < min(at+16, len(b)); i++ {
		c := b[i]
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		sb.WriteByte(c)
	}
	sb.WriteString("|\n")
}

// FirstDiff returns the index of the first byte where got differs from want,
// len of the shorter one if one is a prefix of the other, or -1 if they are equal.
func FirstDiff(want, got []byte) int {
	n := min(len(want), len(got))
	for i := 0; i < n; i++ {
		if want[i] != got[i] {
			return i
		}
	}
	if len(want) == len(got) {
		return -1
	}
	return n
}

// Hex formats b as space-separated hex bytes ("fe ff 0f"), the way Kafka's
// tests and the notes write short byte strings. Long inputs are cut after max
// bytes with a count of the rest.
func Hex(b []byte, maxBytes int) string {
	var sb strings.Builder
	for i, c := range b {
		if i == maxBytes {
			fmt.Fprintf(&sb, " ... (%d bytes in all)", len(b))
			break
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", c)
	}
	if len(b) == 0 {
		return "(no bytes)"
	}
	return sb.String()
}
