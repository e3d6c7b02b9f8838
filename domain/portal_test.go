package domain_test

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage/storagetest"
)

// outboxSender keeps what it was given to send, as the sandbox outbox
// would, for the test to read.
type outboxSender struct {
	mu   sync.Mutex
	sent []domain.OutboundMessage
}

func (s *outboxSender) Send(_ context.Context, m domain.OutboundMessage) (domain.SentMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, m)
	return domain.SentMessage{ProviderID: domain.NewID()}, nil
}

func (s *outboxSender) last(t *testing.T) domain.OutboundMessage {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.sent) == 0 {
		t.Fatal("nothing was sent")
	}
	return s.sent[len(s.sent)-1]
}

var portalCode = regexp.MustCompile(`/p/([A-Za-z0-9_-]{43})`)

// codeIn is the portal link's code in a message's text.
func codeIn(t *testing.T, text string) string {
	t.Helper()
	m := portalCode.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no portal link in %q", text)
	}
	return m[1]
}

// toldSources records the accounts whose source was told of a
// revocation.
type toldSources struct {
	mu   sync.Mutex
	told []string
}

func (s *toldSources) DisconnectSource(_ context.Context, a domain.Account) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.told = append(s.told, a.ID)
	return "the source was told", nil
}

func (s *toldSources) accounts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.told...)
}

type names map[string]string

func (n names) CustomerName(_ context.Context, id string) (string, error) { return n[id], nil }

type fileLinks struct{}

func (fileLinks) Link(id string) domain.DocumentLink {
	return domain.DocumentLink{ID: id, DownloadURL: "https://payline.example/files/" + id}
}

