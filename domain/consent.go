package domain

import (
	"slices"
	"time"
)

// ConsentTextVersion names the consent screen Link shows today: what the
// end user is told the customer will get, that their login goes only to
// their payroll provider, and the privacy link. It changes whenever that
// text changes, so a recorded consent says which words were agreed to.
const ConsentTextVersion = "link-consent-2026-11"

// ConsentTextVersions are every consent text version Link has shown,
// oldest first.
var ConsentTextVersions = []string{ConsentTextVersion}

// Consent is an end user's agreement, given in Link, to share a payroll
// account's data with a customer: when, and which consent text.
type Consent struct {
	AccountID   string
	CustomerID  string
	GivenAt     time.Time
	TextVersion string
}

// checkConsentVersion refuses a consent text version Link never showed.
// Errors: INVALID_FIELDS.
func checkConsentVersion(v string) error {
	if v != "" && !slices.Contains(ConsentTextVersions, v) {
		return Errorf(KindInvalid, CodeInvalidFields, "consent_text_version: %q is not a consent text Link has shown", v)
	}
	return nil
}

// consentOf is the consent the end user gave for acct through token t, at
// now, to the version of the text Link showed (the current one when the
// request names none). A token that skips Link's intro screen skips its
// consent screen too: the customer asked for consent its own way, and
// Link records none.
func consentOf(t LinkToken, acct Account, version string, now time.Time) (Consent, bool) {
	if version == "" {
		if t.SkipIntroScreen {
			return Consent{}, false
		}
		version = ConsentTextVersion
	}
	return Consent{AccountID: acct.ID, CustomerID: t.CustomerID, GivenAt: now, TextVersion: version}, true
}
