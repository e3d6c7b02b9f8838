package rest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/notify"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestPeopleDataSealedAtRest runs the flows that store people's data
// (platform matching and a deposit switch to a bank account, the data
// products with a name, date of birth, email and phone, tax forms, a VOIE report and
// its PDF, a bill switch with a card) on both databases. Then every
// sealed column holds only values sealed by the master key, every such
// column the flows reach holds some, and no table of the database, River's
// included, holds any of the identifiers in plain text.
func TestPeopleDataSealedAtRest(t *testing.T) {
	const (
		ssn     = "123456789"
		dob     = "1990-12-10"
		account = "998877665544"
	)
	p := switchPlatform(t)
	billing := merchant(t, domain.JobBillSwitch)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		rcv := newReceiver(t, always(400))
		// Link orders go to the sandbox's outbox, as a sandbox without
		// SMTP or an SMS provider sends them.
		store := storage.NewMessageStore(db)
		sender, err := notify.NewSender(notify.Config{Mode: domain.ModeSandbox, Outbox: store, OptOuts: store})
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile, s.sender, s.orderSweep = rcv.caFile, sender, 100*time.Millisecond })
		tokenID, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "sealed", "required_jobs": ["direct_deposit_switch", "identity", "paystubs", "employment", "income", "tax_forms"],
			"allocation": {"targets": [{"type": "checking", "account_number": "` + account + `", "routing_number": "` + goodRouting + `"}]},
			"end_user": {"platform_matching": {"first_name": "Ada", "last_name": "Lovelace", "date_of_birth": "` + dob + `",
			"social_security_number": "` + ssn + `", "mobile_phone_number": "5551234567", "home_address_zip_code": "94107"}}}`)
		accountID := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).data(t)["account_id"].(string)
		f.waitJobs(tokenID, 6)
		identity := f.get("/v1/accounts/" + accountID + "/identity").data(t)
		known := []string{ssn, "123-45-6789", dob, account, testCard, strings.ReplaceAll(testCard, " ", ""),
			identity["full_name"].(string), identity["date_of_birth"].(string), identity["emails"].([]any)[0].(string),
			identity["phone_numbers"].([]any)[0].(map[string]any)["value"].(string)}
		if res := f.get("/v1/accounts/" + accountID + "/paystubs?limit=1"); res.status != 200 {
			t.Fatalf("paystubs: %d", res.status)
		}
		voie := f.get("/v1/end_users/sealed/verification_reports/voie").data(t)
		if res, pdf := fetch(t, "GET", voie["document"].(map[string]any)["download_url"].(string)); res.StatusCode != 200 || !bytes.HasPrefix(pdf, []byte("%PDF")) {
			t.Fatalf("the report's PDF: %d %.20q", res.StatusCode, pdf)
		}
		// A receipt asked for on Link's last screen: the address is kept,
		// sealed, as where a fresh link to the person's page goes.
		req, _ := http.NewRequest("POST", f.http.URL+"/link/v1/api/receipt", strings.NewReader(`{"email": "ada.receipt@example.com"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
			t.Fatalf("receipt: %v %v", res, err)
		} else {
			res.Body.Close()
		}
		known = append(known, "ada.receipt@example.com")
		billID, billToken := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "sealed", "required_jobs": ["bill_switch"],
			"allocation": {"targets": [{"type": "checking", "account_number": "` + account + `", "routing_number": "` + goodRouting + `"}]}}`)
		f.linkSession(sessionBody(billToken, billing.ID, sandbox.UserGood,
			`, "bill": {"job": "bill_switch", "card": {"number": "`+testCard+`", "name": "Travel card", "exp_month": 12, "exp_year": 2031}}`)).data(t)
		f.waitJobs(billID, 1)

		// A Link order by e-mail and text: its addresses, code and token,
		// the outbox's messages, and the key phone numbers are hashed under.
		created := f.post("/v1/link_orders", orderBody("sealed", "America/New_York", bothChannels)).data(t)
		order := created["id"].(string)
		waitFor(t, "the order sent", func() bool { return f.order(order)["status"] == "sent" })
		if status, _, _ := follow(t, created["url"].(string)); status != http.StatusSeeOther {
			t.Fatalf("opening the order's link: %d", status)
		}
		known = append(known, "jane.doe@example.com", "5552011234")

		// A dispute of the account's employment, in the person's own words
		// (with their name): the note is kept sealed.
		if res := f.post("/v1/end_users/sealed/disputes", `{"item": {"type": "employment", "id": "`+accountID+`"},
			"note": "I, `+identity["full_name"].(string)+`, started in March, not April."}`); res.status != 201 {
			t.Fatalf("a dispute: %d %s", res.status, res.body)
		}

		// A webhook whose endpoint answers with the person's name: the
		// delivery log keeps the start of that answer, sealed.
		rcv.setReply(func(int) string { return "no such customer: " + identity["full_name"].(string) })
		hook := f.createWebhook(rcv.srv.URL, `"account.added"`)
		if d := f.post("/v1/sandbox/webhooks/"+hook+"/test", "").data(t); d["outcome"] != "failed" {
			t.Fatalf("the refused test delivery: %v", d)
		}

		stale, err := db.StaleSealed(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(stale) > 0 {
			t.Errorf("values not sealed by the master key: %v", stale)
		}
		for _, c := range storage.SealedColumns() {
			table, column, _ := strings.Cut(c, ".")
			var n int
			if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM `+table+` WHERE `+column+` IS NOT NULL`); err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				t.Errorf("the flows stored nothing in %s: the test does not cover it", c)
			}
		}
		for _, hit := range searchDatabase(t, db, known) {
			t.Errorf("in plain text at rest: %s", hit)
		}
	})
}

// searchDatabase reads every column of every row of every table and
// returns where any of the needles appear.
func searchDatabase(t *testing.T, db *storage.DB, needles []string) []string {
	t.Helper()
	ctx := context.Background()
	var tables []string
	query := `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	if db.Dialect == storage.SQLite {
		query = `SELECT name FROM sqlite_master WHERE type = 'table'`
	}
	if err := db.SelectContext(ctx, &tables, query); err != nil {
		t.Fatal(err)
	}
	if len(tables) < 20 {
		t.Fatalf("only %d tables found: %v", len(tables), tables)
	}
	var hits []string
	for _, table := range tables {
		rows, err := db.QueryxContext(ctx, `SELECT * FROM `+table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			row := map[string]any{}
			if err := rows.MapScan(row); err != nil {
				t.Fatal(err)
			}
			for col, v := range row {
				var text string
				switch v := v.(type) {
				case []byte:
					text = string(v)
				default:
					text = fmt.Sprint(v)
				}
				for _, n := range needles {
					if strings.Contains(text, n) {
						hits = append(hits, fmt.Sprintf("%q in %s.%s", n, table, col))
					}
				}
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return hits
}
