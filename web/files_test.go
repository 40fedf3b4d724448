//go:build !js

package web

import (
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fetch GETs path from hs with the headers given (none sets
// Accept-Encoding unless asked: Go's client would ask for gzip and undo
// it) and returns the response and its body as sent.
func fetch(t *testing.T, url, method string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", "identity")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, b
}

// TestPageFilesGoGzippedWithAnETag: every file of the page goes gzipped
// to a browser that takes gzip and plain to one that does not, each with
// an ETag of its own; asked again with If-None-Match it is a 304 without
// a body; a file that is not there is a 404.
func TestPageFilesGoGzippedWithAnETag(t *testing.T) {
	hs, _ := newTestServer(t)
	var plainBytes, gzBytes int
	err := fs.WalkDir(StaticFS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, err := fs.ReadFile(StaticFS(), p)
		require.NoError(t, err)
		url := hs.URL + "/" + p
		if p == "index.html" {
			url = hs.URL + "/"
		}
		plain, body := fetch(t, url, "GET", nil)
		require.Equal(t, http.StatusOK, plain.StatusCode, p)
		require.Equal(t, string(want), string(body), "%s plain", p)
		require.Empty(t, plain.Header.Get("Content-Encoding"), p)
		require.Equal(t, "no-cache", plain.Header.Get("Cache-Control"), p)
		tag := plain.Header.Get("ETag")
		require.Regexp(t, `^"[A-Za-z0-9_-]+"$`, tag, p)

		zipped, zbody := fetch(t, url, "GET", map[string]string{"Accept-Encoding": "br, gzip;q=0.8"})
		require.Equal(t, http.StatusOK, zipped.StatusCode, p)
		ztag := zipped.Header.Get("ETag")
		if zipped.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(strings.NewReader(string(zbody)))
			require.NoError(t, err, p)
			unzipped, err := io.ReadAll(zr)
			require.NoError(t, err, p)
			require.Equal(t, string(want), string(unzipped), "%s gunzipped", p)
			require.NotEqual(t, tag, ztag, "%s: the gzipped file has a tag of its own", p)
			require.Less(t, len(zbody), len(want), p)
			require.Contains(t, zipped.Header.Values("Vary"), "Accept-Encoding", p)
		} else {
			require.Equal(t, string(want), string(zbody), "%s: not smaller gzipped, it goes plain", p)
		}
		plainBytes += len(body)
		gzBytes += len(zbody)

		for _, c := range []struct {
			tag, enc string
		}{{tag, "identity"}, {ztag, "gzip"}, {`"other", ` + ztag, "gzip"}} {
			again, b := fetch(t, url, "GET", map[string]string{"If-None-Match": c.tag, "Accept-Encoding": c.enc})
			if again.StatusCode != http.StatusNotModified || len(b) != 0 {
				t.Errorf("%s asked again with If-None-Match %s: status %d, %d bytes; want 304 and none", p, c.tag, again.StatusCode, len(b))
			}
		}
		if stale, _ := fetch(t, url, "GET", map[string]string{"If-None-Match": `"stale"`}); stale.StatusCode != http.StatusOK {
			t.Errorf("%s with a stale ETag: status %d, want 200", p, stale.StatusCode)
		}
		return nil
	})
	require.NoError(t, err)
	for _, p := range []string{"/nope.js", "/js/", "/js/nope.js", "/index.htm"} {
		if resp, _ := fetch(t, hs.URL+p, "GET", nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", p, resp.StatusCode)
		}
	}
	head, b := fetch(t, hs.URL+"/", "HEAD", map[string]string{"Accept-Encoding": "gzip"})
	require.Equal(t, http.StatusOK, head.StatusCode)
	require.Empty(t, b)
	if q0, _ := fetch(t, hs.URL+"/", "GET", map[string]string{"Accept-Encoding": "gzip;q=0"}); q0.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 got Content-Encoding %q", q0.Header.Get("Content-Encoding"))
	}
	t.Logf("the page's files: %d bytes, %d gzipped", plainBytes, gzBytes)
}
