package domain

import (
	"context"
	"errors"
	"fmt"
	"html"
	"slices"
	"strings"
	"time"
)

// The messages the person's page sends: the receipt after Link, and a
// fresh link to the page, by e-mail through the MessageSender, to the
// address on file.

// PortalSent says where a message went, masked.
type PortalSent struct {
	To string // masked (j***@example.com)
}

// SendFreshLink sends a new link to the page, by e-mail, to the address
// on file for the end user a used or expired code was made for: the one
// they gave for their receipt, else the one a Link order was sent to.
// Errors: PORTAL_LINK_INVALID for a code never made; PORTAL_NO_ADDRESS
// when no address is on file; RATE_LIMIT_EXCEEDED when a link was made
// for the person less than PortalResendEvery ago; INVALID_FIELDS or
// SERVICE_UNAVAILABLE when the channel did not take it (sendFailure).
func (s *PortalService) SendFreshLink(ctx context.Context, code string) (PortalSent, error) {
	old, err := s.tx.Portal().PortalLinkByCode(ctx, hashSecret(code))
	if errors.Is(err, ErrNoRows) || code == "" {
		return PortalSent{}, Errorf(KindInvalid, CodePortalLinkInvalid, "this link to your page is not one we made")
	}
	if err != nil {
		return PortalSent{}, err
	}
	sc := old.Scope()
	to, err := s.addressOnFile(ctx, sc, old.EndUserID)
	if err != nil {
		return PortalSent{}, err
	}
	who, err := s.customerName(ctx, sc, "")
	if err != nil {
		return PortalSent{}, err
	}
	var fresh string
	now := s.clock.Now()
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := takeSendTurn(ctx, tx, sc, old.EndUserID, sendFreshLink, now,
			"a new link was sent a moment ago: check your e-mail, or ask again in two minutes"); err != nil {
			return err
		}
		_, fresh, err = newPortalLink(ctx, tx, sc, old.EndUserID, now)
		return err
	})
	if err != nil {
		return PortalSent{}, err
	}
	url := s.URL(fresh)
	text := fmt.Sprintf("Here is a new link to the page that shows what you shared with %s through Payline:\n\n%s\n\n"+
		"It works once, for %d minutes. If you did not ask for it, you can ignore this message.\n", who, url, int(PortalLinkTTL.Minutes()))
	m := OutboundMessage{Channel: ChannelEmail, To: to, Subject: "Your link to what you shared with " + who, Text: text,
		HTML: paragraphsHTML(text, url), FromName: who, CustomerID: sc.CustomerID, Mode: sc.Mode, Ref: old.ID}
	if _, err := s.sender.Send(ctx, m); err != nil {
		return PortalSent{}, sendFailure(err)
	}
	return PortalSent{To: MaskAddress(ChannelEmail, to)}, nil
}

// addressOnFile is the address the person gave for a receipt, else the
// address of the newest Link order sent to them by e-mail. Errors:
// PORTAL_NO_ADDRESS.
func (s *PortalService) addressOnFile(ctx context.Context, sc Scope, endUserID string) (string, error) {
	to, _, err := s.tx.Portal().PortalAddress(ctx, sc, endUserID)
	if err == nil {
		return to, nil
	}
	if !errors.Is(err, ErrNoRows) {
		return "", err
	}
	orders, err := s.tx.LinkOrders().FindLinkOrders(ctx, sc, LinkOrderFilter{EndUserID: endUserID}, PageRequest{Limit: 25})
	if err != nil {
		return "", err
	}
	for _, o := range orders.Items {
		for _, d := range o.Deliveries {
			if d.Channel == ChannelEmail && d.To != "" {
				return d.To, nil
			}
		}
	}
	return "", Errorf(KindInvalid, CodePortalNoAddress, "there is no e-mail address on file to send a new link to; ask the company that sent you here for one")
}

// The kinds of message a person gets at most every PortalResendEvery.
const (
	sendReceipt   = "receipt"
	sendFreshLink = "fresh_link"
)

// takeSendTurn takes, in tx, the end user's turn for a message of the
// kind. Errors: RATE_LIMIT_EXCEEDED with refusal when it is not theirs.
func takeSendTurn(ctx context.Context, tx Tx, sc Scope, endUserID, kind string, now time.Time, refusal string) error {
	ok, err := tx.Portal().TakeSendTurn(ctx, sc, endUserID, kind, now, PortalResendEvery)
	if err != nil {
		return err
	}
	if !ok {
		return &Error{Kind: KindRateLimited, Code: CodeRateLimitExceeded, RetryAfter: PortalResendEvery, Message: refusal}
	}
	return nil
}

// sendFailure answers a message the channel did not take, in words that
// hold neither the address nor the channel's own text (which may quote
// it): these answers and their logs must not copy people's addresses.
func sendFailure(err error) error {
	if errors.Is(err, ErrDeliveryRefused) {
		return Errorf(KindInvalid, CodeInvalidFields, "email: the mail server refused this address; check it, or use another")
	}
	return &Error{Kind: KindUnavailable, Code: CodeServiceUnavailable, RetryAfter: PortalResendEvery,
		Message: "the e-mail could not be sent just now; try again in a few minutes"}
}

// customerName is the name the person knows the customer by: the name
// Link showed them (orgName) when there is one, else the customer's.
func (s *PortalService) customerName(ctx context.Context, sc Scope, orgName string) (string, error) {
	if orgName != "" {
		return orgName, nil
	}
	name, err := s.names.CustomerName(ctx, sc.CustomerID)
	if err != nil {
		return "", fmt.Errorf("customer name: %w", err)
	}
	return name, nil
}

