package domain

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// BillRequest is the user's action on a merchant after logging in: switch
// the bill to a new payment method, or cancel the subscription.
type BillRequest struct {
	Job JobType // bill_switch or bill_cancellation
	// For bill_switch, the new payment method: a card, or else one of the
	// token's bank accounts by name (the first when empty).
	Card       *CardInput
	TargetName string
}

// CardInput is a payment card as the user typed it.
type CardInput struct {
	Number   string
	Name     string
	ExpMonth int
	ExpYear  int
}

// BillParams is what a bill job did, in the vendor's params: the payment
// type and the new payment method, masked.
type BillParams struct {
	Type    string // card or ach (bill_switch only)
	Payment *BillPayment
}

// BillPayment is the payment method a bill switch set, never in full.
type BillPayment struct {
	CardName           string
	LastFourCardNumber string
	AccountName        string
	AccountType        string
	LastFourAccount    string
}

// billPlan is a checked bill request: the job's params and, for a card,
// its number to seal.
type billPlan struct {
	job        JobType
	params     JobParams
	cardNumber string
}

// ValidCardNumber reports whether s is 12 to 19 digits passing the Luhn
// check, the checksum every payment card number carries.
func ValidCardNumber(s string) bool {
	if len(s) < 12 || len(s) > 19 {
		return false
	}
	sum := 0
	for i := range len(s) {
		c := s[len(s)-1-i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// planBill checks a bill request against the token and the merchant.
func planBill(t LinkToken, p Platform, r BillRequest, now time.Time) (billPlan, error) {
	var problems Problems
	if r.Job != JobBillSwitch && r.Job != JobBillCancellation {
		problems.Invalid("job", "must be bill_switch or bill_cancellation, got %q", r.Job)
		return billPlan{}, problems.Err()
	}
	if !slices.Contains(t.Jobs(), r.Job) {
		return billPlan{}, Errorf(KindInvalid, CodeUnsupportedJobs, "this link token does not ask for %s", r.Job)
	}
	if p.Type != PlatformMerchant || !slices.Contains(p.SupportedJobs, r.Job) {
		return billPlan{}, Errorf(KindInvalid, CodeUnsupportedJobs, "%s does not support %s", p.Name, r.Job)
	}
	plan := billPlan{job: r.Job}
	if r.Job == JobBillCancellation {
		if r.Card != nil || r.TargetName != "" {
			problems.Invalid("payment", "a cancellation takes no payment method")
		}
		return plan, problems.Err()
	}
	pay := &BillPayment{}
	plan.params.Bill = &BillParams{Payment: pay}
	if c := r.Card; c != nil {
		plan.params.Bill.Type = "card"
		number := strings.ReplaceAll(strings.ReplaceAll(c.Number, " ", ""), "-", "")
		if !ValidCardNumber(number) {
			problems.Invalid("card.number", "is not a valid card number (12 to 19 digits with a valid check digit)")
		}
		if strings.TrimSpace(c.Name) == "" {
			problems.Missing("card.name")
		}
		if c.ExpMonth < 1 || c.ExpMonth > 12 {
			problems.Invalid("card.exp_month", "must be 1 to 12")
		} else if c.ExpYear < now.Year() || (c.ExpYear == now.Year() && c.ExpMonth < int(now.Month())) {
			problems.Invalid("card.exp_year", "the card expired")
		} else if c.ExpYear > now.Year()+20 {
			problems.Invalid("card.exp_year", "must be within 20 years")
		}
		if len(number) >= 4 {
			pay.LastFourCardNumber = number[len(number)-4:]
		}
		pay.CardName, plan.cardNumber = strings.TrimSpace(c.Name), number
		return plan, problems.Err()
	}
	if t.Allocation == nil || len(t.Allocation.Targets) == 0 {
		problems.Missing("card (this link token names no bank account to pay from)")
		return plan, problems.Err()
	}
	target := t.Allocation.Targets[0]
	if r.TargetName != "" {
		i := slices.IndexFunc(t.Allocation.Targets, func(x AllocationTarget) bool { return x.Name == r.TargetName })
		if i < 0 {
			problems.Invalid("target", "no bank account named %q on this link token", r.TargetName)
			return plan, problems.Err()
		}
		target = t.Allocation.Targets[i]
	}
	plan.params.Bill.Type = "ach"
	pay.AccountName, pay.AccountType, pay.LastFourAccount = target.Name, target.Type, target.Masked()
	return plan, nil
}

// Bill queues the bill switch or cancellation of a token that has logged
// in to a merchant, in one transaction. A card number is stored only
// sealed with the master key (bound to the job), and shown by its last
// four digits. Errors: INVALID_FIELDS, UNSUPPORTED_JOBS, LINK_TOKEN_USED
// for a second bill job on one token.
func (s *LinkService) Bill(ctx context.Context, value string, r BillRequest) (Job, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return Job{}, err
	}
	if sess.Account == nil {
		return Job{}, Errorf(KindInvalid, CodeInvalidFields, "log in to the merchant before choosing what to do with the bill")
	}
	p, err := s.directory.Platform(ctx, sess.Account.PlatformID)
	if err != nil {
		return Job{}, err
	}
	plan, err := planBill(sess.Token, p, r, s.clock.Now())
	if err != nil {
		return Job{}, err
	}
	var job Job
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		job, err = s.queueBill(ctx, tx, sess.Token, *sess.Account, p, plan)
		return err
	})
	return job, err
}

// queueBill creates the bill job inside tx; a unique index refuses a
// second bill job on one token, which reads as LINK_TOKEN_USED.
func (s *LinkService) queueBill(ctx context.Context, tx Tx, t LinkToken, a Account, p Platform, plan billPlan) (Job, error) {
	job, err := s.createJobWithID(ctx, tx, NewID(), t, a, p, plan.job, plan.params, s.clock.Now(), nil, plan.cardNumber)
	if errors.Is(err, ErrDuplicate) {
		return Job{}, Errorf(KindInvalid, CodeLinkTokenUsed, "this link token already made its bill change; create a new one")
	}
	return job, err
}

// checkBillNavigator refuses a bill change for an end user whose bill
// navigator was deactivated (PUT /end_users/{id}/bill_navigator/status):
// the end user opted out of bill prompts, so Link must not offer one.
func (s *LinkService) checkBillNavigator(ctx context.Context, sc Scope, t LinkToken) error {
	jobs := t.Jobs()
	if t.EndUserID == "" || (!slices.Contains(jobs, JobBillSwitch) && !slices.Contains(jobs, JobBillCancellation)) {
		return nil
	}
	status, err := s.tx.Records().BillNavigatorStatus(ctx, sc, t.EndUserID)
	if err != nil {
		return err
	}
	if status == "deactivated" {
		return Errorf(KindInvalid, CodeInvalidFields,
			"required_jobs: end user %q deactivated the bill navigator, so Link offers them no bill changes; drop bill_switch and bill_cancellation", t.EndUserID)
	}
	return nil
}
