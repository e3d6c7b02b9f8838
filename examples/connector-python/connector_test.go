// Package connectorpython_test proves the example Python connector beside
// it speaks connector protocol v1: it starts connector.py as a subprocess
// and drives it with Payline's own client (payline/connectors/protocol)
// through every login outcome, job outcome, product and refusal, and
// checks every request and answer against docs/connector-protocol.yaml.
package connectorpython_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	connectorpython "payline/examples/connector-python"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"payline/connectors/protocol"
	"payline/connectors/protocol/conformance"
	"payline/domain"
	"payline/internal/testwait"
)

// TestPythonUnitTests runs the connector's own unit tests
// (test_connector.py: signing, the synthetic data's sums, matching,
// --any-platform).
func TestPythonUnitTests(t *testing.T) {
	py := python3(t)
	cmd := exec.Command(py, "-m", "unittest", "-v", "test_connector")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// TestPythonConnector drives connector.py with Payline's protocol client
// through capabilities, every login outcome, matching, every job outcome
// and idempotent retries, every product of both platforms (paged), the
// refusals, and a deadline; then checks every exchange against the
// protocol's OpenAPI document.
func TestPythonConnector(t *testing.T) {
	base, logs := connectorpython.Start(t, connectorpython.Example, secret, "--pending-seconds", strconv.Itoa(pendingSeconds))
	rec := &recorder{}
	client, err := protocol.New(protocol.Config{URL: base, Secret: secret, Timeout: 10 * time.Second, HTTP: &http.Client{Transport: rec}})
	if err != nil {
		t.Fatal(err)
	}
	raw := &http.Client{Transport: rec}
	ctx := context.Background()

	acme := domain.Platform{ID: acmeID, Name: "Acme Paydesk", Type: domain.PlatformPayroll}
	tickwork := domain.Platform{ID: tickworkID, Name: "Tickwork Timeclock", Type: domain.PlatformTimeAndAttendance}

	t.Run("capabilities", func(t *testing.T) {
		caps, err := client.Capabilities(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if caps.ProtocolVersion != "1" || caps.Name == "" || len(caps.Platforms) != 2 {
			t.Fatalf("capabilities: %+v", caps)
		}
		want := map[string]protocol.PlatformCapability{
			acmeID: {ID: acmeID, Name: "Acme Paydesk", Type: "payroll",
				Jobs:     []string{"identity", "employment", "income", "paystubs", "direct_deposit_allocations", "direct_deposit_switch"},
				Products: []string{"identity", "employment", "income", "paystubs", "direct_deposit_allocations"}},
			tickworkID: {ID: tickworkID, Name: "Tickwork Timeclock", Type: "time_and_attendance",
				Jobs: []string{"identity", "employment", "shifts"}, Products: []string{"identity", "employment", "shifts"}},
		}
		for _, p := range caps.Platforms {
			w, ok := want[p.ID]
			if !ok || p.Name != w.Name || p.Type != w.Type || !slices.Equal(p.Jobs, w.Jobs) || !slices.Equal(p.Products, w.Products) {
				t.Errorf("platform %+v, want %+v", p, w)
			}
			delete(want, p.ID)
		}
		if len(want) > 0 {
			t.Errorf("platforms missing: %v", want)
		}
	})

	// connections are what login answered, by platform and user.
	connections := map[string]string{}
	t.Run("login", func(t *testing.T) {
		for _, p := range []domain.Platform{acme, tickwork} {
			for _, user := range []string{"user_good", "user_error", "user_pending"} {
				conn, err := client.Login(ctx, p, domain.Credentials{Username: user, Password: password})
				if err != nil || conn == "" {
					t.Fatalf("%s %s: %q, %v", p.Name, user, conn, err)
				}
				connections[p.ID+"/"+user] = conn
			}
			_, err := client.Login(ctx, p, domain.Credentials{Username: "user_mfa", Password: password})
			var mfa *domain.MFARequiredError
			if !errors.As(err, &mfa) || !strings.Contains(mfa.Prompt, mfaCode) {
				t.Errorf("%s user_mfa without a code: %v, want *domain.MFARequiredError naming the test code", p.Name, err)
			}
			conn, err := client.Login(ctx, p, domain.Credentials{Username: "user_mfa", Password: password, MFACode: mfaCode})
			if err != nil || conn != connections[p.ID+"/user_good"] {
				t.Errorf("%s user_mfa with the code: %q, %v, want user_good's connection", p.Name, conn, err)
			}
			for _, c := range []struct {
				cr   domain.Credentials
				code string
			}{
				{domain.Credentials{Username: "user_good", Password: "wrong"}, domain.CodeInvalidCredentials},
				{domain.Credentials{Username: "nobody", Password: password}, domain.CodeInvalidCredentials},
				{domain.Credentials{Username: "user_locked", Password: password}, domain.CodeAccountLocked},
				{domain.Credentials{Username: "user_locked", Password: "wrong"}, domain.CodeInvalidCredentials},
				{domain.Credentials{Username: "user_mfa", Password: password, MFACode: "000000"}, domain.CodeInvalidMFACode},
				{domain.Credentials{Username: "user_unavailable", Password: password}, domain.CodePlatformUnavailable},
			} {
				conn, err := client.Login(ctx, p, c.cr)
				var e *domain.Error
				if !errors.As(err, &e) || e.Code != c.code || conn != "" {
					t.Errorf("%s %s/%s/%s: %q, %v, want *domain.Error %s", p.Name, c.cr.Username, c.cr.Password, c.cr.MFACode, conn, err, c.code)
				}
			}
		}
		// A platform the connector does not serve is refused plainly.
		_, err := client.Login(ctx, domain.Platform{ID: "not-a-platform", Name: "Elsewhere", Type: domain.PlatformPayroll},
			domain.Credentials{Username: "user_good", Password: password})
		if err == nil || !strings.Contains(err.Error(), "INVALID_FIELDS") {
			t.Errorf("an unknown platform: %v", err)
		}
	})
	if t.Failed() {
		t.FailNow()
	}

	account := func(p domain.Platform, user, id string) domain.Account {
		return domain.Account{ID: id, CustomerID: "0195f0a0-0000-7000-8000-00000000c001", EndUserID: "end-user-ada",
			PlatformID: p.ID, EmployerName: "Sycamore Publishing Inc", Connection: connections[p.ID+"/"+user], CreatedAt: now.AddDate(0, 0, -3)}
	}
	job := func(name domain.JobType) domain.Job {
		return domain.Job{ID: domain.NewID(), Name: name, CreatedAt: now.Add(-time.Minute)}
	}

	t.Run("match", func(t *testing.T) {
		foreign := domain.Platform{ID: "0195f0a0-0000-7000-8000-00000000f001", Name: "Not Served Payroll", Type: domain.PlatformPayroll}
		candidates := []domain.Platform{acme, foreign, tickwork}
		matchedSomeone := false
		for _, m := range []domain.PlatformMatching{
			{SocialSecurityLastFour: "4321", DateOfBirth: "1990-01-02", LastName: "Lovelace"},
			{SocialSecurityNumber: "123456789", DateOfBirth: "1985-07-14", FirstName: "Grace"},
			{SocialSecurityLastFour: "1111", DateOfBirth: "1970-03-30"},
		} {
			first := client.Match(ctx, m, candidates)
			again := client.Match(ctx, m, candidates)
			if len(first) == 0 || len(first) > 2 || fmt.Sprint(first) != fmt.Sprint(again) {
				t.Errorf("match %+v: %v then %v, want the same one or two platforms", m, first, again)
			}
			for _, p := range first {
				if p.ID == foreign.ID {
					t.Errorf("match %+v: matched %s, which the connector does not serve", m, p.Name)
				}
			}
			matchedSomeone = matchedSomeone || len(first) > 0
		}
		for _, m := range []domain.PlatformMatching{
			{SocialSecurityLastFour: "0000", DateOfBirth: "1990-01-02"},
			{SocialSecurityNumber: "123450000", DateOfBirth: "1990-01-02"},
		} {
			if got := client.Match(ctx, m, candidates); len(got) != 0 {
				t.Errorf("match %+v: %v, want none for SSN last four 0000", m, got)
			}
		}
		if got := client.Match(ctx, domain.PlatformMatching{SocialSecurityLastFour: "4321"}, []domain.Platform{foreign}); len(got) != 0 {
			t.Errorf("match among platforms not served: %v", got)
		}
		if !matchedSomeone {
			t.Error("nobody matched")
		}
	})

	t.Run("run", func(t *testing.T) {
		id := "0195f0a0-0000-7000-8000-0000000000a1"
		for _, c := range []struct {
			p       domain.Platform
			user    string
			job     domain.JobType
			started time.Time
			want    domain.JobResult
		}{
			{acme, "user_good", domain.JobPaystubs, now.Add(-time.Minute), domain.JobResult{Outcome: domain.OutcomeSuccess}},
			{acme, "user_good", domain.JobDirectDepositSwitch, now.Add(-time.Minute), domain.JobResult{Outcome: domain.OutcomeSuccess}},
			{tickwork, "user_good", domain.JobShifts, now.Add(-time.Minute), domain.JobResult{Outcome: domain.OutcomeSuccess}},
			{acme, "user_error", domain.JobIncome, now.Add(-time.Minute),
				domain.JobResult{Outcome: domain.OutcomeError, ErrorType: domain.ErrorTypePlatform, ErrorCode: "EXAMPLE_PLATFORM_JOB_ERROR"}},
			{tickwork, "user_error", domain.JobShifts, now.Add(-time.Minute),
				domain.JobResult{Outcome: domain.OutcomeError, ErrorType: domain.ErrorTypePlatform, ErrorCode: "EXAMPLE_PLATFORM_JOB_ERROR"}},
			{acme, "user_pending", domain.JobPaystubs, now, domain.JobResult{Outcome: domain.OutcomePending, RetryAfter: 30 * time.Second}},
			{acme, "user_pending", domain.JobPaystubs, now.Add(-(pendingSeconds - 5) * time.Second),
				domain.JobResult{Outcome: domain.OutcomePending, RetryAfter: 5 * time.Second}},
			{acme, "user_pending", domain.JobPaystubs, now.Add(-time.Hour),
				domain.JobResult{Outcome: domain.OutcomeSuccess, At: now.Add(-time.Hour).Add(pendingSeconds * time.Second)}},
			// A job the platform does not run.
			{tickwork, "user_good", domain.JobPaystubs, now.Add(-time.Minute),
				domain.JobResult{Outcome: domain.OutcomeError, ErrorType: domain.ErrorTypePlatform, ErrorCode: "UNSUPPORTED_JOBS"}},
		} {
			got, err := client.Run(ctx, job(c.job), account(c.p, c.user, id), c.started, now)
			if err != nil || got != c.want {
				t.Errorf("%s %s %s started %s: %+v, %v, want %+v", c.p.Name, c.user, c.job, now.Sub(c.started), got, err, c.want)
			}
		}
		got, err := client.Run(ctx, job(domain.JobPaystubs), domain.Account{ID: id, PlatformID: acmeID, Connection: "not a connection"}, now, now)
		if err != nil || got.Outcome != domain.OutcomeError || got.ErrorCode != "UNKNOWN_CONNECTION" {
			t.Errorf("an unknown connection: %+v, %v", got, err)
		}
	})

	t.Run("idempotent runs", func(t *testing.T) {
		// The same idempotency key gets the first answer even when the
		// attempt it names would now answer otherwise; a new key does not.
		body := func(key string, at time.Time) []byte {
			b, _ := json.Marshal(protocol.RunRequest{IdempotencyKey: key,
				Job:       protocol.Job{ID: "job-1", Name: "paystubs", CreatedAt: now, Params: domain.JobParams{}},
				Account:   protocol.Account{ID: "acct-1", CustomerID: "c", EndUserID: "e", PlatformID: acmeID, EmployerName: "E", Connection: connections[acmeID+"/user_pending"], CreatedAt: now},
				StartedAt: now, Now: at})
			return b
		}
		post := func(b []byte) (int, protocol.RunResponse, string) {
			res, err := raw.Do(signedRequest(t, http.MethodPost, base, protocol.PathRun, b, secret))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			text, _ := io.ReadAll(res.Body)
			var out protocol.RunResponse
			_ = json.Unmarshal(text, &out)
			return res.StatusCode, out, string(text)
		}
		key := "0195f0a0-0000-7000-8000-00000000d001"
		s1, first, text1 := post(body(key, now))
		s2, repeated, text2 := post(body(key, now.Add(time.Hour)))
		s3, fresh, _ := post(body("0195f0a0-0000-7000-8000-00000000d002", now.Add(time.Hour)))
		if s1 != 200 || first.Outcome != "pending" || s2 != 200 || text2 != text1 || repeated.Outcome != "pending" {
			t.Errorf("a repeated key: %d %s then %d %s, want the first answer again", s1, text1, s2, text2)
		}
		if s3 != 200 || fresh.Outcome != "success" {
			t.Errorf("a new key an hour later: %d %+v, want success", s3, fresh)
		}
	})

	// paystubAccount finds an Acme account id whose pay is weekly or
	// bi-weekly (the schedule is drawn from the account id).
	paystubAccount := func(t *testing.T, frequency string) domain.Account {
		for i := range 40 {
			a := account(acme, "user_good", fmt.Sprintf("0195f0a0-0000-7000-8000-%012d", 100+i))
			f, err := client.Fetch(ctx, domain.FetchRequest{Account: a, Product: domain.ProductIncome, Since: now.Add(-domain.PaystubHistory), Now: now})
			if err != nil {
				t.Fatal(err)
			}
			if f.Income.PayFrequency == frequency {
				return a
			}
		}
		t.Fatalf("no account of 40 is paid %s", frequency)
		return domain.Account{}
	}

	t.Run("acme products", func(t *testing.T) {
		for _, frequency := range []string{"weekly", "bi-weekly"} {
			a := paystubAccount(t, frequency)
			since := now.Add(-domain.PaystubHistory)
			fetch := func(product string, since time.Time, switches ...domain.Job) domain.Fetched {
				t.Helper()
				f, err := client.Fetch(ctx, domain.FetchRequest{Account: a, Product: product, Switches: switches, Since: since, Now: now})
				if err != nil {
					t.Fatalf("%s %s: %v", frequency, product, err)
				}
				return f
			}
			id := fetch(domain.ProductIdentity, since).Identity
			if id == nil || id.FullName == "" || !regexp.MustCompile(`^\d{4}$`).MatchString(id.LastFourSSN) || id.LastFourSSN == "0000" ||
				len(id.Emails) == 0 || id.Address.PostalCode == "" || len(id.PhoneNumbers) == 0 {
				t.Errorf("identity: %+v", id)
			}
			if _, err := time.Parse(time.DateOnly, id.DateOfBirth.String()); err != nil {
				t.Errorf("identity's date of birth: %v", err)
			}
			emp := fetch(domain.ProductEmployment, since).Employment
			if emp == nil || emp.Status != "employed" || emp.EmployerName != a.EmployerName || emp.Title == "" || emp.TerminationDate != nil {
				t.Errorf("employment: %+v", emp)
			} else if start, err := time.Parse(time.DateOnly, emp.StartDate.String()); err != nil || !start.Before(since) {
				t.Errorf("employment start %s: the job must predate two years of paystubs", emp.StartDate)
			}
			inc := fetch(domain.ProductIncome, since).Income
			if inc == nil || inc.CompensationAmount.Amount <= 0 || inc.Currency != "USD" || inc.PayFrequency != frequency ||
				(inc.CompensationUnit != "hourly" && inc.CompensationUnit != "annually") {
				t.Errorf("income: %+v", inc)
			}

			before := countFetches(rec, domain.ProductPaystubs)
			stubs := fetch(domain.ProductPaystubs, since).Paystubs
			pages := countFetches(rec, domain.ProductPaystubs) - before
			wantPages := (len(stubs) + 99) / 100
			if pages != wantPages {
				t.Errorf("%s: %d paystubs in %d pages, want %d pages of 100", frequency, len(stubs), pages, wantPages)
			}
			switch frequency {
			case "weekly":
				if len(stubs) <= 100 || pages < 2 {
					t.Errorf("weekly: %d paystubs in %d pages, want over 100 over two years, paged", len(stubs), pages)
				}
			case "bi-weekly":
				if len(stubs) < 50 || len(stubs) > 54 {
					t.Errorf("bi-weekly: %d paystubs over two years", len(stubs))
				}
			}
			checkPaystubs(t, frequency, a, stubs, since, inc)

			// From the first of January two years back, every year is
			// whole: its last YTD is the sum of its stubs, to the cent;
			// and the window does not change any stub.
			jan := time.Date(now.Year()-2, 1, 1, 0, 0, 0, 0, time.UTC)
			whole := fetch(domain.ProductPaystubs, jan).Paystubs
			checkPaystubs(t, frequency, a, whole, jan, inc)
			sums := map[int][2]int64{}
			last := map[int]domain.Paystub{}
			for _, s := range whole {
				y := s.PayDateTime().Year()
				sums[y] = [2]int64{sums[y][0] + s.GrossPayAmount.Amount, sums[y][1] + s.NetPayAmount.Amount}
				last[y] = s
			}
			for y, sum := range sums {
				if last[y].GrossPayYTD.Amount != sum[0] || last[y].NetPayYTD.Amount != sum[1] {
					t.Errorf("%s %d: YTD gross %d net %d, but the year's stubs add up to %d and %d", frequency, y,
						last[y].GrossPayYTD.Amount, last[y].NetPayYTD.Amount, sum[0], sum[1])
				}
			}
			if len(sums) != 3 {
				t.Errorf("%s: paystubs in %d calendar years since %s, want 3", frequency, len(sums), jan.Format(time.DateOnly))
			}
			byID := map[string]domain.Paystub{}
			for _, s := range whole {
				byID[s.ID] = s
			}
			for _, s := range stubs {
				if w, ok := byID[s.ID]; !ok || asJSON(w) != asJSON(s) {
					t.Errorf("%s stub %s differs between windows", frequency, s.PayDate)
					break
				}
			}
			if again := fetch(domain.ProductPaystubs, since).Paystubs; asJSON(again) != asJSON(stubs) {
				t.Errorf("%s: paystubs differ between two fetches", frequency)
			}

			allocs := fetch(domain.ProductAllocations, since).Allocations
			if len(allocs) != 1 || allocs[0].AllocationType != "remainder" || allocs[0].Priority != 1 || len(allocs[0].RoutingNumber) != 9 {
				t.Errorf("allocations before any switch: %+v", allocs)
			}
			// A partial switch of $150.25 to savings, then a percentage one.
			amount := domain.Job{ID: domain.NewID(), Name: domain.JobDirectDepositSwitch, CreatedAt: now.Add(-2 * time.Hour),
				Params: domain.JobParams{Action: "partial_switch", Allocation: &domain.JobParamsAllocation{
					Split:  domain.Split{Type: "amount", Amount: domain.Money{Amount: 15025, Currency: "USD"}},
					Target: domain.JobParamsTarget{AccountName: "Rainy Day", AccountType: "savings", LastFour: "6789"}}},
				Target: &domain.SwitchTarget{Name: "Rainy Day", Type: "savings", LastFour: "6789", RoutingNumber: "011000015"}}
			percent := domain.Job{ID: domain.NewID(), Name: domain.JobDirectDepositSwitch, CreatedAt: now.Add(-time.Hour),
				Params: domain.JobParams{Action: "partial_switch", Allocation: &domain.JobParamsAllocation{
					Split:  domain.Split{Type: "percentage", Percentage: 20},
					Target: domain.JobParamsTarget{AccountType: "checking", LastFour: "4321"}}},
				Target: &domain.SwitchTarget{Type: "checking", LastFour: "4321", RoutingNumber: "021000021"}}
			allocs = fetch(domain.ProductAllocations, since, amount, percent).Allocations
			if len(allocs) != 3 || allocs[0].Percentage == nil || *allocs[0].Percentage != 20 || allocs[0].MaskedAccountNumber != "XXXXXX4321" ||
				allocs[1].Amount == nil || allocs[1].Amount.Amount != 15025 || allocs[1].AccountName != "Rainy Day" ||
				allocs[2].AllocationType != "remainder" || allocs[0].Priority != 1 || allocs[2].Priority != 3 {
				b, _ := json.Marshal(allocs)
				t.Errorf("allocations after two partial switches: %s", b)
			}
			full := domain.Job{ID: domain.NewID(), Name: domain.JobDirectDepositSwitch, CreatedAt: now,
				Params: domain.JobParams{Action: "full_switch"}, Target: &domain.SwitchTarget{Type: "checking", LastFour: "5555", RoutingNumber: "021000021"}}
			allocs = fetch(domain.ProductAllocations, since, amount, full).Allocations
			if len(allocs) != 1 || allocs[0].MaskedAccountNumber != "XXXXXX5555" || allocs[0].AllocationType != "remainder" {
				t.Errorf("allocations after a full switch: %+v", allocs)
			}
		}
		_, err := client.Fetch(ctx, domain.FetchRequest{Account: account(acme, "user_good", "0195f0a0-0000-7000-8000-0000000000a1"),
			Product: domain.ProductShifts, Since: now.Add(-domain.PaystubHistory), Now: now})
		if err == nil || !strings.Contains(err.Error(), "INVALID_FIELDS") {
			t.Errorf("shifts from a payroll platform: %v, want a refusal", err)
		}
	})

	t.Run("tickwork products", func(t *testing.T) {
		a := account(tickwork, "user_good", "0195f0a0-0000-7000-8000-0000000000b1")
		fetch := func(product string) (domain.Fetched, error) {
			return client.Fetch(ctx, domain.FetchRequest{Account: a, Product: product, Since: now.Add(-domain.PaystubHistory), Now: now})
		}
		f, err := fetch(domain.ProductIdentity)
		if err != nil || f.Identity == nil {
			t.Fatalf("identity: %v", err)
		}
		// The same end user is the same person on both platforms.
		other, err := client.Fetch(ctx, domain.FetchRequest{Account: account(acme, "user_good", "0195f0a0-0000-7000-8000-0000000000a1"),
			Product: domain.ProductIdentity, Since: now, Now: now})
		if err != nil || asJSON(other.Identity) != asJSON(f.Identity) {
			t.Errorf("one end user's identity differs between platforms: %+v / %+v (%v)", f.Identity, other.Identity, err)
		}
		if f, err := fetch(domain.ProductEmployment); err != nil || f.Employment == nil || f.Employment.EmployerName != a.EmployerName {
			t.Errorf("employment: %+v, %v", f.Employment, err)
		}
		before := countFetches(rec, domain.ProductShifts)
		f, err = fetch(domain.ProductShifts)
		pages := countFetches(rec, domain.ProductShifts) - before
		if err != nil || len(f.Shifts) <= 100 || pages != (len(f.Shifts)+99)/100 {
			t.Fatalf("shifts: %d in %d pages, %v; want over 100, paged", len(f.Shifts), pages, err)
		}
		seen := map[string]bool{}
		prev := ""
		for _, s := range f.Shifts {
			if s.ID == "" || seen[s.ID] || s.StartDate.String() <= prev || s.Type != "shift" || s.Currency != "USD" || len(s.Timestamps) != 1 || len(s.Earnings) != 1 {
				t.Fatalf("shift %+v", s)
			}
			seen[s.ID], prev = true, s.StartDate.String()
			from, err1 := time.Parse(time.RFC3339, s.Timestamps[0].From)
			to, err2 := time.Parse(time.RFC3339, s.Timestamps[0].To)
			if err1 != nil || err2 != nil || !to.After(from) || to.After(now) || from.Format(time.DateOnly) != s.StartDate.String() {
				t.Fatalf("shift %s: timestamps %+v", s.StartDate, s.Timestamps)
			}
			e := s.Earnings[0]
			minutes := int64(to.Sub(from) / time.Minute)
			if e.Rate == nil || e.Hours == nil || e.Amount.Amount != (minutes*e.Rate.Amount+30)/60 {
				t.Fatalf("shift %s: %d minutes paid %d at %v", s.StartDate, minutes, e.Amount.Amount, e.Rate)
			}
		}
		if _, err := fetch(domain.ProductIncome); err == nil || !strings.Contains(err.Error(), "INVALID_FIELDS") {
			t.Errorf("income from a time and attendance platform: %v, want a refusal", err)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		wrong, err := protocol.New(protocol.Config{URL: base, Secret: "not the connector's secret", HTTP: &http.Client{Transport: rec}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := wrong.Capabilities(ctx); err == nil || !strings.Contains(err.Error(), "PAYLINE_CONNECTOR_SECRET") {
			t.Errorf("a wrong secret: %v, want an error naming PAYLINE_CONNECTOR_SECRET", err)
		}
		if _, err := wrong.Login(ctx, acme, domain.Credentials{Username: "user_good", Password: password}); err == nil ||
			!strings.Contains(err.Error(), "PAYLINE_CONNECTOR_SECRET") {
			t.Errorf("a login with a wrong secret: %v", err)
		}

		login := []byte(`{"platform": {"id": "` + acmeID + `", "name": "Acme Paydesk", "type": "payroll"}, "credentials": {"username": "user_good", "password": "pass_good"}}`)
		stale := func(d time.Duration) *http.Request {
			req := signedRequest(t, http.MethodPost, base, protocol.PathLogin, login, secret)
			ts := time.Now().Add(d).Unix()
			req.Header.Set(protocol.HeaderTimestamp, strconv.FormatInt(ts, 10))
			req.Header.Set(protocol.HeaderSignature, protocol.Sign(secret, "POST", protocol.PathLogin, ts, login))
			return req
		}
		unsigned := signedRequest(t, http.MethodPost, base, protocol.PathLogin, login, secret)
		unsigned.Header.Del(protocol.HeaderSignature)
		unsigned.Header.Set(invalidOnPurpose, "no signature")
		tampered := signedRequest(t, http.MethodPost, base, protocol.PathLogin, login, secret)
		tampered.Body = io.NopCloser(strings.NewReader(strings.Replace(string(login), "user_good", "user_mfa_", 1)))
		tampered.Header.Set(invalidOnPurpose, "a body other than the signed one")
		malformed := signedRequest(t, http.MethodPost, base, protocol.PathLogin, []byte(`{"platform": `), secret)
		malformed.Header.Set(invalidOnPurpose, "not JSON")
		noKey := signedRequest(t, http.MethodPost, base, protocol.PathRun, []byte(`{"job": {}, "account": {}, "started_at": "2026-11-25T12:00:00Z", "now": "2026-11-25T12:00:00Z"}`), secret)
		noKey.Header.Set(invalidOnPurpose, "no idempotency key")
		fetchBody, _ := json.Marshal(protocol.FetchRequest{Product: "paystubs", Account: protocol.Account{ID: "a", CustomerID: "c", EndUserID: "e",
			PlatformID: acmeID, EmployerName: "E", Connection: connections[acmeID+"/user_good"], CreatedAt: now}, Since: now.AddDate(-2, 0, 0), Now: now, Cursor: "bogus"})
		badCursor := signedRequest(t, http.MethodPost, base, protocol.PathFetch, fetchBody, secret)
		unknownOp := signedRequest(t, http.MethodPost, base, "/connector/v1/bills/cancel", []byte(`{}`), secret)
		unknownOp.Header.Set(invalidOnPurpose, "no such operation")
		for _, c := range []struct {
			name   string
			req    *http.Request
			status int
			code   string
		}{
			{"a stale timestamp", stale(-6 * time.Minute), 401, "INVALID_SIGNATURE"},
			{"a future timestamp", stale(6 * time.Minute), 401, "INVALID_SIGNATURE"},
			{"no signature", unsigned, 401, "INVALID_SIGNATURE"},
			{"a tampered body", tampered, 401, "INVALID_SIGNATURE"},
			{"malformed JSON", malformed, 400, "INVALID_JSON"},
			{"no idempotency key", noKey, 400, "MISSING_FIELDS"},
			{"a cursor the connector never gave", badCursor, 400, "INVALID_FIELDS"},
			{"an unknown operation", unknownOp, 404, "OPERATION_NOT_FOUND"},
		} {
			res, err := raw.Do(c.req)
			if err != nil {
				t.Fatal(err)
			}
			var eb protocol.ErrorBody
			dec := json.NewDecoder(res.Body)
			dec.DisallowUnknownFields()
			err = dec.Decode(&eb)
			res.Body.Close()
			if res.StatusCode != c.status || err != nil || eb.Error.Code != c.code || eb.Error.Type == "" || eb.Error.Message == "" {
				t.Errorf("%s: %d %+v (%v), want %d %s in the protocol's error body", c.name, res.StatusCode, eb, err, c.status, c.code)
			}
		}
	})

	t.Run("deadline", func(t *testing.T) {
		// user_slow's platform takes 30 s; the connector stops at the
		// request's deadline instead, and Payline reports it unavailable.
		impatient, err := protocol.New(protocol.Config{URL: base, Secret: secret, Timeout: 700 * time.Millisecond, HTTP: &http.Client{Transport: rec}})
		if err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		_, err = impatient.Login(ctx, acme, domain.Credentials{Username: "user_slow", Password: password})
		var e *domain.Error
		if !errors.As(err, &e) || e.Code != domain.CodeUpstreamUnavailable {
			t.Errorf("a login past its deadline: %v, want UPSTREAM_UNAVAILABLE", err)
		}
		testwait.Eventually(t, time.Until(began.Add(5*time.Second)), func() bool {
			return strings.Contains(logs.String(), "POST /connector/v1/login 504 DEADLINE_EXCEEDED")
		}, "the connector did not stop user_slow's login at its deadline")
	})

	t.Run("conformance kit", func(t *testing.T) {
		// What payline connectors check runs (not recorded: it sends
		// malformed requests on purpose). The connector's test users are
		// the sandbox's, so the kit's defaults fit.
		for _, r := range conformance.Check(ctx, base, secret, conformance.DefaultUsers, nil) {
			if r.Failed() {
				t.Errorf("%s: FAIL: %s %q", r.Scenario, r.Reason, r.Problems)
			} else {
				t.Logf("%s: %s: %s", r.Scenario, r.State, r.Reason)
			}
		}
	})

	t.Run("integer cents", func(t *testing.T) {
		checkIntegerCents(t, rec.all())
	})

	t.Run("contract", func(t *testing.T) {
		checkContract(t, base, rec.all())
	})

	t.Run("log", func(t *testing.T) {
		// One line per request, and never a credential or a person's data.
		text := logs.String()
		for _, secretThing := range []string{"pass_good", "user_good", mfaCode, secret, "@example.com", "v1:" + acmeID} {
			if strings.Contains(text, secretThing) {
				t.Errorf("the log shows %q", secretThing)
			}
		}
		if n := strings.Count(text, " /connector/v1/"); n < len(rec.all()) {
			t.Errorf("%d request lines for at least %d requests", n, len(rec.all()))
		}
	})
}
