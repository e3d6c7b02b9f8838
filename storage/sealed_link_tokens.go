package storage

import (
	"encoding/json"
	"strconv"

	"payline/domain"
	"payline/internal/secretbox"
)

// The sealed formats of a link token's allocation and platform-matching
// identifiers. They are private types of their own, not the domain
// structs, so that renaming a field never changes what a stored token
// opens to; tokens sealed before amounts were cents carry "value" as a
// dollar or percentage literal, which open still reads.

type sealedTarget struct {
	Name          string `json:"name,omitempty"`
	Type          string `json:"type"`
	AccountNumber string `json:"account_number"`
	RoutingNumber string `json:"routing_number"`
}

type sealedAllocation struct {
	Type        string         `json:"type,omitempty"`
	AmountCents *int64         `json:"amount_cents,omitempty"`
	Percentage  *int           `json:"percentage,omitempty"`
	Value       *json.Number   `json:"value,omitempty"` // before cents; read only
	Targets     []sealedTarget `json:"targets,omitempty"`
}

type sealedMatching struct {
	SocialSecurityNumber   string `json:"social_security_number,omitempty"`
	SocialSecurityLastFour string `json:"social_security_last_four,omitempty"`
	FirstName              string `json:"first_name,omitempty"`
	LastName               string `json:"last_name,omitempty"`
	DateOfBirth            string `json:"date_of_birth,omitempty"`
	MobilePhoneNumber      string `json:"mobile_phone_number,omitempty"`
	HomeAddressZipCode     string `json:"home_address_zip_code,omitempty"`
	Email                  string `json:"email,omitempty"`
}

// The additional data that binds the values sealed with their own
// bindings (not rowAD) to their rows; master-key rotation re-seals with
// the same.

// allocationAD binds a link token's sealed allocation to the token.
func allocationAD(tokenID string) []byte { return []byte("allocation:" + tokenID) }

// matchingAD binds a link token's sealed platform-matching identifiers.
func matchingAD(tokenID string) []byte { return []byte("matching:" + tokenID) }

// KeySecretAD binds an API key's sealed secret to the key. Like every
// other binding it names its table, so no value sealed for one kind of
// row opens as another's that happens to share the id.
func KeySecretAD(keyID string) []byte { return []byte("api_key:" + keyID) }

// BillCardAD binds a bill switch's sealed card number to its job.
func BillCardAD(jobID string) []byte { return []byte("bill_card:" + jobID) }

// LegacyBareAD is the binding KeySecretAD and BillCardAD used before
// they named their table: the bare row id; they are re-bound at start
// (DB.RebindSealed).
func LegacyBareAD(id string) []byte { return []byte(id) }

// sealToken encrypts a token's allocation and matching identifiers, each
// bound to the token id; nil stays nil.
func sealToken(box *secretbox.Box, t domain.LinkToken) (alloc, matching []byte, err error) {
	if a := t.Allocation; a != nil {
		s := sealedAllocation{Type: a.Type}
		switch a.Type {
		case domain.AllocationAmount:
			s.AmountCents = &a.Amount.Amount
		case domain.AllocationPercentage:
			s.Percentage = &a.Percentage
		}
		for _, tg := range a.Targets {
			s.Targets = append(s.Targets, sealedTarget(tg))
		}
		b, _ := json.Marshal(s) // strings and numbers always marshal
		if alloc, err = box.Seal(b, allocationAD(t.ID)); err != nil {
			return nil, nil, err
		}
	}
	if m := t.PlatformMatching; m != nil {
		b, _ := json.Marshal(sealedMatching(*m))
		if matching, err = box.Seal(b, matchingAD(t.ID)); err != nil {
			return nil, nil, err
		}
	}
	return alloc, matching, nil
}

// openToken decrypts what sealToken sealed into t.
func openToken(box *secretbox.Box, t *domain.LinkToken, alloc, matching []byte) error {
	if alloc != nil {
		b, err := box.Open(alloc, allocationAD(t.ID))
		if err != nil {
			return err
		}
		var s sealedAllocation
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		a := &domain.Allocation{Split: domain.Split{Type: s.Type}}
		if err := s.split(&a.Split); err != nil {
			return err
		}
		for _, tg := range s.Targets {
			a.Targets = append(a.Targets, domain.AllocationTarget(tg))
		}
		t.Allocation = a
	}
	if matching != nil {
		b, err := box.Open(matching, matchingAD(t.ID))
		if err != nil {
			return err
		}
		var s sealedMatching
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		m := domain.PlatformMatching(s)
		t.PlatformMatching = &m
	}
	return nil
}

// split fills the split's value from the cents or percentage, or from the
// literal of a token sealed before them.
func (s sealedAllocation) split(out *domain.Split) error {
	switch {
	case s.AmountCents != nil:
		out.Amount = domain.USD(*s.AmountCents)
	case s.Percentage != nil:
		out.Percentage = *s.Percentage
	case s.Value != nil && s.Type == domain.AllocationAmount:
		m, err := domain.ParseDollars(domain.Number(*s.Value), domain.UpToTwoPlaces)
		if err != nil {
			return err
		}
		out.Amount = m
	case s.Value != nil && s.Type == domain.AllocationPercentage:
		pct, err := strconv.Atoi(string(*s.Value))
		if err != nil {
			return err
		}
		out.Percentage = pct
	}
	return nil
}
