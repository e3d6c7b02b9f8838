package rest

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// refuseAudit makes the database refuse audit entries of one action, as
// a full disk or a lost connection would, until the returned func runs.
func refuseAudit(t *testing.T, db *storage.DB, action string) (allow func()) {
	t.Helper()
	create := []string{`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log WHEN NEW.action = '` + action + `'
		BEGIN SELECT RAISE(ABORT, 'audit refused by the test'); END`}
	drop := []string{`DROP TRIGGER refuse_audit`}
	if db.Dialect == storage.Postgres {
		create = []string{
			`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$`,
			`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.action = '` + action + `') EXECUTE FUNCTION refuse_audit()`,
		}
		drop = []string{`DROP TRIGGER refuse_audit ON audit_log`, `DROP FUNCTION refuse_audit()`}
	}
	exec := func(stmts []string) {
		t.Helper()
		for _, s := range stmts {
			if _, err := db.ExecContext(context.Background(), s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	exec(create)
	return func() { exec(drop) }
}

// countRows counts a table's rows.
func countRows(t *testing.T, db *storage.DB, table string) int {
	t.Helper()
	var n int
	if err := db.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM `+table); err != nil {
		t.Fatal(err)
	}
	return n
}

// auditActions lists the actions of a scope's audit log, oldest first.
func auditActions(t *testing.T, db *storage.DB, sc domain.Scope) []string {
	t.Helper()
	log, err := storage.NewKeyStore(db).AuditLog(context.Background(), sc, 100)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(log))
	for i, e := range log {
		out[len(log)-1-i] = e.Action + " by " + e.Actor
	}
	return out
}

// TestSignInFailsWhenAuditFails: a sign-in, a refused sign-in and a
// sign-out whose audit entry cannot be written fail with 500 and change
// nothing: no session is created or ended without its entry.
func TestSignInFailsWhenAuditFails(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		signIn := func(password string) result {
			return f.post("/v1/admin/token", `{"username": "ada@acme.test", "password": "`+password+`"}`, "x-api-secret", "")
		}

		allow := refuseAudit(t, db, domain.AuditSignedIn)
		signIn(memberPassword).wantError(t, 500, typeUnknown, domain.CodeUnknown)
		dashboard := f.post("/dashboard/session", `{"email": "ada@acme.test", "password": "`+memberPassword+`"}`, "x-api-secret", "")
		if dashboard.status != 500 || dashboard.header.Get("Set-Cookie") != "" {
			t.Fatalf("dashboard sign-in without its audit entry: %d, cookie %q", dashboard.status, dashboard.header.Get("Set-Cookie"))
		}
		if n := countRows(t, db, "member_sessions"); n != 0 {
			t.Fatalf("%d sessions stored although their audit entries were refused", n)
		}
		allow()

		allow = refuseAudit(t, db, domain.AuditSignInRefused)
		signIn("not the password").wantError(t, 500, typeUnknown, domain.CodeUnknown)
		allow()

		token := f.adminToken("ada@acme.test")
		allow = refuseAudit(t, db, domain.AuditSignedOut)
		f.request("DELETE", "/dashboard/session", nil, asMember(token)...).wantError(t, 500, typeUnknown, domain.CodeUnknown)
		if res := f.get("/v1/admin/api_keys", asMember(token)...); res.status != 200 {
			t.Fatalf("the token stopped working although its sign-out failed: %d %s", res.status, res.raw)
		}
		allow()
		if res := f.request("DELETE", "/dashboard/session", nil, asMember(token)...); res.status != 204 {
			t.Fatalf("sign-out: %d %s", res.status, res.raw)
		}

		want := []string{"api_key.created by cli", "member.signed_in by member:ada@acme.test", "member.signed_out by member:ada@acme.test"}
		if got := auditActions(t, db, f.key.Scope()); !slices.Equal(got, want) {
			t.Errorf("audit log\n got %q\nwant %q", got, want)
		}
	})
}

// TestBearerSignOutRevokesToken: DELETE /dashboard/session with an admin
// token ends that token, as it ends a cookie's session.
func TestBearerSignOutRevokesToken(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		token, other := f.adminToken("ada@acme.test"), f.adminToken("ada@acme.test")
		if res := f.request("DELETE", "/dashboard/session", nil, asMember(token)...); res.status != 204 {
			t.Fatalf("sign-out: %d %s", res.status, res.raw)
		}
		f.get("/v1/admin/api_keys", asMember(token)...).wantError(t, 401, typeUnauthorized, domain.CodeInvalidAdminToken)
		// Only that token: the member's other session goes on.
		if res := f.get("/v1/admin/api_keys", asMember(other)...); res.status != 200 {
			t.Fatalf("the member's other token: %d %s", res.status, res.raw)
		}
		// Signing out twice is still signed out; a header that is not a
		// bearer token is refused rather than ignored.
		if res := f.request("DELETE", "/dashboard/session", nil, asMember(token)...); res.status != 204 {
			t.Fatalf("second sign-out: %d %s", res.status, res.raw)
		}
		f.request("DELETE", "/dashboard/session", nil, "x-api-secret", "", "Authorization", "Basic "+other).
			wantError(t, 401, typeUnauthorized, domain.CodeInvalidAdminToken)
		want := []string{"api_key.created by cli", "member.signed_in by member:ada@acme.test", "member.signed_in by member:ada@acme.test",
			"member.signed_out by member:ada@acme.test"}
		if got := auditActions(t, db, f.key.Scope()); !slices.Equal(got, want) {
			t.Errorf("audit log\n got %q\nwant %q", got, want)
		}
	})
}

// TestAdminEndsMemberSessions: an administrator ends every session and
// admin token of a member of its workspace; other roles may not, and
// another workspace's member is not found.
func TestAdminEndsMemberSessions(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		f.addMember("acme", "bob@acme.test", domain.RoleDeveloper)
		f.addMember("globex", "gus@globex.test", domain.RoleAdministrator)
		ada, gus := f.adminToken("ada@acme.test"), f.adminToken("gus@globex.test")
		bobToken, bobCookie := f.adminToken("bob@acme.test"), f.dashboardCookie("bob@acme.test")

		// Every role lists the workspace's members, and only those.
		list := f.get("/v1/admin/members", asMember(bobToken)...)
		if list.status != 200 || len(list.list(t)) != 2 {
			t.Fatalf("members: %d %s", list.status, list.raw)
		}
		ids := map[string]string{}
		for _, m := range list.list(t) {
			ids[m["email"].(string)] = m["id"].(string)
		}
		bob, adaID := ids["bob@acme.test"], ids["ada@acme.test"]

		end := func(token, member string) result {
			return f.request("DELETE", "/v1/admin/members/"+member+"/sessions", nil, asMember(token)...)
		}
		res := end(bobToken, adaID)
		res.wantError(t, 403, typeUnauthorized, domain.CodeRoleForbidden)
		for _, id := range []string{bob, domain.NewID(), "not-an-id"} {
			end(gus, id).wantError(t, 404, typeNotFound, domain.CodeMemberNotFound)
		}
		if res := f.get("/dashboard/session", "x-api-secret", "", "Cookie", bobCookie); res.status != 200 {
			t.Fatalf("bob's cookie after refused attempts: %d %s", res.status, res.raw)
		}

		res = end(ada, bob)
		if res.status != 200 {
			t.Fatalf("end bob's sessions: %d %s", res.status, res.raw)
		}
		if d := res.data(t); d["member_id"] != bob || d["email"] != "bob@acme.test" || d["sessions_ended"] != float64(2) {
			t.Errorf("ended %v, want bob's two sessions", d)
		}
		f.get("/v1/admin/api_keys", asMember(bobToken)...).wantError(t, 401, typeUnauthorized, domain.CodeInvalidAdminToken)
		f.get("/dashboard/session", "x-api-secret", "", "Cookie", bobCookie).wantError(t, 401, typeUnauthorized, domain.CodeInvalidAdminToken)
		if res := f.get("/v1/admin/api_keys", asMember(ada)...); res.status != 200 {
			t.Fatalf("ada's own token: %d %s", res.status, res.raw)
		}
		// Nothing left to end is not an error.
		if res := end(ada, bob); res.status != 200 || res.data(t)["sessions_ended"] != float64(0) {
			t.Errorf("again: %d %s", res.status, res.raw)
		}
		got := auditActions(t, db, f.key.Scope())
		if n := len(got); n < 2 || got[n-1] != "member.sessions_ended by member:ada@acme.test" || got[n-2] != got[n-1] {
			t.Errorf("audit log ends %q, want two member.sessions_ended by ada", got)
		}
		log, _ := storage.NewKeyStore(db).AuditLog(context.Background(), f.key.Scope(), 1)
		if log[0].Target != bob {
			t.Errorf("audit entry's target %s, want bob's id %s", log[0].Target, bob)
		}
	})
}

// TestSessionEndsCloseSocketsAtOnce: signing out, an administrator ending
// a member's sessions, a password reset and removing the member close the
// member's GraphQL websockets at once. The sockets' periodic credential
// check is an hour away, so only the end's own notice can close them: the
// test waits for the close rather than timing it. Signing out closes only
// the signed-out session's sockets.
func TestSessionEndsCloseSocketsAtOnce(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.wsRecheck = time.Hour })
		ctx := context.Background()
		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		admin := f.adminToken("ada@acme.test")
		// live signs email in to the dashboard and opens a socket with the
		// cookie; it returns the socket and the cookie. Nothing is sent on
		// the socket after its ack, since an operation arriving after the
		// end would close it by its own check, whatever the end's notice.
		live := func(t *testing.T, email string) (*wsClient, string) {
			t.Helper()
			cookie := f.dashboardCookie(email)
			ws := f.dialGraphQLWith(t, http.Header{"Cookie": {cookie}})
			ws.send(map[string]any{"type": "connection_init"})
			if m, err := ws.next(5 * time.Second); err != nil || m["type"] != "connection_ack" {
				t.Fatalf("connection_init with the cookie: %v %v", m, err)
			}
			return ws, cookie
		}
		closed := func(t *testing.T, ws *wsClient, after string) {
			t.Helper()
			if code := closeCode(ws); code != 4403 {
				t.Errorf("after %s the socket closed with %d, want 4403 at once", after, code)
			}
		}
		memberID := func(t *testing.T, email string) string {
			t.Helper()
			ms, err := f.members.Members(ctx, domain.Session{CustomerID: f.key.CustomerID})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(ms, func(m domain.Member) bool { return m.Email == email })
			if i < 0 {
				t.Fatalf("no member %s", email)
			}
			return ms[i].ID
		}

		t.Run("signed out", func(t *testing.T) {
			f.addMember("acme", "sam@acme.test", domain.RoleDeveloper)
			ws, cookie := live(t, "sam@acme.test")
			other, _ := live(t, "sam@acme.test")
			if res := f.request("DELETE", "/dashboard/session", nil, "x-api-secret", "", "Cookie", cookie); res.status != 204 {
				t.Fatalf("sign out: %d %s", res.status, res.raw)
			}
			closed(t, ws, "the member signed out")
			// The member's other session keeps its socket.
			other.send(map[string]any{"id": "q", "type": "subscribe", "payload": map[string]any{"query": `{ __typename }`}})
			if m, err := other.next(5 * time.Second); err != nil || m["id"] != "q" || m["type"] != "next" {
				t.Errorf("the other session's socket after the sign-out: %v %v", m, err)
			}
		})
		t.Run("sessions ended by an administrator", func(t *testing.T) {
			f.addMember("acme", "bob@acme.test", domain.RoleDeveloper)
			ws, _ := live(t, "bob@acme.test")
			res := f.request("DELETE", "/v1/admin/members/"+memberID(t, "bob@acme.test")+"/sessions", nil, asMember(admin)...)
			if res.status != 200 {
				t.Fatalf("end bob's sessions: %d %s", res.status, res.raw)
			}
			closed(t, ws, "an administrator ended the member's sessions")
		})
		t.Run("password reset", func(t *testing.T) {
			f.addMember("acme", "pat@acme.test", domain.RoleViewer)
			ws, _ := live(t, "pat@acme.test")
			if _, err := f.members.ResetPassword(ctx, "acme", "pat@acme.test", ""); err != nil {
				t.Fatal(err)
			}
			closed(t, ws, "the member's password was reset")
		})
		t.Run("removed", func(t *testing.T) {
			f.addMember("acme", "rex@acme.test", domain.RoleDeveloper)
			ws, _ := live(t, "rex@acme.test")
			if err := f.members.RemoveMember(ctx, "acme", "rex@acme.test"); err != nil {
				t.Fatal(err)
			}
			closed(t, ws, "the member was removed")
		})
	})
}
