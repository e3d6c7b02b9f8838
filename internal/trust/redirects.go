package trust

import (
	"errors"
	"fmt"
	"net/http"
)

// ErrRedirect is what a request carrying a credential fails with when
// its far side answers with a redirect.
var ErrRedirect = errors.New("redirects are not followed for requests that carry credentials")

// RefusingRedirects is a copy of client that follows no redirect: Go's
// client would send a custom header (the upstream secret) and a body (a
// login's password) again to wherever a redirect points, plain http and
// another host included. The answer fails the request with ErrRedirect,
// naming where it pointed; the transport is shared with client.
func RefusingRedirects(client *http.Client) *http.Client {
	c := *client
	c.CheckRedirect = refuseRedirect
	return &c
}

func refuseRedirect(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("the answer was a redirect to %s: %w", req.URL.Redacted(), ErrRedirect)
}
