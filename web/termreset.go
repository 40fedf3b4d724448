package web

import (
	"io"

	"github.com/kafkalive/kafkalive/internal/kafkatools"
)

// seek is the short form: seek GROUP TOPIC earliest|latest|OFFSET.
func (t *Terminal) seek(args []string, at *int64, out io.Writer) error {
	if len(args) != 3 {
		return ErrUsage
	}
	fl := map[string]string{"group": args[0], "topic": args[1], "execute": ""}
	switch args[2] {
	case "earliest", "latest":
		fl["to-"+args[2]] = ""
	default:
		fl["to-offset"] = args[2]
	}
	return kafkatools.ResetOffsets(session{t, at}, fl, out)
}
