package rest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/notify"
	"payline/notify/twilio"
	"payline/storage"
	"payline/storage/storagetest"
)

// The end-to-end test of issue 48's first done-when: real delivery to a
// real SMTP server (Debian's aiosmtpd, notify/smtp's testdata/smtpd.py)
// and to a local server speaking Twilio's documented Messages API, through
// the senders payline serve builds (notify.NewSender).

// mailServer is aiosmtpd running for one test; it keeps each message
// it takes as N.eml in dir.
type mailServer struct {
	port int
	dir  string
}

func startMailServer(t *testing.T) mailServer {
	t.Helper()
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import aiosmtpd").Run(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s cannot import aiosmtpd (apt-get install python3-aiosmtpd): %v", python, err)
		}
		t.Skipf("SKIPPING: %s cannot import aiosmtpd (apt-get install python3-aiosmtpd): %v", python, err)
	}
	dir := t.TempDir()
	cmd := exec.Command(python, "../notify/smtp/testdata/smtpd.py", "--dir", dir, "--user", "payline", "--password", "right horse battery")
	// aiosmtpd warns of its own deprecations on every login: its stderr
	// shows only when the test fails.
	var stderr strings.Builder
	cmd.Stderr = &stderr
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("smtpd.py's stderr:\n%s", stderr.String())
		}
	})
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- line
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case line := <-ready:
		var port int
		if _, err := fmt.Sscanf(line, "READY %d", &port); err != nil {
			t.Fatalf("smtpd.py said %q, not READY <port>", line)
		}
		return mailServer{port: port, dir: dir}
	case <-time.After(30 * time.Second):
		t.Fatal("smtpd.py did not start within 30 s")
	}
	return mailServer{}
}

// mails are the messages the server took, each as its recipient and its
// text part decoded.
func (s mailServer) mails(t *testing.T) []struct{ to, subject, text, html string } {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(s.dir, "*.eml"))
	var out []struct{ to, subject, text, html string }
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mail.ReadMessage(strings.NewReader(string(raw)))
		if err != nil {
			t.Fatal(err)
		}
		parts := map[string]string{}
		readParts(t, m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body, parts)
		subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		out = append(out, struct{ to, subject, text, html string }{m.Header.Get("To"), subject, parts["text/plain"], parts["text/html"]})
	}
	return out
}

// readParts decodes a MIME body's leaves by their media type.
func readParts(t *testing.T, contentType, encoding string, body io.Reader, into map[string]string) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		t.Fatalf("Content-Type %q: %v", contentType, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextRawPart()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			readParts(t, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, into)
		}
	}
	if strings.EqualFold(encoding, "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	into[mt] = string(b)
}

// twilioAPI is a local server that speaks the requests and answers of
// Twilio's Programmable Messaging API as documented: POST
// /2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP basic auth
// and a form body (To, From, Body), answered 201 with the Message
// resource.
type twilioAPI struct {
	*httptest.Server
	sid, token string
	mu         sync.Mutex
	texts      []url.Values
}

func newTwilioAPI(t *testing.T) *twilioAPI {
	a := &twilioAPI{sid: "AC" + strings.Repeat("0123456789abcdef", 2), token: "e2e-auth-token"}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodPost || r.URL.Path != "/2010-04-01/Accounts/"+a.sid+"/Messages.json" {
			w.WriteHeader(404)
			_ = json.NewEncoder(w).Encode(map[string]any{"code": 20404, "message": "The requested resource " + r.URL.Path + " was not found", "status": 404})
			return
		}
		if u, p, ok := r.BasicAuth(); !ok || u != a.sid || p != a.token {
			w.WriteHeader(401)
			_ = json.NewEncoder(w).Encode(map[string]any{"code": 20003, "message": "Authenticate", "status": 401})
			return
		}
		if err := r.ParseForm(); err != nil || r.PostForm.Get("To") == "" || r.PostForm.Get("Body") == "" {
			w.WriteHeader(400)
			_ = json.NewEncoder(w).Encode(map[string]any{"code": 21602, "message": "Message body is required.", "status": 400})
			return
		}
		a.mu.Lock()
		a.texts = append(a.texts, r.PostForm)
		n := len(a.texts)
		a.mu.Unlock()
		msid := fmt.Sprintf("SM%032d", n)
		w.WriteHeader(201)
		_ = json.NewEncoder(w).Encode(map[string]any{"account_sid": a.sid, "api_version": "2010-04-01", "body": r.PostForm.Get("Body"),
			"direction": "outbound-api", "from": r.PostForm.Get("From"), "sid": msid, "status": "queued", "to": r.PostForm.Get("To"),
			"uri": "/2010-04-01/Accounts/" + a.sid + "/Messages/" + msid + ".json"})
	}))
	t.Cleanup(a.Close)
	return a
}

func (a *twilioAPI) received() []url.Values {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]url.Values(nil), a.texts...)
}

