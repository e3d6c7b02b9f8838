package main

// `payline members`: adding, listing, changing and removing a customer's
// team from the command line.

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestMembersAdd adds members from the command line: a made-up password
// printed once, one read from stdin, and clear refusals.
func TestMembersAdd(t *testing.T) {
	eachDatabase(t, func(t *testing.T, url string) {
		ctx := context.Background()
		getenv := env("PAYLINE_MASTER_KEY", testMasterKey)
		cmd := func(stdin string, args ...string) (string, error) {
			var out, errOut bytes.Buffer
			e := environment{getenv: getenv, stdout: &out, stderr: &errOut, stdin: strings.NewReader(stdin)}
			err := e.members(ctx, append(args, "--database-url", url))
			return out.String() + errOut.String(), err
		}
		out, err := cmd("", "add", "--customer", "acme", "--email", "Ana@Example.com", "--role", "administrator")
		if err != nil || !strings.Contains(out, "added ana@example.com (administrator) to acme") || !regexp.MustCompile(`password: [0-9a-f]{30}\n`).MatchString(out) {
			t.Fatalf("members add: %v\n%s", err, out)
		}
		out, err = cmd("a long enough password\n", "add", "--customer", "acme", "--email", "vic@example.com", "--role", "viewer", "--password-stdin")
		if err != nil || strings.Contains(out, "password:") {
			t.Fatalf("members add --password-stdin: %v\n%s", err, out)
		}
		for _, c := range []struct {
			stdin string
			args  []string
			want  string
		}{
			{"", []string{"add", "--customer", "acme", "--email", "ana@example.com", "--role", "viewer"}, "already exists"},
			{"", []string{"add", "--customer", "acme", "--email", "not-an-address", "--role", "viewer"}, "e-mail address"},
			{"", []string{"add", "--customer", "acme", "--email", "x@example.com", "--role", "owner"}, "administrator, developer, reviewer or viewer"},
			{"short\n", []string{"add", "--customer", "acme", "--email", "y@example.com", "--role", "viewer", "--password-stdin"}, "at least 12 characters"},
		} {
			if out, err := cmd(c.stdin, c.args...); err == nil || !strings.Contains(err.Error()+out, c.want) {
				t.Errorf("%v: %v %s, want %q", c.args, err, out, c.want)
			}
		}
	})
}

// TestMembersManage: members list, reset-password and remove through the
// command line, against a served instance: a reset password replaces the
// old one and ends the member's tokens, a removed member can no longer
// sign in, and both are in the audit log.
func TestMembersManage(t *testing.T) {
	eachDatabase(t, func(t *testing.T, url string) {
		ctx := context.Background()
		getenv := env("PAYLINE_MASTER_KEY", testMasterKey)
		cmd := func(stdin string, args ...string) (string, error) {
			var out, errOut bytes.Buffer
			e := environment{getenv: getenv, stdout: &out, stderr: &errOut, stdin: strings.NewReader(stdin)}
			err := e.members(ctx, append(args, "--database-url", url))
			return out.String() + errOut.String(), err
		}
		if out, err := cmd("first password here\n", "add", "--customer", "acme", "--email", "ana@example.com", "--role", "administrator", "--password-stdin"); err != nil {
			t.Fatalf("members add: %v %s", err, out)
		}
		m := startMain(t, url, io.Discard)
		defer m.Close(ctx)
		signIn := func(password string) (int, string) {
			status, body := apiPost(t, m.Addr(), "", "/v1/admin/token", `{"username": "ana@example.com", "password": "`+password+`"}`)
			token, _ := at(body, "data", "token").(string)
			return status, token
		}
		status, token := signIn("first password here")
		if status != 200 || token == "" {
			t.Fatalf("sign-in: %d", status)
		}
		out, err := cmd("", "list", "--customer", "acme")
		if err != nil || !strings.Contains(out, "acme: 1 member") || !strings.Contains(out, "ana@example.com") {
			t.Fatalf("members list: %v\n%s", err, out)
		}
		if out, err := cmd("second password here\n", "reset-password", "--customer", "acme", "--email", "ana@example.com", "--password-stdin"); err != nil ||
			!strings.Contains(out, "sessions and admin tokens ended") {
			t.Fatalf("reset-password: %v %s", err, out)
		}
		status, _, _, err = apiDo(nil, "GET", "http://"+m.Addr()+"/v1/admin/members", "", "", http.Header{"Authorization": {"Bearer " + token}})
		if err != nil || status != 401 {
			t.Errorf("the token of before the reset answers %d", status)
		}
		if status, _ := signIn("first password here"); status != 401 {
			t.Errorf("the old password still signs in: %d", status)
		}
		if status, _ := signIn("second password here"); status != 200 {
			t.Errorf("the new password does not sign in: %d", status)
		}
		if out, err := cmd("", "remove", "--customer", "acme", "--email", "ana@example.com"); err != nil {
			t.Fatalf("remove: %v %s", err, out)
		}
		if status, _ := signIn("second password here"); status != 401 {
			t.Errorf("a removed member signs in: %d", status)
		}
		if out, err := cmd("", "remove", "--customer", "acme", "--email", "ana@example.com"); err == nil || !strings.Contains(err.Error(), "no member") {
			t.Errorf("removing again: %v %s", err, out)
		}
		var audit bytes.Buffer
		if err := run(ctx, []string{"audit", "list", "--customer", "acme", "--database-url", url}, &audit, io.Discard, getenv); err != nil {
			t.Fatal(err)
		}
		for _, action := range []string{"member.password_reset", "member.removed"} {
			if !strings.Contains(audit.String(), action) {
				t.Errorf("the audit log lacks %s:\n%s", action, audit.String())
			}
		}
	})
}