// TestPortal: a receipt names who asked, for what and which data, holds a
// single-use portal link and keeps the address sealed; the link signs in
// once and expires, and an expired one sends a fresh link to the address
// on file; the page shows only the person's own accounts at their
// customer (another person's and another customer's accounts are neither
// shown nor revocable); consent taken back disconnects the account by
// end_user, deletes its data, records what was kept and why, stops its
// refreshes and sends consent.revoked once; on both databases.
func TestPortal(t *testing.T) {
	for _, d := range storagetest.DialectList() {
		t.Run(string(d), func(t *testing.T) {
			w := newWorld(t, d, domain.ModeSandbox)
			outbox := &outboxSender{}
			other, err := w.keys.CreateKey(w.ctx, "globex", domain.ModeSandbox)
			if err != nil {
				t.Fatal(err)
			}
			sources := &toldSources{}
			portal := domain.NewPortalService(w.tx, w.link, domain.NoRelay{}, sources, outbox,
				names{w.sc.CustomerID: "Acme", other.Key.CustomerID: "Globex"}, fileLinks{}, w.clock, "https://payline.example/")

			erin, value := w.mustLogin(sandbox.UserGood, "paystubs", "identity")
			w.runJobs(erin.ID)
			frank := w.loginAs("frank")
			// erin at another customer: the same end_user_id, another tenant.
			elsewhere := w.loginIn(other.Key.Scope(), "erin")

			// erin also uploaded a document in Link.
			doc := w.upload(domain.DocumentW2, domain.UploadFile{Name: "w2.pdf", Data: []byte("%PDF-1.4 W-2")})["w2.pdf"]

			// The receipt.
			if _, err := portal.SendReceipt(w.ctx, value, "not an address"); err == nil {
				t.Fatal("a receipt went to a malformed address")
			}
			r, err := portal.SendReceipt(w.ctx, value, "erin@example.com")
			if err != nil {
				t.Fatal(err)
			}
			_, err = portal.SendReceipt(w.ctx, value, "someone.else@example.com")
			wantCode(t, err, domain.CodeRateLimitExceeded)
			m := outbox.last(t)
			if r.To != "e***@example.com" || m.To != "erin@example.com" || m.Channel != domain.ChannelEmail {
				t.Fatalf("receipt to %q (%q)", m.To, r.To)
			}
			for _, want := range []string{"Acme Lending", "to verify your income and employment", "your paystubs", "https://payline.example/p/"} {
				if !strings.Contains(m.Text, want) || !strings.Contains(m.HTML, want) {
					t.Errorf("the receipt does not say %q:\n%s", want, m.Text)
				}
			}
			if strings.Contains(m.Text, value) {
				t.Error("the receipt holds the link token")
			}
			var sealed []byte
			if err := w.db.GetContext(w.ctx, &sealed, w.db.Rebind(`SELECT sealed_email FROM portal_addresses WHERE end_user_id = ?`), "erin"); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(sealed), "erin@") {
				t.Error("the address is stored in the clear")
			}

			// The link signs in once.
			code := codeIn(t, m.Text)
			if state, err := portal.LinkState(w.ctx, code); err != nil || state != "open" {
				t.Fatalf("state %q, %v", state, err)
			}
			sess, token, err := portal.SignIn(w.ctx, code)
			if err != nil {
				t.Fatal(err)
			}
			if sess.EndUserID != "erin" || sess.Scope() != w.sc || strings.Contains(token, code) {
				t.Fatalf("session %+v", sess)
			}
			_, _, err = portal.SignIn(w.ctx, code)
			wantCode(t, err, domain.CodePortalLinkInvalid)
			if state, _ := portal.LinkState(w.ctx, code); state != "used" {
				t.Errorf("a used link is %q", state)
			}
			if got, err := portal.Authenticate(w.ctx, token); err != nil || got.ID != sess.ID {
				t.Fatalf("Authenticate: %+v, %v", got, err)
			}
			_, err = portal.Authenticate(w.ctx, token+"x")
			wantCode(t, err, domain.CodePortalSessionInvalid)

			// The page shows erin's account at Acme and nothing else.
			v, err := portal.View(w.ctx, sess)
			if err != nil {
				t.Fatal(err)
			}
			if v.Customer != "Acme Lending" || len(v.Connections) != 1 || v.Connections[0].AccountID != erin.ID {
				t.Fatalf("view %+v", v)
			}
			c := v.Connections[0]
			if !c.Connected || c.ConsentedAt == nil || c.LastRefreshed == nil || !strings.Contains(strings.Join(c.Readable, ","), "paystubs") {
				t.Errorf("connection %+v", c)
			}
			for _, id := range []string{frank.ID, elsewhere.ID} {
				_, err := portal.Revoke(w.ctx, sess, id)
				wantCode(t, err, domain.CodeAccountNotFound)
			}
			if len(v.Uploads) != 1 || v.Uploads[0].DocumentID != doc.ID || v.Uploads[0].FileName != "w2.pdf" {
				t.Errorf("uploads %+v", v.Uploads)
			}
			if l, err := portal.DocumentLink(w.ctx, sess, doc.ID); err != nil || !strings.HasSuffix(l.DownloadURL, doc.ID) {
				t.Errorf("document link %+v, %v", l, err)
			}
			// frank's session cannot reach erin's document.
			_, fc, _ := portal.CreateLink(w.ctx, w.sc, "frank")
			frankSess, _, err := portal.SignIn(w.ctx, fc)
			if err != nil {
				t.Fatal(err)
			}
			_, err = portal.DocumentLink(w.ctx, frankSess, doc.ID)
			wantCode(t, err, domain.CodeDocumentNotFound)
			if fv, err := portal.View(w.ctx, frankSess); err != nil || len(fv.Uploads) != 0 || len(fv.Connections) != 1 || fv.Connections[0].AccountID != frank.ID {
				t.Errorf("frank's view %+v, %v", fv, err)
			}

			// An expired link offers a fresh one, sent to the address on file.
			_, late, err := portal.CreateLink(w.ctx, w.sc, "erin")
			if err != nil {
				t.Fatal(err)
			}
			w.clock.Advance(domain.PortalLinkTTL)
			_, _, err = portal.SignIn(w.ctx, late)
			wantCode(t, err, domain.CodePortalLinkExpired)
			sent, err := portal.SendFreshLink(w.ctx, late)
			if err != nil || sent.To != "e***@example.com" {
				t.Fatalf("fresh link: %+v, %v", sent, err)
			}
			_, err = portal.SendFreshLink(w.ctx, late)
			wantCode(t, err, domain.CodeRateLimitExceeded)
			fresh := codeIn(t, outbox.last(t).Text)
			// Four asking in the same instant, two minutes on: one is sent.
			w.clock.Advance(domain.PortalResendEvery)
			before := len(outbox.sent)
			var asked sync.WaitGroup
			for range 4 {
				asked.Add(1)
				go func() {
					defer asked.Done()
					_, _ = portal.SendFreshLink(w.ctx, late)
				}()
			}
			asked.Wait()
			if n := len(outbox.sent) - before; n != 1 {
				t.Errorf("four requests for a fresh link at once sent %d", n)
			}
			if outbox.last(t).To != "erin@example.com" || fresh == late {
				t.Fatalf("fresh link sent to %q", outbox.last(t).To)
			}
			if _, err := portal.Authenticate(w.ctx, token); err != nil {
				t.Fatalf("a session of %v ended after %v: %v", domain.PortalSessionTTL, domain.PortalLinkTTL, err)
			}
			sess, token, err = portal.SignIn(w.ctx, fresh)
			if err != nil {
				t.Fatal(err)
			}

			// Two browsers racing for one link: one session.
			_, raced, err := portal.CreateLink(w.ctx, w.sc, "erin")
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _, errs[i] = portal.SignIn(w.ctx, raced)
				}()
			}
			wg.Wait()
			won := 0
			for _, err := range errs {
				if err == nil {
					won++
				} else {
					wantCode(t, err, domain.CodePortalLinkInvalid)
				}
			}
			if won != 1 {
				t.Errorf("%d of 4 racing sign-ins with one link won", won)
			}

			// No address on file for frank: no fresh link.
			_, frankCode, err := portal.CreateLink(w.ctx, w.sc, "frank")
			if err != nil {
				t.Fatal(err)
			}
			_, err = portal.SendFreshLink(w.ctx, frankCode)
			wantCode(t, err, domain.CodePortalNoAddress)
			_, _, err = portal.CreateLink(w.ctx, w.sc, "nobody")
			wantCode(t, err, domain.CodeEndUserNotFound)

			// Consent taken back.
			revoked, err := portal.Revoke(w.ctx, sess, erin.ID)
			if err != nil || len(revoked) != 1 {
				t.Fatalf("Revoke: %v, %v", revoked, err)
			}
			a, err := w.accounts.Account(w.ctx, w.sc, erin.ID)
			if err != nil {
				t.Fatal(err)
			}
			if a.Connected || a.DisconnectedBy != domain.DisconnectedByEndUser || a.MonitoringStatus != domain.MonitoringUnavailable || a.Connection != "" {
				t.Errorf("account after revocation %+v", a)
			}
			if got := sources.accounts(); len(got) != 1 || got[0] != erin.ID || !strings.HasPrefix(revoked[0].SourceTold, "the source was told") {
				t.Errorf("the source was told of %v, recorded %q", got, revoked[0].SourceTold)
			}
			if !strings.HasPrefix(revoked[0].Deleted, "1 data products") && !strings.Contains(revoked[0].Deleted, "paystubs") {
				t.Errorf("deleted %q", revoked[0].Deleted)
			}
			var stubs int
			if err := w.db.GetContext(w.ctx, &stubs, w.db.Rebind(`SELECT COUNT(*) FROM paystubs WHERE account_id = ?`), erin.ID); err != nil || stubs != 0 {
				t.Errorf("%d paystubs left, %v", stubs, err)
			}
			monitored, err := w.tx.Accounts().MonitoredAccounts(w.ctx, 1000, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range monitored {
				if m.ID == erin.ID {
					t.Error("a revoked account is still refreshed")
				}
			}
			if n := w.countEvents(domain.EventConsentRevoked); n != 1 {
				t.Errorf("%d consent.revoked events", n)
			}
			p := w.lastPayload(domain.EventConsentRevoked)
			if p["account_id"] != erin.ID || p["disconnected_by"] != "end_user" || p["end_user_id"] != "erin" {
				t.Errorf("payload %v", p)
			}
			if again, err := portal.Revoke(w.ctx, sess, ""); err != nil || len(again) != 0 {
				t.Errorf("revoking again: %v, %v", again, err)
			}
			if n := w.countEvents(domain.EventConsentRevoked); n != 1 {
				t.Errorf("%d consent.revoked events after revoking again", n)
			}
			v, err = portal.View(w.ctx, sess)
			if err != nil {
				t.Fatal(err)
			}
			if len(v.Revocations) != 1 || v.Revocations[0].AccountID != erin.ID || v.Connections[0].DisconnectedBy != "end_user" {
				t.Errorf("view after revocation %+v", v)
			}
			// frank's and the other customer's accounts are untouched.
			for _, id := range []string{frank.ID} {
				if a, err := w.accounts.Account(w.ctx, w.sc, id); err != nil || !a.Connected {
					t.Errorf("frank's account %+v, %v", a, err)
				}
			}
			if a, err := w.accounts.Account(w.ctx, other.Key.Scope(), elsewhere.ID); err != nil || !a.Connected {
				t.Errorf("erin's account at Globex %+v, %v", a, err)
			}

			// Signing out ends the session; a session ends on its own too.
			if err := portal.SignOut(w.ctx, token); err != nil {
				t.Fatal(err)
			}
			_, err = portal.Authenticate(w.ctx, token)
			wantCode(t, err, domain.CodePortalSessionInvalid)
			_, frankCode, _ = portal.CreateLink(w.ctx, w.sc, "frank")
			_, frankToken, err := portal.SignIn(w.ctx, frankCode)
			if err != nil {
				t.Fatal(err)
			}
			// frank takes back everything before his jobs ran: they end in
			// error without the source being asked, and nothing is stored.
			frankSess2, err := portal.Authenticate(w.ctx, frankToken)
			if err != nil {
				t.Fatal(err)
			}
			if revoked, err := portal.Revoke(w.ctx, frankSess2, ""); err != nil || len(revoked) != 1 || revoked[0].AccountID != frank.ID {
				t.Fatalf("frank revokes everything: %v, %v", revoked, err)
			}
			frankJobs := w.runJobs(frank.ID)
			if len(frankJobs) == 0 {
				t.Fatal("frank has no jobs to run")
			}
			for _, j := range frankJobs {
				if j.Outcome != domain.OutcomeError || j.ErrorCode != domain.CodeAccountDisconnected {
					t.Errorf("frank's %s job after revocation: %s %s", j.Name, j.Outcome, j.ErrorCode)
				}
			}
			if err := w.db.GetContext(w.ctx, &stubs, w.db.Rebind(`SELECT COUNT(*) FROM paystubs WHERE account_id = ?`), frank.ID); err != nil || stubs != 0 {
				t.Errorf("%d of frank's paystubs stored after revocation, %v", stubs, err)
			}
			w.clock.Advance(domain.PortalSessionTTL)
			_, err = portal.Authenticate(w.ctx, frankToken)
			wantCode(t, err, domain.CodePortalSessionInvalid)
		})
	}
}

