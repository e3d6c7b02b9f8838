package graph_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"payline/graph"
)

func get(t *testing.T, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	// Ask for exactly what the test says, with no transparent gzip.
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// TestGraphiQLPage: a browser at GET /graphql gets the GraphiQL shell,
// which loads the embedded bundle by versioned URLs under a CSP that
// allows no inline or foreign script; the assets are the committed
// dist/ files, with their types, ETags, gzip and a year's caching for
// the versioned URL. Without Console none of it is served.
func TestGraphiQLPage(t *testing.T) {
	srv := httptest.NewServer(graph.NewHandler(&graph.Resolver{}, graph.Options{Console: true}))
	t.Cleanup(srv.Close)

	res, page := get(t, srv.URL+"/graphql", "Accept", "text/html,application/xhtml+xml")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("page: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self';", "connect-src 'self'", "frame-ancestors 'none'", "font-src 'self' data:"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || regexp.MustCompile(`script-src[^;]*unsafe-inline`).MatchString(csp) {
		t.Errorf("CSP %q lets scripts run inline or from eval", csp)
	}
	if regexp.MustCompile(`(?s)<script>|<script[^>]*>[^<]+</script>|\son[a-z]+=`).Match(page) {
		t.Errorf("the page has an inline script or handler:\n%s", page)
	}
	if regexp.MustCompile(`(src|href)="(https?:)?//`).Match(page) {
		t.Errorf("the page loads something from another site:\n%s", page)
	}
	urls := map[string]string{}
	for _, m := range regexp.MustCompile(`(?:src|href)="(/graphql/assets/(graphiql\.min\.(?:js|css))\?v=[0-9a-f]{16})"`).FindAllSubmatch(page, -1) {
		urls[string(m[2])] = string(m[1])
	}
	if len(urls) != 2 {
		t.Fatalf("the page does not load the script and stylesheet by versioned URL:\n%s", page)
	}

	for name, contentType := range map[string]string{"graphiql.min.js": "text/javascript; charset=utf-8", "graphiql.min.css": "text/css; charset=utf-8"} {
		want, err := os.ReadFile("graphiql/dist/" + name)
		if err != nil {
			t.Fatal(err)
		}
		res, body := get(t, srv.URL+urls[name])
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != contentType || !bytes.Equal(body, want) {
			t.Fatalf("%s: %d %s, %d bytes, want the %d of dist/%s", name, res.StatusCode, res.Header.Get("Content-Type"), len(body), len(want), name)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s by its versioned URL: Cache-Control %q", name, cc)
		}
		etag := res.Header.Get("ETag")
		if res, _ := get(t, srv.URL+urls[name], "If-None-Match", etag); res.StatusCode != http.StatusNotModified {
			t.Errorf("%s with If-None-Match %s: %d", name, etag, res.StatusCode)
		}
		res, body = get(t, srv.URL+urls[name], "Accept-Encoding", "br, gzip")
		if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("ETag") == etag || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s gzipped: encoding %q, ETag %q (plain %q), Vary %q", name, res.Header.Get("Content-Encoding"), res.Header.Get("ETag"), etag, res.Header.Get("Vary"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if unzipped, err := io.ReadAll(zr); err != nil || !bytes.Equal(unzipped, want) || len(body) >= len(want) {
			t.Errorf("%s gzipped: %d bytes that unzip to %d (%v), want %d", name, len(body), len(unzipped), err, len(want))
		}
		// An old or unversioned URL is served too, but checked each time.
		if res, _ := get(t, srv.URL+graph.AssetsPrefix+name+"?v=0000000000000000"); res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s by another version: %d, Cache-Control %q", name, res.StatusCode, res.Header.Get("Cache-Control"))
		}
	}
	if res, body := get(t, srv.URL+graph.AssetsPrefix+"LICENSES.txt"); res.StatusCode != 200 || !bytes.Contains(body, []byte("graphiql@")) || !bytes.Contains(body, []byte("react@")) {
		t.Errorf("LICENSES.txt: %d %.200s", res.StatusCode, body)
	}
	if res, _ := get(t, srv.URL+graph.AssetsPrefix+"../handler.go"); res.StatusCode != 404 {
		t.Errorf("an unknown asset: %d", res.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+urls["graphiql.min.js"], nil)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST to an asset: %v %v", res, err)
	}

	// The assets are public (a browser loads them with no secret); the
	// page itself is negotiated as before.
	for _, path := range []string{"/graphql", urls["graphiql.min.js"], graph.AssetsPrefix + "LICENSES.txt", "/graphql/schema.graphql"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept", "text/html")
		if !graph.IsPublic(req) {
			t.Errorf("GET %s needs a secret", path)
		}
	}
	if req := httptest.NewRequest(http.MethodGet, "/graphql?query={__typename}", nil); graph.IsPublic(req) {
		t.Errorf("a GET query is public")
	}

	off := httptest.NewServer(graph.NewHandler(&graph.Resolver{}))
	t.Cleanup(off.Close)
	if res, _ := get(t, off.URL+urls["graphiql.min.js"]); res.StatusCode != 404 {
		t.Errorf("an asset with the console off: %d", res.StatusCode)
	}
	if res, body := get(t, off.URL+"/graphql", "Accept", "text/html"); bytes.Contains(body, []byte(`id="graphiql"`)) {
		t.Errorf("the page with the console off: %d", res.StatusCode)
	}
}
