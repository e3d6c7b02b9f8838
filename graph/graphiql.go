package graph

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// GraphiQL is the page browsers get at GET /graphql: graphiql/page.html,
// which loads one script and one stylesheet from /graphql/assets/. Both
// are built by graphiql/build.sh from the npm packages locked in
// graphiql/package-lock.json and committed; CI rebuilds them and fails
// when they differ, so what is embedded here is what the lockfile gives.
// Nothing is fetched from a CDN at run time.
var (
	//go:embed graphiql/page.html
	graphiqlPageTemplate string
	//go:embed graphiql/dist/graphiql.min.js
	graphiqlJS []byte
	//go:embed graphiql/dist/graphiql.min.css
	graphiqlCSS []byte
	//go:embed graphiql/dist/LICENSES.txt
	graphiqlLicenses []byte
)

// AssetsPrefix is where GraphiQL's script, stylesheet and licences are
// served; like the page, they need no API secret.
const AssetsPrefix = "/graphql/assets/"

// graphiqlCSP lets the page run only its own bundle (no inline script,
// no eval), talk only to this server (fetch, and the websocket for
// subscriptions, which 'self' covers), and not be framed. Styles may be
// inline: GraphiQL's dialogs and menus (Radix, via react-style-singleton)
// add <style> elements at run time. Fonts are data: URLs in the CSS.
const graphiqlCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// asset is one embedded file, with a strong ETag from its content and a
// gzip copy made the first time a client that accepts it asks.
type asset struct {
	contentType string
	body        []byte
	hash        string // hex SHA-256 of body
	gz          func() []byte
}

func newAsset(contentType string, body []byte) *asset {
	sum := sha256.Sum256(body)
	return &asset{contentType: contentType, body: body, hash: hex.EncodeToString(sum[:]),
		gz: sync.OnceValue(func() []byte {
			var b bytes.Buffer
			// NewWriterLevel fails only for a level out of range (this
			// one is gzip's own constant), and writing to and closing
			// over a bytes.Buffer cannot fail.
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			_, _ = zw.Write(body)
			_ = zw.Close()
			return b.Bytes()
		})}
}

// version is what the page puts in the asset's URL (?v=), so a browser
// may keep the file for a year: a new build is a new URL.
func (a *asset) version() string { return a.hash[:16] }

var graphiqlAssets = map[string]*asset{
	"graphiql.min.js":  newAsset("text/javascript; charset=utf-8", graphiqlJS),
	"graphiql.min.css": newAsset("text/css; charset=utf-8", graphiqlCSS),
	"LICENSES.txt":     newAsset("text/plain; charset=utf-8", graphiqlLicenses),
}

// graphiqlPage is page.html pointing at this build's assets.
var graphiqlPage = []byte(strings.NewReplacer(
	"{{JS}}", AssetsPrefix+"graphiql.min.js?v="+graphiqlAssets["graphiql.min.js"].version(),
	"{{CSS}}", AssetsPrefix+"graphiql.min.css?v="+graphiqlAssets["graphiql.min.css"].version(),
).Replace(graphiqlPageTemplate))

func serveGraphiQLPage(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", graphiqlCSP)
	// A failed write is a client that left: the status is sent, and
	// nothing is left to tell it.
	_, _ = w.Write(graphiqlPage)
}

// serveGraphiQLAsset answers GET and HEAD for an embedded asset: 304 when
// the client has it (If-None-Match), gzip when accepted.
func serveGraphiQLAsset(w http.ResponseWriter, r *http.Request) {
	a, ok := graphiqlAssets[strings.TrimPrefix(r.URL.Path, AssetsPrefix)]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "GraphiQL's assets are read with GET", http.StatusMethodNotAllowed)
		return
	}
	body, etag := a.body, `"`+a.hash+`"`
	gzipped := acceptsGzip(r)
	if gzipped {
		body, etag = a.gz(), `"`+a.hash+`-gzip"`
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", etag)
	if r.URL.Query().Get("v") == a.version() {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if gzipped {
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body) // a failed write is a client that left; nothing is left to tell it
}

// acceptsGzip reports whether Accept-Encoding lists gzip without q=0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// etagMatches reports whether an If-None-Match header names etag (weakly
// compared, as RFC 9110 says for If-None-Match), or is *.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// isAsset reports whether a request is for GraphiQL's assets.
func isAsset(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, AssetsPrefix) }
