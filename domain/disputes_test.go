package domain_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
)

// fakeNotifier stands for a route's dispute channel: it answers err, or
// acknowledges with a reference, and records what it was told.
type fakeNotifier struct {
	mu   sync.Mutex
	err  error
	told []domain.DisputeNotice
}

func (f *fakeNotifier) NotifyDispute(_ context.Context, a domain.Account, n domain.DisputeNotice) (domain.DisputeAck, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return domain.DisputeAck{}, f.err
	}
	f.told = append(f.told, n)
	return domain.DisputeAck{Route: "sandbox", Reference: "ack-" + n.DisputeID[:8]}, nil
}

// disputes is the dispute service of a world, over its real stores.
func (w *world) disputes(n domain.FurnisherNotifier) *domain.DisputeService {
	return domain.NewDisputeService(w.tx, w.tx, w.tx, n, w.clock)
}

// moveTo moves the world's clock to t.
func (w *world) moveTo(t time.Time) { w.clock.Advance(t.Sub(w.clock.Now())) }

// paystubOf connects user as erin and returns the account and one of its
// paystubs.
func (w *world) paystubOf(user string) (domain.Account, domain.Paystub) {
	w.t.Helper()
	a, _ := w.mustLogin(user, "paystubs")
	w.runJobs(a.ID)
	stubs, err := w.tx.Data().FindPaystubs(w.ctx, w.sc, a.ID, "", domain.PageRequest{Limit: 1})
	if err != nil || len(stubs.Items) == 0 {
		w.t.Fatalf("paystubs of %s: %+v, %v", a.ID, stubs, err)
	}
	return a, stubs.Items[0]
}

func netPay(p domain.Paystub) domain.DisputeRequest {
	return domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedPaystub, ID: p.ID, Field: "net_pay_amount"},
		Note: "My net pay that week was $1,912.40, not what this says."}
}