// loginAs logs end user in to w.payroll with the sandbox's good
// credentials.
func (w *world) loginAs(endUser string) domain.Account {
	return w.loginIn(w.sc, endUser)
}

// loginIn logs end user in, in the scope, to w.payroll.
func (w *world) loginIn(sc domain.Scope, endUser string) domain.Account {
	w.t.Helper()
	_, value, err := w.link.CreateLinkToken(w.ctx, sc, domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: endUser,
		RequiredJobs: []string{"paystubs"}}, domain.LatestVersion)
	if err != nil {
		w.t.Fatal(err)
	}
	a, err := w.link.Login(w.ctx, value, domain.LoginRequest{PlatformID: w.payroll.ID,
		Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}})
	if err != nil {
		w.t.Fatal(err)
	}
	return a
}

// TestPortalRevokesRelayed: consent taken back to an account an upstream
// holds tells that upstream through the relay (its disconnect), not the
// connector route, and records which upstream was told.
func TestPortalRevokesRelayed(t *testing.T) {
	rw := newRelayWorld(t)
	ua := rw.upstreamAccount()
	if err := rw.relay.Ingest(rw.ctx, ua.ID); err != nil {
		t.Fatal(err)
	}
	sources := &toldSources{}
	portal := domain.NewPortalService(rw.tx, rw.link, upstreamRelay{up: rw.up}, sources, &outboxSender{}, names{rw.sc.CustomerID: "Acme"},
		fileLinks{}, rw.clock, "https://payline.example")
	here, err := rw.accounts.Account(rw.ctx, rw.sc, ua.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, code, err := portal.CreateLink(rw.ctx, rw.sc, here.EndUserID)
	if err != nil {
		t.Fatal(err)
	}
	sess, _, err := portal.SignIn(rw.ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	revoked, err := portal.Revoke(rw.ctx, sess, "")
	if err != nil || len(revoked) != 1 {
		t.Fatalf("Revoke: %v, %v", revoked, err)
	}
	if len(rw.up.acts) != 1 || rw.up.acts[0] != domain.ActionDisconnect+" "+ua.ID {
		t.Errorf("upstream actions %v", rw.up.acts)
	}
	if got := sources.accounts(); len(got) != 0 {
		t.Errorf("the connector route was told too: %v", got)
	}
	if !strings.Contains(revoked[0].SourceTold, "(up)") {
		t.Errorf("recorded %q", revoked[0].SourceTold)
	}
	if a, err := rw.accounts.Account(rw.ctx, rw.sc, ua.ID); err != nil || a.Connected || a.DisconnectedBy != domain.DisconnectedByEndUser {
		t.Errorf("account %+v, %v", a, err)
	}
}