// TestLinkOrderEndToEnd: an order with an e-mail address and a phone
// number reaches the SMTP server and the SMS API, each message holding
// the short link and no link token; opening the link runs Link to
// completion in the sandbox and the order completes, with a webhook for
// each step. An unopened order gets its reminders, through both, on a
// moved clock, then expires, and its link says so.
func TestLinkOrderEndToEnd(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		smtpd := startMailServer(t)
		api := newTwilioAPI(t)
		rcv := newReceiver(t, always(200))
		store := storage.NewMessageStore(db)
		sender, err := notify.NewSender(notify.Config{Mode: domain.ModeSandbox,
			SMTPURL:  fmt.Sprintf("smtp://payline:%s@127.0.0.1:%d", url.PathEscape("right horse battery"), smtpd.port),
			SMTPFrom: "links@payline.example",
			Twilio:   twilio.Config{AccountSID: api.sid, AuthToken: api.token, From: "+15005550006", BaseURL: api.URL},
			Outbox:   store, OptOuts: store})
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.sender, s.orderSweep, s.caFile = sender, 100*time.Millisecond, rcv.caFile
		})
		f.createWebhook(rcv.srv.URL+"/hooks", `"link_order.sent", "link_order.opened", "link_order.completed", "link_order.expired", "link_order.canceled"`)
		tz := zoneAt(f.clock.Now(), 10, 14)
		const delivery = `, "delivery": {"email": "sam.rivera@example.com", "phone": "+15552019876"}, "sms_consent": true`

		// The order that completes.
		o := f.post("/v1/link_orders", orderBody("e2e-user", tz, delivery)).data(t)
		id, link := o["id"].(string), o["url"].(string)
		waitFor(t, "the mail and the text", func() bool { return len(smtpd.mails(t)) == 1 && len(api.received()) == 1 })
		m := smtpd.mails(t)[0]
		if m.to != "<sam.rivera@example.com>" && m.to != "sam.rivera@example.com" {
			t.Errorf("mail to %q", m.to)
		}
		if !strings.Contains(m.text, link) || !strings.Contains(m.html, link) || !strings.Contains(m.subject, "Acme Lending") {
			t.Errorf("the mail does not hold the link %s:\n%s\n%s", link, m.text, m.html)
		}
		text := api.received()[0]
		if text.Get("To") != "+15552019876" || text.Get("From") != "+15005550006" || !strings.Contains(text.Get("Body"), link) {
			t.Errorf("text %v", text)
		}
		for _, body := range []string{m.text, m.html, m.subject, text.Get("Body")} {
			if strings.Contains(body, "lt_") {
				t.Errorf("a message holds a link token: %s", body)
			}
		}
		waitFor(t, "status sent", func() bool { return f.order(id)["status"] == "sent" })
		status, loc, _ := follow(t, link)
		if status != http.StatusSeeOther {
			t.Fatalf("open: %d", status)
		}
		token := tokenOf(t, loc)
		if st, login := f.linkAPI("POST", "login", token, `{"platform_id": "`+p.ID+`", "username": "`+sandbox.UserGood+`", "password": "`+sandbox.Password+`"}`); st != 200 {
			t.Fatalf("Link's login: %d %v", st, login)
		}
		if got := f.order(id)["status"]; got != "completed" {
			t.Fatalf("status %v after Link", got)
		}
		waitFor(t, "a webhook for each step", func() bool { return len(orderEvents(t, rcv, id)) == 3 })
		if got := fmt.Sprint(sorted(orderEvents(t, rcv, id))); got != "[link_order.completed link_order.opened link_order.sent]" {
			t.Errorf("events %s", got)
		}

		// The order nobody opens: its reminders reach both servers on a
		// moved clock, then it expires and its link says so.
		o = f.post("/v1/link_orders", orderBody("e2e-silent", tz, delivery)).data(t)
		id, link = o["id"].(string), o["url"].(string)
		waitFor(t, "the second order's mail and text", func() bool { return len(smtpd.mails(t)) == 2 && len(api.received()) == 2 })
		for i := 1; i <= 2; i++ {
			f.clock.advance(24 * time.Hour)
			waitFor(t, fmt.Sprintf("reminder %d by mail and text", i), func() bool {
				return len(smtpd.mails(t)) == 2+i && len(api.received()) == 2+i
			})
		}
		for _, m := range smtpd.mails(t)[2:] {
			if !strings.HasPrefix(m.subject, "Reminder:") || !strings.Contains(m.text, link) || strings.Contains(m.text, "lt_") {
				t.Errorf("reminder mail %q:\n%s", m.subject, m.text)
			}
		}
		for _, s := range api.received()[2:] {
			if !strings.Contains(s.Get("Body"), "Reminder") || !strings.Contains(s.Get("Body"), link) {
				t.Errorf("reminder text %q", s.Get("Body"))
			}
		}
		f.clock.advance(24 * time.Hour)
		waitFor(t, "the expiry", func() bool { return f.order(id)["status"] == "expired" })
		if st, _, page := follow(t, link); st != http.StatusGone || !strings.Contains(page, "This link has expired") {
			t.Errorf("expired link: %d %s", st, page)
		}
		waitFor(t, "sent and expired webhooks", func() bool { return len(orderEvents(t, rcv, id)) == 2 })
		if got := fmt.Sprint(sorted(orderEvents(t, rcv, id))); got != "[link_order.expired link_order.sent]" {
			t.Errorf("events %s", got)
		}
		time.Sleep(300 * time.Millisecond)
		if n, t2 := len(smtpd.mails(t)), len(api.received()); n != 4 || t2 != 4 {
			t.Errorf("%d mails and %d texts, want the link and two reminders of the second order, and the first's link", n, t2)
		}
	})
}