// TestDisputeClocks opens disputes on a moved clock and checks the law's
// clocks, on both databases: received at a month end before a weekend,
// due 30 calendar days on (across February) and the source to be told 5
// business days on; received before an observed Independence Day and
// before Washington's Birthday, the notice skips them; new information during the period extends the due time to
// 45 days once, recorded; information after the due time extends
// nothing.
func TestDisputeClocks(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		a, stub := w.paystubOf(sandbox.UserGood)
		s := w.disputes(&fakeNotifier{})

		w.moveTo(time.Date(2026, 4, 30, 16, 30, 0, 0, time.UTC)) // a Thursday, the month's last day
		monthEnd, err := s.OpenPersonDispute(w.ctx, domain.PortalSession{CustomerID: w.sc.CustomerID, Mode: w.sc.Mode, EndUserID: "erin"}, netPay(stub))
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2026, 5, 30, 16, 30, 0, 0, time.UTC); !monthEnd.DueAt.Equal(want) {
			t.Errorf("due_at = %s, want %s (30 days)", monthEnd.DueAt, want)
		}
		if want := time.Date(2026, 5, 7, 16, 30, 0, 0, time.UTC); !monthEnd.Notice.DueAt.Equal(want) {
			t.Errorf("notice due = %s, want %s (5 business days over a weekend and a month end)", monthEnd.Notice.DueAt, want)
		}

		w.moveTo(time.Date(2026, 7, 1, 11, 0, 0, 0, time.UTC)) // a Wednesday; Independence Day (a Saturday) is observed Friday July 3
		observed, err := s.OpenDispute(w.ctx, w.sc, "erin", netPay(stub), "end_user")
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2026, 7, 9, 11, 0, 0, 0, time.UTC); !observed.Notice.DueAt.Equal(want) {
			t.Errorf("notice due = %s, want %s (the observed holiday and the weekend skipped)", observed.Notice.DueAt, want)
		}
		if want := time.Date(2026, 7, 31, 11, 0, 0, 0, time.UTC); !observed.DueAt.Equal(want) {
			t.Errorf("due_at = %s, want %s", observed.DueAt, want)
		}

		w.moveTo(time.Date(2027, 2, 12, 9, 0, 0, 0, time.UTC)) // the Friday before Washington's Birthday 2027 (Feb 15)
		holiday, err := s.OpenDispute(w.ctx, w.sc, "erin", domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedEmployment, ID: a.ID},
			Note: "I left this employer in January."}, "end_user")
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2027, 2, 22, 9, 0, 0, 0, time.UTC); !holiday.Notice.DueAt.Equal(want) {
			t.Errorf("notice due = %s, want %s (the holiday skipped)", holiday.Notice.DueAt, want)
		}
		if want := time.Date(2027, 3, 14, 9, 0, 0, 0, time.UTC); !holiday.DueAt.Equal(want) {
			t.Errorf("due_at = %s, want %s (30 days across February)", holiday.DueAt, want)
		}

		// New information on day 10 extends to 45 days from receipt, once.
		w.clock.Advance(10 * 24 * time.Hour)
		ext, err := s.AddInformation(w.ctx, w.sc, "erin", holiday.ID, "My last pay slip is attached.", "")
		if err != nil {
			t.Fatal(err)
		}
		if want := holiday.ReceivedAt.AddDate(0, 0, 45); !ext.DueAt.Equal(want) || ext.ExtendedAt == nil || !ext.ExtendedAt.Equal(w.clock.Now()) {
			t.Errorf("extended: due %s at %v, want due %s extended now", ext.DueAt, ext.ExtendedAt, want)
		}
		w.clock.Advance(24 * time.Hour)
		again, err := s.AddInformation(w.ctx, w.sc, "erin", holiday.ID, "And the letter from HR.", "")
		if err != nil {
			t.Fatal(err)
		}
		if !again.DueAt.Equal(ext.DueAt) || !again.ExtendedAt.Equal(*ext.ExtendedAt) || len(again.Information) != 2 {
			t.Errorf("second information: due %s extended %v, %d notes; want the first extension kept and 2 notes",
				again.DueAt, again.ExtendedAt, len(again.Information))
		}
		stored, err := s.Dispute(w.ctx, w.sc, holiday.ID)
		if err != nil || !stored.DueAt.Equal(ext.DueAt) || stored.Information[1].Note != "And the letter from HR." {
			t.Errorf("stored: %+v, %v", stored, err)
		}

		// The month-end dispute is past its 30 days: information extends nothing.
		late, err := s.AddInformation(w.ctx, w.sc, "erin", monthEnd.ID, "Here is my bank statement.", "")
		if err != nil {
			t.Fatal(err)
		}
		if late.ExtendedAt != nil || !late.DueAt.Equal(monthEnd.DueAt) {
			t.Errorf("information after the due time extended it: due %s extended %v", late.DueAt, late.ExtendedAt)
		}
	})
}

