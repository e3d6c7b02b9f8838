package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"payline/domain"
)

// TestWriteError: the one writer takes the status from the kind, the
// Retry-After from the error's own hint (Link once sent 2 for every
// outage), the body from the transport's shape, and logs only what the
// caller cannot fix, in one line shape.
func TestWriteError(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	shape := func(e *domain.Error, status int) any { return map[string]any{"code": e.Code, "status": status} }
	cases := []struct {
		err        error
		status     int
		retryAfter string
		logged     string
	}{
		{domain.UpstreamUnavailable("the upstream", 7*time.Second, errors.New("dial tcp: refused")), 503, "7", "WARN"},
		{errors.New("boom"), 500, "", "ERROR"},
		{domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "amount: must be positive"), 400, "", ""},
	}
	for _, c := range cases {
		logs.Reset()
		w := httptest.NewRecorder()
		WriteError(w, httptest.NewRequest("POST", "/v1/x", nil), log, c.err, shape)
		var body map[string]any
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		if w.Code != c.status || body["status"] != float64(c.status) || w.Header().Get("Retry-After") != c.retryAfter {
			t.Errorf("%v: %d %v Retry-After %q", c.err, w.Code, body, w.Header().Get("Retry-After"))
		}
		line := logs.String()
		switch {
		case c.logged == "" && line != "":
			t.Errorf("%v was logged: %s", c.err, line)
		case c.logged != "" && (strings.Count(line, "\n") != 1 || !strings.Contains(line, `"level":"`+c.logged+`"`) ||
			!strings.Contains(line, `"msg":"request failed"`) || !strings.Contains(line, `"code":"`)):
			t.Errorf("%v logged as %s", c.err, line)
		}
	}
}
