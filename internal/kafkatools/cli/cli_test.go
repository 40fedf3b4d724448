package cli

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseHelpAndMistakes(t *testing.T) {
	u := Usage{Synopsis: "serve [--addr HOST:PORT]", About: "Serves the page."}
	for _, tc := range []struct {
		args     []string
		code     int
		ok       bool
		out, err string
	}{
		{args: []string{"--help"}, code: 0, out: "Usage: kafkalive serve [--addr HOST:PORT]\n\nServes the page.\n\nFlags:\n  --addr HOST:PORT\n      where to listen on, as HOST:PORT (default \"127.0.0.1:7070\")\n  --q\n      no prompt\n  --rate N\n      N records a second (default 5)\n"},
		{args: []string{"-h"}, code: 0, out: "Usage: kafkalive serve [--addr HOST:PORT]\n\nServes the page.\n\nFlags:\n  --addr HOST:PORT\n      where to listen on, as HOST:PORT (default \"127.0.0.1:7070\")\n  --q\n      no prompt\n  --rate N\n      N records a second (default 5)\n"},
		{args: []string{"--nope"}, code: 2, err: "kafkalive serve: flag provided but not defined: -nope\n\nUsage: kafkalive serve [--addr HOST:PORT]\n\nServes the page.\n\nFlags:\n  --addr HOST:PORT\n      where to listen on, as HOST:PORT (default \"127.0.0.1:7070\")\n  --q\n      no prompt\n  --rate N\n      N records a second (default 5)\n"},
		{args: []string{"--addr", ":1"}, code: 0, ok: true},
	} {
		fs := NewFlagSet("serve")
		fs.String("addr", "127.0.0.1:7070", "where to listen on, as `HOST:PORT`")
		fs.Bool("q", false, "no prompt")
		fs.Int("rate", 5, "`N` records a second")
		var out, errOut bytes.Buffer
		code, ok := u.Parse(fs, tc.args, &out, &errOut)
		if code != tc.code || ok != tc.ok {
			t.Errorf("%q: code %d ok %v, want %d %v", tc.args, code, ok, tc.code, tc.ok)
		}
		if diff := cmp.Diff(tc.out, out.String()); diff != "" {
			t.Errorf("%q stdout (-want +got):\n%s", tc.args, diff)
		}
		if diff := cmp.Diff(tc.err, errOut.String()); diff != "" {
			t.Errorf("%q stderr (-want +got):\n%s", tc.args, diff)
		}
	}
}