// TestDisputeLifecycle walks a dispute through its states on both
// databases: opened (dispute.opened with the clocks, an audit entry, the
// person's note sealed and read back), resolving before investigating is
// refused, investigated and resolved with who and when, dispute.resolved;
// a resolved dispute does not change; bad requests are refused with the
// field named and write nothing.
func TestDisputeLifecycle(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		_, stub := w.paystubOf(sandbox.UserGood)
		s := w.disputes(&fakeNotifier{})
		d, err := s.OpenDispute(w.ctx, w.sc, "erin", netPay(stub), "end_user")
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != domain.DisputeOpen || !d.ReceivedAt.Equal(w.clock.Now()) || d.Item.AccountID != stub.AccountID ||
			d.Notice.Status != domain.NoticePending || len(d.Steps) != 1 || d.Steps[0].By != "end_user" {
			t.Fatalf("opened: %+v", d)
		}
		p := w.lastPayload(domain.EventDisputeOpened)
		if p["dispute_id"] != d.ID || p["due_at"] != domain.APITime(d.DueAt) || p["status"] != "open" || p["note"] != nil {
			t.Errorf("dispute.opened payload: %v", p)
		}
		got, err := s.Dispute(w.ctx, w.sc, d.ID)
		if err != nil || got.Note != d.Note || got.Item != d.Item {
			t.Fatalf("read back: %+v, %v", got, err)
		}

		_, err = s.Resolve(w.ctx, w.sc, d.ID, domain.ResolveRequest{Outcome: domain.DisputeCorrected, Reason: "fixed"})
		wantCode(t, err, domain.CodeDisputeStatusConflict)

		ctx := domain.WithAPIKey(w.ctx, w.key)
		w.clock.Advance(time.Hour)
		inv, err := s.Investigate(ctx, w.sc, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if inv.Status != domain.DisputeInvestigating || inv.Steps[1].By != "key:"+w.key.ID || !inv.Steps[1].At.Equal(w.clock.Now()) {
			t.Errorf("investigating: %+v", inv.Steps)
		}
		_, err = s.Investigate(ctx, w.sc, d.ID)
		wantCode(t, err, domain.CodeDisputeStatusConflict)

		for _, bad := range []struct {
			name string
			r    domain.ResolveRequest
			code string
		}{
			{"no outcome", domain.ResolveRequest{Reason: "x"}, domain.CodeMissingFields},
			{"unknown outcome", domain.ResolveRequest{Outcome: "fixed", Reason: "x"}, domain.CodeInvalidFields},
			{"no reason", domain.ResolveRequest{Outcome: domain.DisputeVerified, Reason: "  "}, domain.CodeMissingFields},
		} {
			_, err := s.Resolve(ctx, w.sc, d.ID, bad.r)
			wantCode(t, err, bad.code)
		}
		if n := w.countEvents(domain.EventDisputeResolved); n != 0 {
			t.Fatalf("%d dispute.resolved before a resolution", n)
		}

		w.clock.Advance(time.Hour)
		res, err := s.Resolve(ctx, w.sc, d.ID, domain.ResolveRequest{Outcome: domain.DisputeCorrected, Reason: "The employer sent a corrected stub."})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != domain.DisputeResolved || res.Outcome != domain.DisputeCorrected || res.ResolvedAt == nil ||
			!res.ResolvedAt.Equal(w.clock.Now()) || len(res.Steps) != 3 || res.Steps[2].Reason != "The employer sent a corrected stub." {
			t.Errorf("resolved: %+v", res)
		}
		rp := w.lastPayload(domain.EventDisputeResolved)
		if rp["outcome"] != "corrected" || rp["resolved_at"] != domain.APITime(*res.ResolvedAt) {
			t.Errorf("dispute.resolved payload: %v", rp)
		}
		_, err = s.Resolve(ctx, w.sc, d.ID, domain.ResolveRequest{Outcome: domain.DisputeDeleted, Reason: "again"})
		wantCode(t, err, domain.CodeDisputeResolved)
		_, err = s.AddInformation(w.ctx, w.sc, "erin", d.ID, "more", "")
		wantCode(t, err, domain.CodeDisputeResolved)

		log, err := w.tx.Audit().AuditLog(w.ctx, w.sc, 20)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, e := range log {
			if e.Target == d.ID {
				actions = append(actions, e.Action)
			}
		}
		if strings.Join(actions, ",") != "dispute.resolved,dispute.investigating,dispute.opened" {
			t.Errorf("audit: %v", actions)
		}

		// Refused requests write nothing.
		before := len(w.events())
		for _, bad := range []struct {
			name string
			r    domain.DisputeRequest
			code string
		}{
			{"no item type", domain.DisputeRequest{Note: "x"}, domain.CodeMissingFields},
			{"unknown item type", domain.DisputeRequest{Item: domain.DisputeItem{Type: "bank"}, Note: "x"}, domain.CodeInvalidFields},
			{"no note", domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedPaystub, ID: stub.ID}}, domain.CodeMissingFields},
			{"a paystub id that is not a UUID", domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedPaystub, ID: "7"}, Note: "x"}, domain.CodeInvalidFields},
			{"a report field without its report", domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedReportField, Field: "x"}, Note: "x"}, domain.CodeInvalidFields},
			{"another end user's paystub", netPay(stub), domain.CodeDisputeItemNotFound},
			{"an unknown paystub", domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedPaystub, ID: domain.NewID()}, Note: "x"}, domain.CodeDisputeItemNotFound},
			{"a document that is not theirs", domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedPaystub, ID: stub.ID}, Note: "x", DocumentID: domain.NewID()}, domain.CodeDocumentNotFound},
		} {
			t.Run(bad.name, func(t *testing.T) {
				user := "erin"
				if bad.name == "another end user's paystub" {
					user = "frank"
				}
				_, err := s.OpenDispute(w.ctx, w.sc, user, bad.r, "end_user")
				wantCode(t, err, bad.code)
			})
		}
		if after := len(w.events()); after != before {
			t.Errorf("refused disputes wrote %d events", after-before)
		}
	})
}

