package upstream

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"payline/connectors/internal/outbound"
	"payline/domain"
)

// maxDocument bounds a downloaded document: the vendor's W-2s are
// one-page PDFs or scans, far below this.
const maxDocument = 20 << 20

// documentTypes are the content types a relayed document is kept as.
var documentTypes = map[string]bool{"application/pdf": true, "image/png": true, "image/jpeg": true}

// document reads an end user's document at the upstream: its record's
// download_url, then the file itself (the upstream's own bytes, kept
// as they are rather than rendered again here).
func (c *Client) document(ctx context.Context, endUser, documentID string) (domain.Document, error) {
	var rec struct {
		Document struct {
			DownloadURL string `json:"download_url"`
		} `json:"document"`
	}
	path := "/v1/end_users/" + url.PathEscape(endUser) + "/documents/" + url.PathEscape(documentID)
	if err := c.do(ctx, "GET", path, nil, &rec); err != nil {
		return domain.Document{}, err
	}
	if rec.Document.DownloadURL == "" {
		return domain.Document{}, fmt.Errorf("the upstream's document %s has no download_url", documentID)
	}
	return c.download(ctx, rec.Document.DownloadURL)
}

// download fetches a document's signed download URL. It never carries
// the upstream secret (the link is its own credential, and may point at
// the upstream's file store), and it must be https unless the upstream
// itself is reached over plain http (on this machine: a test).
func (c *Client) download(ctx context.Context, link string) (domain.Document, error) {
	u, err := url.Parse(link)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && c.base.Scheme == "http")):
		return domain.Document{}, fmt.Errorf("the upstream's download_url is not an https URL")
	case !c.downloadable(u):
		return domain.Document{}, fmt.Errorf("the upstream's download_url is on %s, not the upstream's origin nor one of --upstream-document-origins; refused without connecting", origin(u))
	}
	resp, err := c.store.Do(ctx, func(ctx context.Context) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, "GET", u.String(), nil)
	}, func(r outbound.Response) error {
		if err := outbound.Unanswered(r, "document download"); err != nil {
			return err
		}
		if r.Status != http.StatusOK {
			return fmt.Errorf("document download: the upstream answered %d", r.Status)
		}
		return nil
	})
	if err != nil {
		return domain.Document{}, err
	}
	ct, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || !documentTypes[ct] {
		return domain.Document{}, fmt.Errorf("document download: content type %q is not a PDF, PNG or JPEG", resp.Header.Get("Content-Type"))
	}
	if len(resp.Body) > maxDocument {
		return domain.Document{}, errors.New("document download: larger than 20 MiB")
	}
	return domain.Document{ContentType: ct, Body: resp.Body}, nil
}

// downloadable says whether a document link (or a redirect from one) may
// be fetched: https, or http when the upstream itself is, on the
// upstream's origin or one of its document origins.
func (c *Client) downloadable(u *url.URL) bool {
	return u.Host != "" && (u.Scheme == "https" || u.Scheme == "http" && c.base.Scheme == "http") && slices.Contains(c.docOrigins, origin(u))
}

// origin is a URL's scheme and host (with its port, the default one
// written out), lower case: what two URLs share when they are one origin.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// downloads is the client for document links. Unlike the requests that
// carry the secret it follows redirects (a file store may answer with
// one), but only to a link download would accept, and never from https
// down to http, where the document would cross the network in the clear.
func (c *Client) downloads() *http.Client {
	client := *c.http
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		switch {
		case len(via) >= 10:
			return errors.New("document download: stopped after 10 redirects")
		case via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme != "https":
			return fmt.Errorf("document download: refused a redirect from %s to %s, which is not https",
				origin(via[len(via)-1].URL), origin(req.URL))
		case !c.downloadable(req.URL):
			return fmt.Errorf("document download: refused a redirect from %s to %s, which is neither the upstream's origin nor one of its document origins",
				origin(via[len(via)-1].URL), origin(req.URL))
		}
		return nil
	}
	return &client
}
