package rest

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestLinkHandoff: Link on a computer hands its session to a phone. The
// hand-off answers a URL whose code (in the fragment) is long, random and
// not the link token, and the same URL as a QR code (the PNG decoded
// back by zbarimg, the SVG drawn); the phone claims the code once (a
// second claim is refused) and gets a key of its own that opens the same
// session at the step handed off, where the login then completes; the
// computer sees the hand-off claimed. A code not claimed in time has
// expired, on both databases.
func TestLinkHandoff(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		p := switchPlatform(t)
		_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "handoff-user", "required_jobs": ["paystubs"]}`)

		status, res := f.linkAPI("POST", "handoff", token, `{"screen": "LOGIN", "platform_id": "`+p.ID+`"}`)
		if status != 200 || res["status"] != "pending" || res["screen"] != "LOGIN" {
			t.Fatalf("start: %d %v", status, res)
		}
		url, _ := res["url"].(string)
		prefix := f.http.URL + "/link/v1/continue#code="
		code := strings.TrimPrefix(url, prefix)
		if !strings.HasPrefix(url, prefix) || len(code) < 43 || strings.Contains(url, token) {
			t.Fatalf("hand-off url %q", url)
		}
		if got := decodeQR(t, res["qr_code_png"].(string)); got != url {
			t.Errorf("the QR code reads %q, want %q", got, url)
		}
		if svg, _ := res["qr_code_svg"].(string); !strings.HasPrefix(svg, "<svg") {
			t.Errorf("qr_code_svg %.40q", svg)
		}
		id := res["id"].(string)
		if status, res := f.linkAPI("GET", "handoff/"+id, token, ""); status != 200 || res["status"] != "pending" || res["url"] != nil {
			t.Errorf("poll before the phone: %d %v", status, res)
		}

		// The phone claims the code without any token.
		status, claim := f.linkAPI("POST", "handoff/claim", "", `{"code": "`+code+`"}`)
		if status != 200 || claim["screen"] != "LOGIN" || claim["platform"].(map[string]any)["id"] != p.ID {
			t.Fatalf("claim: %d %v", status, claim)
		}
		key, _ := claim["link_key"].(string)
		if len(key) < 43 || key == token || key == code {
			t.Fatalf("link_key %q", key)
		}
		if status, again := f.linkAPI("POST", "handoff/claim", "", `{"code": "`+code+`"}`); status != 400 || errCode(again) != domain.CodeLinkHandoffInvalid {
			t.Errorf("a second claim: %d %v", status, again)
		}
		if status, res := f.linkAPI("GET", "handoff/"+id, token, ""); status != 200 || res["status"] != "claimed" {
			t.Errorf("poll after the phone: %d %v", status, res)
		}
		// The phone's key opens the same session: the token's own.
		if status, sess := f.linkAPI("GET", "session", key, ""); status != 200 || sess["org_name"] != "Acme" || sess["uploads"] != true {
			t.Fatalf("session with the phone's key: %d %v", status, sess)
		}
		if status, login := f.linkAPI("POST", "login", key, `{"platform_id": "`+p.ID+`", "username": "`+sandbox.UserGood+`", "password": "`+sandbox.Password+`"}`); status != 200 || login["account_id"] == nil {
			t.Fatalf("login with the phone's key: %d %v", status, login)
		}
		// The session is the token's: the computer's token is used now too.
		if status, res := f.linkAPI("GET", "session", token, ""); status != 400 || errCode(res) != domain.CodeLinkTokenUsed {
			t.Errorf("the computer's session after the phone's login: %d %v", status, res)
		}
		if status, res := f.linkAPI("POST", "handoff", token, `{"screen": "SEARCH_DEFAULT"}`); status != 400 || errCode(res) != domain.CodeLinkTokenUsed {
			t.Errorf("a hand-off of a used session: %d %v", status, res)
		}

		// A code not claimed within HandoffTTL has expired.
		_, token2 := f.createToken(`{"org_name": "Acme", "end_user_id": "handoff-late", "required_jobs": ["paystubs"]}`)
		_, res = f.linkAPI("POST", "handoff", token2, `{"screen": "SEARCH_DEFAULT"}`)
		late := strings.TrimPrefix(res["url"].(string), prefix)
		f.clock.advance(domain.HandoffTTL + time.Second)
		if status, res := f.linkAPI("POST", "handoff/claim", "", `{"code": "`+late+`"}`); status != 400 || errCode(res) != domain.CodeLinkHandoffExpired {
			t.Errorf("a late claim: %d %v", status, res)
		}
		if status, res := f.linkAPI("POST", "handoff/claim", "", `{"code": "not-a-code"}`); status != 400 || errCode(res) != domain.CodeLinkHandoffInvalid ||
			res["error"].(map[string]any)["type"] != "INVALID_LINK_TOKEN" {
			t.Errorf("an unknown code: %d %v", status, res)
		}
		// The upload screen hands off too, for a session that offers uploads.
		_, res = f.linkAPI("POST", "handoff", token2, `{"screen": "DOC_UPLOAD"}`)
		upload := strings.TrimPrefix(res["url"].(string), prefix)
		if status, res := f.linkAPI("POST", "handoff/claim", "", `{"code": "`+upload+`"}`); status != 200 || res["screen"] != "DOC_UPLOAD" || res["platform"] != nil {
			t.Errorf("a hand-off of the upload: %d %v", status, res)
		}
		// Steps Link cannot continue at are refused.
		if status, res := f.linkAPI("POST", "handoff", token2, `{"screen": "DD_CONFIRMATION"}`); status != 400 || errCode(res) != domain.CodeInvalidFields {
			t.Errorf("a hand-off at a confirmation: %d %v", status, res)
		}
	})
}

func errCode(res map[string]any) any { return linkErrorCode(res) }

// decodeQR reads a QR code's PNG (a data: URL or raw bytes) with
// Debian's zbarimg.
func decodeQR(t *testing.T, png string) string {
	t.Helper()
	const zbar = "/usr/bin/zbarimg"
	if _, err := os.Stat(zbar); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (apt-get install zbar-tools)", zbar)
		}
		t.Skipf("*** SKIPPING: %s not installed (apt-get install zbar-tools) ***", zbar)
	}
	data := []byte(png)
	if rest, ok := strings.CutPrefix(png, "data:image/png;base64,"); ok {
		var err error
		if data, err = base64.StdEncoding.DecodeString(rest); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "qr.png")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(zbar, "--raw", "-q", path).Output()
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	return strings.TrimSpace(string(out))
}