// TestDisputeTenantIsolation: another customer (and the same customer's
// other mode) can neither read, list, move nor dispute into this
// customer's disputes and items: each answers not found.
func TestDisputeTenantIsolation(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		a, stub := w.paystubOf(sandbox.UserGood)
		s := w.disputes(&fakeNotifier{})
		d, err := s.OpenDispute(w.ctx, w.sc, "erin", netPay(stub), "end_user")
		if err != nil {
			t.Fatal(err)
		}
		other, err := w.keys.CreateKey(w.ctx, "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range []domain.Scope{other.Key.Scope(), {CustomerID: w.sc.CustomerID, Mode: domain.ModeDevelopment}} {
			_, err := s.Dispute(w.ctx, sc, d.ID)
			wantCode(t, err, domain.CodeDisputeNotFound)
			_, err = s.Investigate(w.ctx, sc, d.ID)
			wantCode(t, err, domain.CodeDisputeNotFound)
			_, err = s.Resolve(w.ctx, sc, d.ID, domain.ResolveRequest{Outcome: domain.DisputeVerified, Reason: "x"})
			wantCode(t, err, domain.CodeDisputeNotFound)
			_, err = s.AddInformation(w.ctx, sc, "erin", d.ID, "x", "")
			wantCode(t, err, domain.CodeDisputeNotFound)
			pg, err := s.Disputes(w.ctx, sc, domain.DisputeFilter{}, domain.PageRequest{Limit: 25})
			if err != nil || len(pg.Items) != 0 {
				t.Errorf("%v lists %d disputes, %v", sc, len(pg.Items), err)
			}
			_, err = s.OpenDispute(w.ctx, sc, "erin", netPay(stub), "end_user")
			wantCode(t, err, domain.CodeDisputeItemNotFound)
			_, err = s.OpenDispute(w.ctx, sc, "erin", domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedEmployment, ID: a.ID}, Note: "x"}, "end_user")
			wantCode(t, err, domain.CodeDisputeItemNotFound)
		}
		// Another end user of the same customer does not see it on their page.
		_, err = s.EndUserDispute(w.ctx, w.sc, "frank", d.ID)
		wantCode(t, err, domain.CodeDisputeNotFound)
		_, err = s.AddInformation(w.ctx, w.sc, "frank", d.ID, "x", "")
		wantCode(t, err, domain.CodeDisputeNotFound)
		mine, err := s.Disputes(w.ctx, w.sc, domain.DisputeFilter{EndUserID: "erin", Status: domain.DisputeOpen}, domain.PageRequest{Limit: 25})
		if err != nil || len(mine.Items) != 1 || mine.Items[0].ID != d.ID {
			t.Errorf("erin's open disputes: %+v, %v", mine, err)
		}
	})
}

