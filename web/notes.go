package web

import (
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"
)

// NoteInfo is one note in the list.
type NoteInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Scenario names the guided scenario that shows the note's subject
	// ("" if none yet).
	Scenario string `json:"scenario,omitempty"`
}

// noteScenarios links each note to the guided scenario that shows it (the
// notes without one have no scenario yet: records on disk, the index,
// retention and rebalancing are shown by the live page itself).
var noteScenarios = map[string]string{
	"00-why-a-log":                   "life-of-a-record",
	"topics-partitions-offsets":      "life-of-a-record",
	"04-page-cache-and-recovery":     "acks1-loses-acked-writes",
	"05-leader-epochs":               "kip101-part1",
	"replication-isr-high-watermark": "acks-all-and-the-isr",
}

// listNotes lists the Markdown files of notes, sorted by name, with their
// first heading as title.
func listNotes(notes fs.FS) ([]NoteInfo, error) {
	if notes == nil {
		return nil, nil
	}
	names, err := fs.Glob(notes, "*.md")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []NoteInfo
	for _, n := range names {
		b, err := fs.ReadFile(notes, n)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(n, ".md")
		if strings.HasPrefix(name, "CONTRIBUTING") {
			continue
		}
		out = append(out, NoteInfo{Name: name, Title: firstHeading(string(b), name), Scenario: noteScenarios[name]})
	}
	return out, nil
}

func firstHeading(md, fallback string) string {
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "# ") {
			return strings.TrimSpace(l[2:])
		}
	}
	return fallback
}

func (s *Server) handleNotes(w http.ResponseWriter, r *http.Request) {
	list, err := listNotes(s.Notes)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if list == nil {
		list = []NoteInfo{}
	}
	writeJSON(w, list)
}

// handleNote serves one note rendered as HTML (?name=00-why-a-log).
func (s *Server) handleNote(w http.ResponseWriter, r *http.Request) {
	name := r.FormValue("name")
	if s.Notes == nil || name == "" || name != path.Base(name) {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(s.Notes, name+".md")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(RenderMarkdown(string(b))))
}
