package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strconv"

	"github.com/kafkalive/kafkalive/scenarios"
)

// API is what the page asks of the world, whatever carries the asking:
// [Server] serves it over HTTP, and in a browser tab the Web Worker that
// runs the world answers the same calls from the page's messages
// (package web/tab). One route table, the same statuses and the same
// bodies either way; only the update stream (/api/stream) is the
// transport's own ([Live.Watch] feeds both).
type API struct {
	Live *Live
	Term *Terminal
	// Notes holds the notes' Markdown files (nil: none).
	Notes fs.FS
}

// Call is one call of the page on the API: a GET with its query, or a
// POST with a JSON body.
type Call struct {
	// Method is GET or POST, Path the route (/api/view).
	Method, Path string
	Query        url.Values
	Body         []byte
	// Ctx is the call's context: a long terminal run stops between two
	// steps when it is done (nil: never).
	Ctx context.Context
}

// Reply is the API's answer to a Call: an HTTP status, the body's
// Content-Type ("" with no body) and the body.
type Reply struct {
	Status      int
	ContentType string
	Body        []byte
}

// The statuses the API answers, as HTTP numbers them (net/http is the
// server's, not the tab's: see the file comment of tab_js.go).
const (
	statusOK                  = 200
	statusNoContent           = 204
	statusBadRequest          = 400
	statusNotFound            = 404
	statusMethodNotAllowed    = 405
	statusConflict            = 409
	statusRequestTooLarge     = 413
	statusInternalServerError = 500
)

// apiRoute is one route of the API.
type apiRoute struct {
	method, path string
	serve        func(a *API, c Call) Reply
}

// apiRoutes are the API's routes: the page's calls, but the stream.
var apiRoutes = []apiRoute{
	{"GET", "/api/view", (*API).view},
	{"POST", "/api/exec", (*API).exec},
	{"POST", "/api/pause", (*API).pause},
	{"POST", "/api/reset", (*API).reset},
	{"POST", "/api/speed", (*API).speed},
	{"GET", "/api/scenarios", (*API).scenarios},
	{"POST", "/api/scenario/start", (*API).scenarioStart},
	{"POST", "/api/scenario/step", (*API).scenarioStep},
	{"POST", "/api/scenario/leave", (*API).scenarioLeave},
	{"GET", "/api/notes", (*API).notes},
	{"GET", "/api/note", (*API).note},
}

// Serve answers c: 404 for a path that is no route, 405 for a route
// asked with another method.
func (a *API) Serve(c Call) Reply {
	if c.Ctx == nil {
		c.Ctx = context.Background()
	}
	found := false
	for _, r := range apiRoutes {
		if r.path != c.Path {
			continue
		}
		if r.method == c.Method {
			return r.serve(a, c)
		}
		found = true
	}
	if found {
		return textReply(statusMethodNotAllowed, "Method Not Allowed")
	}
	return textReply(statusNotFound, "404 page not found")
}

// textReply is a plain-text answer, as net/http's Error writes it.
func textReply(status int, msg string) Reply {
	return Reply{Status: status, ContentType: "text/plain; charset=utf-8", Body: []byte(msg + "\n")}
}

// errorReply answers err as plain text.
func errorReply(status int, err error) Reply { return textReply(status, err.Error()) }

// jsonReply answers v as JSON.
func jsonReply(status int, v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		return errorReply(statusInternalServerError, err)
	}
	return Reply{Status: status, ContentType: "application/json", Body: b}
}

// noContent is a success without a body.
func noContent() Reply { return Reply{Status: statusNoContent} }

// MaxBodyBytes bounds a request's body (a terminal line with a big
// value; larger bodies get 413).
const MaxBodyBytes = 16 << 20

// ErrBadBody means a JSON body did not decode into the route's arguments.
var ErrBadBody = errors.New("web: bad JSON body")

