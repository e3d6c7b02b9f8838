package domain

import (
	"testing"
	"time"
)

// TestLinkOrderStateMachine: created → sent → opened → completed |
// expired | canceled, and nothing out of a final status.
func TestLinkOrderStateMachine(t *testing.T) {
	allowed := map[LinkOrderStatus][]LinkOrderStatus{
		OrderCreated: {OrderSent, OrderOpened, OrderCompleted, OrderExpired, OrderCanceled},
		OrderSent:    {OrderOpened, OrderCompleted, OrderExpired, OrderCanceled},
		OrderOpened:  {OrderCompleted, OrderExpired, OrderCanceled},
	}
	for _, from := range LinkOrderStatuses {
		for _, to := range LinkOrderStatuses {
			want := false
			for _, s := range allowed[from] {
				want = want || s == to
			}
			if got := from.CanBecome(to); got != want {
				t.Errorf("%s → %s allowed %v, want %v", from, to, got, want)
			}
		}
		if from.Terminal() != (len(allowed[from]) == 0) {
			t.Errorf("%s terminal %v", from, from.Terminal())
		}
	}
	o := LinkOrder{ID: "o", Status: OrderOpened, Deliveries: []LinkOrderDelivery{{Channel: ChannelEmail, Status: MessageQueued}}}
	now := time.Date(2026, 11, 28, 15, 0, 0, 0, time.UTC)
	if err := o.close(OrderCompleted, now); err != nil || o.Status != OrderCompleted || o.Deliveries[0].Status != MessageSkipped || o.RemindersLeft() != 0 {
		t.Errorf("close: %v %+v", err, o)
	}
	if err := o.close(OrderCanceled, now); err == nil {
		t.Error("a completed order was canceled")
	}
}

// TestQuietHours: 21:00 to 08:00 in the order's zone, across midnight
// and a daylight saving change.
func TestQuietHours(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	for _, tc := range []struct {
		at    time.Time
		quiet bool
		until time.Time
	}{
		{time.Date(2026, 11, 28, 12, 0, 0, 0, ny), false, time.Time{}},
		{time.Date(2026, 11, 28, 8, 0, 0, 0, ny), false, time.Time{}},
		{time.Date(2026, 11, 28, 20, 59, 0, 0, ny), false, time.Time{}},
		{time.Date(2026, 11, 28, 21, 0, 0, 0, ny), true, time.Date(2026, 11, 29, 8, 0, 0, 0, ny)},
		{time.Date(2026, 11, 29, 2, 30, 0, 0, ny), true, time.Date(2026, 11, 29, 8, 0, 0, 0, ny)},
		{time.Date(2026, 11, 1, 0, 30, 0, 0, ny), true, time.Date(2026, 11, 1, 8, 0, 0, 0, ny)}, // the night clocks fall back
	} {
		end, quiet := quietEnd(tc.at.UTC(), ny)
		if quiet != tc.quiet || (quiet && !end.Equal(tc.until)) {
			t.Errorf("%v: quiet %v until %v, want %v until %v", tc.at, quiet, end.In(ny), tc.quiet, tc.until)
		}
	}
}

// TestReminderSchedule: reminders split the window evenly and step out
// of the quiet hours; none falls at or after the expiry.
func TestReminderSchedule(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	created := time.Date(2026, 11, 28, 10, 0, 0, 0, ny).UTC()
	o := LinkOrder{Status: OrderSent, CreatedAt: created, ExpiresAt: created.Add(72 * time.Hour), Reminders: 2, TimeZone: "America/New_York"}
	o.scheduleReminder()
	if o.NextReminderAt == nil || !o.NextReminderAt.Equal(created.Add(24*time.Hour)) || o.RemindersLeft() != 2 {
		t.Errorf("first reminder at %v", o.NextReminderAt)
	}
	o.RemindersSent = 1
	o.scheduleReminder()
	if o.NextReminderAt == nil || !o.NextReminderAt.Equal(created.Add(48*time.Hour)) {
		t.Errorf("second reminder at %v", o.NextReminderAt)
	}
	o.RemindersSent = 2
	if o.scheduleReminder(); o.NextReminderAt != nil || o.RemindersLeft() != 0 {
		t.Errorf("a third reminder at %v", o.NextReminderAt)
	}
	// Made at 19:00: a reminder a third of 9 hours later (22:00) waits for 08:00.
	late := time.Date(2026, 11, 28, 19, 0, 0, 0, ny).UTC()
	o = LinkOrder{Status: OrderSent, CreatedAt: late, ExpiresAt: late.Add(18 * time.Hour), Reminders: 1, TimeZone: "America/New_York"}
	o.scheduleReminder()
	if want := time.Date(2026, 11, 29, 8, 0, 0, 0, ny); o.NextReminderAt == nil || !o.NextReminderAt.Equal(want) {
		t.Errorf("late reminder at %v, want %v", o.NextReminderAt, want)
	}
	// One whose quiet hours' end is past the expiry is not sent.
	o = LinkOrder{Status: OrderSent, CreatedAt: late, ExpiresAt: late.Add(4 * time.Hour), Reminders: 1, TimeZone: "America/New_York"}
	if o.scheduleReminder(); o.NextReminderAt != nil {
		t.Errorf("a reminder after the expiry at %v", o.NextReminderAt)
	}
}

func TestMaskAndPhones(t *testing.T) {
	for in, want := range map[string]string{"jane.doe@example.com": "j***@example.com", "é@example.com": "é***@example.com"} {
		if got := MaskAddress(ChannelEmail, in); got != want {
			t.Errorf("mask %q = %q, want %q", in, got, want)
		}
	}
	if got := MaskAddress(ChannelSMS, "+15552011234"); got != "***-***-1234" {
		t.Errorf("mask phone = %q", got)
	}
	for in, want := range map[string]string{"+15552011234": "+15552011234", "(555) 201-1234": "+15552011234", "1 555 201 1234": "+15552011234",
		"+44 20 7946 0958": "+442079460958", "555-1234": "", "call me": "", "+0123456789": "", "0552011234": ""} {
		got, ok := NormalizePhone(in)
		if ok != (want != "") || got != want {
			t.Errorf("NormalizePhone(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
}