// TestDisputeOverdue: the sweep raises dispute.overdue once for a
// dispute past its due time unresolved, not before it, not twice, not
// for a resolved one; the overdue filter lists it.
func TestDisputeOverdue(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		_, stub := w.paystubOf(sandbox.UserGood)
		s := w.disputes(&fakeNotifier{})
		late, err := s.OpenDispute(w.ctx, w.sc, "erin", netPay(stub), "end_user")
		if err != nil {
			t.Fatal(err)
		}
		done, err := s.OpenDispute(w.ctx, w.sc, "erin", netPay(stub), "end_user")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Investigate(w.ctx, w.sc, done.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Resolve(w.ctx, w.sc, done.ID, domain.ResolveRequest{Outcome: domain.DisputeVerified, Reason: "The stub matches the employer's records."}); err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(30*24*time.Hour - time.Second)
		if _, err := s.SweepOverdue(w.ctx); err != nil {
			t.Fatal(err)
		}
		if n := w.countEvents(domain.EventDisputeOverdue); n != 0 {
			t.Fatalf("%d dispute.overdue a second before the due time", n)
		}
		w.clock.Advance(time.Second)
		for range 2 {
			if _, err := s.SweepOverdue(w.ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := w.countEvents(domain.EventDisputeOverdue); n != 1 {
			t.Fatalf("%d dispute.overdue after two sweeps, want 1", n)
		}
		if p := w.lastPayload(domain.EventDisputeOverdue); p["dispute_id"] != late.ID {
			t.Errorf("dispute.overdue for %v, want %s", p["dispute_id"], late.ID)
		}
		over, err := s.Disputes(w.ctx, w.sc, domain.DisputeFilter{Overdue: true}, domain.PageRequest{Limit: 25})
		if err != nil || len(over.Items) != 1 || over.Items[0].ID != late.ID || over.Items[0].OverdueAt == nil {
			t.Errorf("overdue list: %+v, %v", over, err)
		}
	})
}

// TestDisputeFurnisherNotice runs the notice job as the queue would, on
// both databases: an acknowledged notice sets furnisher_notified_at at
// the acknowledgement and tells the source the item and the due time; a
// route with no dispute channel records why, final; a source that fails
// is tried again and, at the last attempt, recorded as never
// acknowledged; an uploaded document has no furnisher and queues no
// notice.
func TestDisputeFurnisherNotice(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		_, stub := w.paystubOf(sandbox.UserGood)
		n := &fakeNotifier{}
		s := w.disputes(n)
		open := func() domain.Dispute {
			d, err := s.OpenDispute(w.ctx, w.sc, "erin", netPay(stub), "end_user")
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		run := func(d domain.Dispute, final bool) (domain.Dispute, error) {
			err := s.NotifyFurnisher(w.ctx, domain.DisputeNoticeRun{Scope: w.sc, ID: d.ID}, final)
			got, rerr := s.Dispute(w.ctx, w.sc, d.ID)
			if rerr != nil {
				t.Fatal(rerr)
			}
			return got, err
		}

		acked := open()
		w.clock.Advance(2 * time.Hour)
		got, err := run(acked, false)
		if err != nil {
			t.Fatal(err)
		}
		if got.Notice.Status != domain.NoticeAcknowledged || got.Notice.NotifiedAt == nil || !got.Notice.NotifiedAt.Equal(w.clock.Now()) ||
			got.Notice.Route != "sandbox" || got.Notice.Reference == "" {
			t.Errorf("acknowledged notice: %+v", got.Notice)
		}
		if len(n.told) != 1 || n.told[0].Version != domain.DisputeNoticeVersion || n.told[0].Item.Field != "net_pay_amount" ||
			!n.told[0].RespondBy.Equal(acked.DueAt) || n.told[0].AccountID != stub.AccountID {
			t.Errorf("the source was told %+v", n.told)
		}
		if _, err := run(acked, false); err != nil || len(n.told) != 1 {
			t.Errorf("a second run of an acknowledged notice told the source again (%d), %v", len(n.told), err)
		}

		n.err = &domain.NoDisputeChannelError{Route: "upstream", Reason: "the upstream's API has no dispute endpoint"}
		none, err := run(open(), false)
		if err != nil || none.Notice.Status != domain.NoticeNotSent || none.Notice.Reason != "the upstream's API has no dispute endpoint" ||
			none.Notice.NotifiedAt != nil || none.Notice.Route != "upstream" {
			t.Errorf("no channel: %+v, %v", none.Notice, err)
		}

		n.err = errors.New("connection refused")
		flaky := open()
		got, err = run(flaky, false)
		if err == nil || got.Notice.Status != domain.NoticePending || got.Notice.Attempts != 1 {
			t.Errorf("a failed try: %+v, %v (want an error to retry, still pending)", got.Notice, err)
		}
		got, err = run(flaky, true)
		if err != nil || got.Notice.Status != domain.NoticeNotSent || !strings.Contains(got.Notice.Reason, "never acknowledged") {
			t.Errorf("the last try: %+v, %v", got.Notice, err)
		}

		doc := w.upload(domain.DocumentPaystub, stubFile(t, "mine.pdf", cleanStub(1)))["mine.pdf"]
		d, err := s.OpenDispute(w.ctx, w.sc, "erin", domain.DisputeRequest{Item: domain.DisputeItem{Type: domain.DisputedDocument, ID: doc.ID, Field: "gross_pay_amount"},
			Note: "I typed this stub wrong."}, "end_user")
		if err != nil {
			t.Fatal(err)
		}
		if d.Notice.Status != domain.NoticeNoFurnisher || !strings.Contains(d.Notice.Reason, "the person uploaded this document") {
			t.Errorf("a document's notice: %+v", d.Notice)
		}
	})
}
