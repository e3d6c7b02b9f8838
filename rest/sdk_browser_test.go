package rest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserSDKVersions runs the same partial switch with
// PaylineLink.open({sdkVersion: 3}) and ({sdkVersion: 2}): v2 adds
// input_amount {value, unit} before input_allocation and reports the
// switch in success as params.amount {value, unit}; everything else is the
// same.
func TestBrowserSDKVersions(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	run := func(t *testing.T, sdk int) []clientEvent {
		_, token := f.createToken(switchTokenBody(""))
		m := modal{t: t, ctx: newBrowser(t)}
		if err := chromedp.Do(m.ctx, chromedp.Navigate(fmt.Sprintf("%s/link/v1/demo#token=%s&sdk=%d", f.http.URL, token, sdk)),
			chromedp.Click("#open")); err != nil {
			t.Fatal(err)
		}
		m.click("#consent-continue")
		m.typeInto("#search-input", "summit payroll")
		m.click(`.result[data-kind="platform"]`)
		m.click("#confirm-provider")
		m.typeInto("#username", sandbox.UserGood)
		m.typeInto("#password", sandbox.Password)
		m.click("#login-submit")
		m.click("#alloc-partial")
		m.typeInto("#alloc-value", "150")
		m.click("#alloc-continue")
		m.click("#confirm-switch")
		m.waitScreen("JOB_SUCCESS")
		return m.events()
	}
	v3 := run(t, 3)
	v2 := run(t, 2)
	payload := func(events []clientEvent, name string) map[string]any {
		for _, e := range events {
			if e.Name == name {
				return e.Payload
			}
		}
		return nil
	}
	wantV3 := []string{"open", "screen_transition:SEARCH_DEFAULT", "screen_transition:SEARCH_RESULTS", "select_platform",
		"screen_transition:PROVIDER_CONFIRMATION", "screen_transition:LOGIN", "login_attempt", "login",
		"screen_transition:DD_AMOUNT_SELECTION", "input_allocation", "screen_transition:DD_CONFIRMATION", "success",
		"screen_transition:JOB_SUCCESS"}
	if got := eventNames(v3); !slices.Equal(got, wantV3) {
		t.Fatalf("v3 events\n got %v\nwant %v", got, wantV3)
	}
	wantV2 := slices.Insert(slices.Clone(wantV3), 9, "input_amount")
	if got := eventNames(v2); !slices.Equal(got, wantV2) {
		t.Fatalf("v2 events\n got %v\nwant %v", got, wantV2)
	}
	if got := fmt.Sprint(payload(v2, "input_amount")); got != "map[unit:$ value:150]" {
		t.Errorf("v2 input_amount %s", got)
	}
	if a, b := fmt.Sprint(payload(v3, "input_allocation")), fmt.Sprint(payload(v2, "input_allocation")); a != b ||
		a != "map[action:partial_switch allocation:map[type:amount value:150]]" {
		t.Errorf("input_allocation v3 %s, v2 %s", a, b)
	}
	if got := fmt.Sprint(payload(v3, "success")["params"]); got != "map[action:partial_switch allocation:map[type:amount value:150]]" {
		t.Errorf("v3 success params %s", got)
	}
	s2 := payload(v2, "success")
	if got := fmt.Sprint(s2["params"]); got != "map[amount:map[unit:$ value:150]]" || s2["job"] != "direct_deposit_switch" || s2["accountId"] == nil {
		t.Errorf("v2 success %v", s2)
	}
}

// TestBrowserPlatformMatchingNeedsSDK3: the spec says platform matching
// requires Link SDK 3; opened with sdkVersion 2, Link sends only the error
// and tells the user, and nothing is matched.
func TestBrowserPlatformMatchingNeedsSDK3(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "pm-v2", "required_jobs": ["direct_deposit_switch"],
		"allocation": {"targets": [{"type": "checking", "account_number": "12345678", "routing_number": "` + goodRouting + `"}]},
		"end_user": {"platform_matching": {"social_security_number": "123456789", "first_name": "Ada", "last_name": "Lovelace",
		"date_of_birth": "1990-12-10", "mobile_phone_number": "5551234567", "home_address_zip_code": "94107", "email": "ada@example.com"}}}`)
	m := modal{t: t, ctx: newBrowser(t)}
	if err := chromedp.Do(m.ctx, chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token+"&sdk=2"), chromedp.Click("#open")); err != nil {
		t.Fatal(err)
	}
	m.until("the error", `(window.paylineEvents || []).some(e => e[0] === 'error')`)
	events := m.events()
	if got := eventNames(events); !slices.Equal(got, []string{"error"}) || events[0].Payload["code"] != "SDK_VERSION_UNSUPPORTED" {
		t.Errorf("events %v", events)
	}
}
