//go:build !js

package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// files serves the page's files (StaticFS) as they were built into the
// binary: each one gzipped once, when the server starts, for a browser
// that accepts it (Content-Encoding: gzip, where gzip makes it smaller),
// with an ETag of its bytes, so that a page opened again asks with
// If-None-Match and gets 304 Not Modified, no body. Cache-Control no-cache
// makes the browser ask every time: a kafkalive built anew serves its new
// files at once, and the files that did not change cost a 304.
type files struct {
	byPath map[string]*file
}

// file is one of the page's files, plain and gzipped, each with its ETag.
type file struct {
	name        string
	contentType string
	plain, gz   []byte
	etag, gzTag string
}

// newFiles reads and gzips the files of fsys.
func newFiles(fsys fs.FS) (*files, error) {
	fl := &files{byPath: map[string]*file{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		f := &file{name: p, plain: b, etag: etagOf(b)}
		if f.contentType = mime.TypeByExtension(path.Ext(p)); f.contentType == "" {
			f.contentType = http.DetectContentType(b)
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		if err := zw.Close(); err != nil {
			return err
		}
		if buf.Len() < len(b) {
			// another representation, another tag (RFC 9110, 8.8.3)
			f.gz, f.gzTag = buf.Bytes(), strings.TrimSuffix(f.etag, `"`)+`-gz"`
		}
		fl.byPath["/"+p] = f
		return nil
	})
	return fl, err
}

// etagOf is a strong ETag of b: a hash of its bytes.
func etagOf(b []byte) string {
	h := sha256.Sum256(b)
	return `"` + base64.RawURLEncoding.EncodeToString(h[:12]) + `"`
}

// ServeHTTP serves the file r names ("/": index.html), gzipped when the
// browser accepts gzip; 304 when If-None-Match names its ETag; 404 when
// there is none.
func (fl *files) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	f, ok := fl.byPath[p]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", "no-cache")
	body, tag := f.plain, f.etag
	if f.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			body, tag = f.gz, f.gzTag
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", tag)
	// ServeContent answers If-None-Match (304), HEAD and ranges
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptsGzip says whether r's Accept-Encoding takes gzip (not with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
