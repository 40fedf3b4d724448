package main

import (
	"strings"

	"github.com/kafkalive/kafkalive/internal/dumplog"
)

// log-dirs prints positions and JSON as dump-log does; these are its
// names for internal/dumplog's.

func atPosition(err error, pos int64) error { return dumplog.AtPosition(err, pos) }

type jsonObject struct{ o dumplog.JSONObject }

func (j *jsonObject) str(k string, v *string) { j.o.Str(k, v) }
func (j *jsonObject) num(k string, v int64)   { j.o.Num(k, v) }
func (j *jsonObject) raw(k, v string)         { j.o.Raw(k, v) }
func (j *jsonObject) String() string          { return j.o.String() }

func joinComma(parts []string) string { return strings.Join(parts, ",") }