// paragraphsHTML is text as HTML paragraphs, with url a link: no remote
// content, nothing the text did not say.
func paragraphsHTML(text, url string) string {
	var b strings.Builder
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		e := html.EscapeString(p)
		if p == url {
			e = `<a href="` + html.EscapeString(url) + `">` + e + `</a>`
		}
		b.WriteString("<p>" + strings.ReplaceAll(e, "\n", "<br>") + "</p>\n")
	}
	return b.String()
}

// jobWords says in plain words what a job lets the customer read.
var jobWords = map[JobType]string{
	JobIdentity: "your identity (name, address, date of birth)", JobEmployment: "your employment (employer, title, dates)",
	JobIncome: "your income (pay rate and frequency)", JobPaystubs: "your paystubs", JobShifts: "your shifts",
	JobTaxForms: "your tax forms (W-2s)", JobDirectDepositAllocations: "where your pay is deposited",
	JobDirectDepositSwitch: "a change to where your pay is deposited", JobDirectDepositPayment: "a payment from your pay",
	JobBillSwitch: "a change to how a bill is paid", JobBillCancellation: "a bill cancellation",
}

func jobsInWords(jobs []JobType) []string {
	out := make([]string, 0, len(jobs))
	for _, j := range jobs {
		if w, ok := jobWords[j]; ok {
			out = append(out, w)
		} else {
			out = append(out, strings.ReplaceAll(string(j), "_", " "))
		}
	}
	return out
}

// Receipt is what a receipt told the person, masked where it names them.
type Receipt struct {
	To       string // masked
	Customer string
	Data     []string
}

// SendReceipt sends the person who finished Link with the token value a
// receipt at the address they gave: who asked, for what, which data,
// when, and a link to their page. The address is kept (sealed) as the
// one a fresh link is sent to. Errors: those of Open; INVALID_FIELDS for
// a missing or malformed address (MISSING_FIELDS when empty);
// LINK_NOT_COMPLETED when the session has not logged in or uploaded;
// RATE_LIMIT_EXCEEDED when a receipt went to the person less than
// PortalResendEvery ago; INVALID_FIELDS when the mail server refused the
// address, SERVICE_UNAVAILABLE when the channel failed otherwise.
func (s *PortalService) SendReceipt(ctx context.Context, value, email string) (Receipt, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return Receipt{}, Errorf(KindInvalid, CodeMissingFields, "email: give the address the receipt goes to")
	}
	if !ValidEmail(email) {
		return Receipt{}, Errorf(KindInvalid, CodeInvalidFields, "email: not an e-mail address")
	}
	sess, err := s.link.Open(ctx, value)
	if err != nil {
		return Receipt{}, err
	}
	t := sess.Token
	if t.UsedAt == nil {
		return Receipt{}, Errorf(KindInvalid, CodeLinkNotCompleted, "a receipt is sent once you have connected an account or uploaded documents")
	}
	sc := t.Scope()
	now := s.clock.Now()
	who, err := s.customerName(ctx, sc, t.OrgName)
	if err != nil {
		return Receipt{}, err
	}
	var code string
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		// Whoever holds the token may ask, so a person gets a receipt at
		// most every PortalResendEvery: the token cannot be used to mail
		// strangers again and again.
		if err := takeSendTurn(ctx, tx, sc, t.EndUserID, sendReceipt, now, "a receipt was sent a moment ago; ask again in two minutes"); err != nil {
			return err
		}
		if err := tx.Portal().PutPortalAddress(ctx, sc, t.EndUserID, email, now); err != nil {
			return err
		}
		_, code, err = newPortalLink(ctx, tx, sc, t.EndUserID, now)
		return err
	})
	if err != nil {
		return Receipt{}, err
	}
	data := jobsInWords(t.Jobs())
	source := "your payroll account"
	if sess.Account != nil && sess.Account.EmployerName != "" {
		source = "your payroll account at " + sess.Account.EmployerName
	} else if sess.Account == nil {
		source = "the documents you uploaded"
	}
	url := s.URL(code)
	text := fmt.Sprintf("You shared %s with %s through Payline on %s UTC.\n\n"+
		"Who asked: %s\nWhat for: %s\nWhich data: %s\n\n"+
		"See what you shared, download the reports made about you, or take your consent back on your page:\n\n%s\n\n"+
		"This link works once, for %d minutes; from the page that opens when it has expired, you can ask for a new one.\n",
		source, who, t.UsedAt.UTC().Format("January 2, 2006 at 15:04"), who, purposeWords(t), strings.Join(data, "; "), url,
		int(PortalLinkTTL.Minutes()))
	m := OutboundMessage{Channel: ChannelEmail, To: email, Subject: "Your receipt: what you shared with " + who, Text: text,
		HTML: paragraphsHTML(text, url), FromName: who, CustomerID: sc.CustomerID, Mode: sc.Mode, Ref: t.ID}
	if _, err := s.sender.Send(ctx, m); err != nil {
		return Receipt{}, sendFailure(err)
	}
	return Receipt{To: MaskAddress(ChannelEmail, email), Customer: who, Data: data}, nil
}

// purposeWords is what the customer asked for, in the words of Link's
// solution.
func purposeWords(t LinkToken) string {
	jobs := t.Jobs()
	switch {
	case slices.Contains(jobs, JobDirectDepositSwitch) || slices.Contains(jobs, JobDirectDepositPayment):
		return "to change where your pay is deposited"
	case slices.Contains(jobs, JobBillSwitch) || slices.Contains(jobs, JobBillCancellation):
		return "to manage your bills"
	}
	return "to verify your income and employment"
}