// decodeJSON decodes a call's body into v: one JSON object of the route's
// fields, nothing else, at most MaxBodyBytes.
func decodeJSON(c Call, v any) (Reply, bool) {
	if len(c.Body) > MaxBodyBytes {
		return errorReply(statusRequestTooLarge, fmt.Errorf("%w: %s: over %d bytes", ErrBadBody, c.Path, MaxBodyBytes)), false
	}
	dec := json.NewDecoder(bytes.NewReader(c.Body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err != nil {
		return errorReply(statusBadRequest, fmt.Errorf("%w: %s: %v", ErrBadBody, c.Path, err)), false
	}
	return Reply{}, true
}

// FocusOf reads what a page shows from its query: the partition in detail
// (?topic=&partition=; default orders-0), the record whose journey the
// page follows, &offset=&value= (none without a value, or with an offset
// that is not a number), and the partition table's page ([TableQueryOf]:
// a filter, order or page it does not know is an [ErrTableQuery]).
func FocusOf(q url.Values) (Focus, error) {
	f := Focus{Topic: q.Get("topic"), Partition: 0}
	if f.Topic == "" {
		f.Topic = "orders"
	}
	if p, err := strconv.ParseInt(q.Get("partition"), 10, 32); err == nil {
		f.Partition = int32(p)
	}
	if o, err := strconv.ParseInt(q.Get("offset"), 10, 64); err == nil && o >= 0 && q.Get("value") != "" {
		f.Offset, f.Value = o, preview(q.Get("value"), PreviewBytes)
	}
	tq, err := TableQueryOf(q)
	f.Table = tq
	return f, err
}

// errAt means a moment of the timeline was not a time in milliseconds.
var errAt = errors.New("at: want a time in milliseconds")

// atOf reads ?at=MS, the moment of the timeline shown (absent: now).
func atOf(q url.Values) (*int64, error) {
	s := q.Get("at")
	if s == "" {
		return nil, nil
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms < 0 {
		return nil, errAt
	}
	return &ms, nil
}

func (a *API) view(c Call) Reply {
	at, err := atOf(c.Query)
	if err != nil {
		return errorReply(statusBadRequest, err)
	}
	f, err := FocusOf(c.Query)
	if err != nil {
		return errorReply(statusBadRequest, err)
	}
	v, err := a.Live.Update(f, at)
	if err != nil {
		return errorReply(statusInternalServerError, err)
	}
	return jsonReply(statusOK, v)
}

// ExecRequest is the body of POST /api/exec: a terminal line typed on the
// page, at the moment of the timeline shown (absent: now). The observed
// cluster's server takes the same body.
type ExecRequest struct {
	Line string `json:"line"`
	At   *int64 `json:"at,omitempty"`
}

// ExecResult is the answer to POST /api/exec: what a terminal command
// printed, whether it ran, and the fork it made when it acted from the
// past (never on an observed cluster, which nothing changes).
type ExecResult struct {
	Output string `json:"output"`
	OK     bool   `json:"ok"`
	Forked *Fork  `json:"forked,omitempty"`
}

func (a *API) exec(c Call) Reply {
	var req ExecRequest
	if r, ok := decodeJSON(c, &req); !ok {
		return r
	}
	if req.At != nil && *req.At < 0 {
		return errorReply(statusBadRequest, errAt)
	}
	var out bytes.Buffer
	f, err := a.Live.ExecLine(c.Ctx, a.Term, req.Line, req.At, &out)
	return jsonReply(statusOK, ExecResult{Output: out.String(), OK: err == nil, Forked: f})
}

func (a *API) pause(c Call) Reply {
	var req struct {
		Paused bool `json:"paused"`
	}
	if r, ok := decodeJSON(c, &req); !ok {
		return r
	}
	a.Live.SetPaused(req.Paused)
	return noContent()
}

// speed sets the live clock's speed ({"speed": 1..MaxSpeed}).
func (a *API) speed(c Call) Reply {
	var req struct {
		Speed int64 `json:"speed"`
	}
	if r, ok := decodeJSON(c, &req); !ok {
		return r
	}
	if req.Speed < 1 || req.Speed > MaxSpeed {
		return textReply(statusBadRequest, "speed: want 1 to "+strconv.Itoa(MaxSpeed))
	}
	a.Live.SetSpeed(req.Speed)
	return noContent()
}

func (a *API) reset(c Call) Reply {
	if r, ok := decodeJSON(c, &struct{}{}); !ok {
		return r
	}
	if err := a.Live.Reset(); err != nil {
		return errorReply(statusInternalServerError, err)
	}
	return noContent()
}

func (a *API) scenarios(Call) Reply {
	list, err := ListScenarios()
	if err == nil {
		var mine []ScenarioInfo
		mine, err = a.Live.learnerScenarios()
		list = append(mine, list...)
	}
	if err != nil {
		return errorReply(statusInternalServerError, err)
	}
	return jsonReply(statusOK, list)
}

// startRequest starts a scenario, at a step with the answers chosen (a
// reload's URL) or at its beginning.
type startRequest struct {
	Name    string `json:"name"`
	Step    int    `json:"step,omitempty"`
	Answers []int  `json:"answers,omitempty"`
}

// sessionError is a scenario request refused, with the session the page
// follows instead.
type sessionError struct {
	Error   string  `json:"error"`
	Session Session `json:"session"`
}

func (a *API) scenarioStart(c Call) Reply {
	var req startRequest
	if r, ok := decodeJSON(c, &req); !ok {
		return r
	}
	v, err := a.Live.StartScenario(req.Name, req.Step, req.Answers)
	switch {
	case errors.Is(err, ErrNoSuchScenario):
		return jsonReply(statusNotFound, sessionError{Error: err.Error(), Session: a.Live.Session()})
	case err != nil:
		return jsonReply(statusBadRequest, sessionError{Error: err.Error(), Session: a.Live.Session()})
	}
	return jsonReply(statusOK, v)
}

// scenarioStep plays the next step ({"session": ID, "step": N, "answer":
// A}). A request for a session or step that is not the world's gets 409
// with the world's session, which the page then shows.
func (a *API) scenarioStep(c Call) Reply {
	var req StepRequest
	if r, ok := decodeJSON(c, &req); !ok {
		return r
	}
	v, err := a.Live.PlayStep(req)
	switch {
	case errors.Is(err, ErrStaleSession), errors.Is(err, ErrNoScenario), errors.Is(err, scenarios.ErrWaiting),
		errors.Is(err, scenarios.ErrStepRefused):
		return jsonReply(statusConflict, sessionError{Error: err.Error(), Session: v})
	case errors.Is(err, ErrBadAnswer):
		return jsonReply(statusBadRequest, sessionError{Error: err.Error(), Session: v})
	case err != nil:
		return jsonReply(statusInternalServerError, sessionError{Error: err.Error(), Session: v})
	}
	return jsonReply(statusOK, v)
}

// scenarioLeave goes back to the live world and answers the new session.
func (a *API) scenarioLeave(c Call) Reply {
	if r, ok := decodeJSON(c, &struct{}{}); !ok {
		return r
	}
	return jsonReply(statusOK, a.Live.LeaveScenario())
}

func (a *API) notes(Call) Reply {
	list, err := listNotes(a.Notes)
	if err != nil {
		return errorReply(statusInternalServerError, err)
	}
	if list == nil {
		list = []NoteInfo{}
	}
	return jsonReply(statusOK, list)
}

// note answers one note rendered as HTML (?name=00-why-a-log).
func (a *API) note(c Call) Reply {
	name := c.Query.Get("name")
	if a.Notes == nil || name == "" || name != path.Base(name) {
		return textReply(statusNotFound, "404 page not found")
	}
	b, err := fs.ReadFile(a.Notes, name+".md")
	if err != nil {
		return textReply(statusNotFound, "404 page not found")
	}
	return Reply{Status: statusOK, ContentType: "text/html; charset=utf-8", Body: []byte(RenderNote(name, string(b)))}
}
