package trust

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRefusingRedirects: a redirect fails the request with ErrRedirect,
// naming where it pointed, and nothing reaches that address; the client
// it copies keeps following redirects.
func TestRefusingRedirects(t *testing.T) {
	var reached atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { reached.Add(1) }))
	defer other.Close()
	far := httptest.NewTLSServer(http.RedirectHandler(other.URL+"/elsewhere", http.StatusTemporaryRedirect))
	defer far.Close()

	refusing := RefusingRedirects(far.Client())
	resp, err := refusing.Post(far.URL+"/login", "application/json", strings.NewReader(`{"password": "hunter2"}`))
	if resp != nil {
		resp.Body.Close()
	}
	if !errors.Is(err, ErrRedirect) || !strings.Contains(err.Error(), other.URL+"/elsewhere") {
		t.Errorf("a redirect: %v; want ErrRedirect naming %s", err, other.URL)
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the redirect's address was reached %d times", n)
	}
	if resp, err := far.Client().Get(far.URL); err != nil || reached.Load() != 1 {
		t.Errorf("the copied client no longer follows redirects: %v, %v", resp, err)
	} else {
		resp.Body.Close()
	}
}
