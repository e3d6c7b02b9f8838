package domain_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"payline/domain"
)

// TestShiftReadsBothShapes: shifts stored before Payline used the vendor's
// shape ([{type: shift_start|shift_end, timestamp}], no type or currency)
// read as the vendor's ([{from, to}], type shift, currency USD).
func TestShiftReadsBothShapes(t *testing.T) {
	old := `{"start_date": "2026-11-02", "end_date": "2026-11-02", "timezone": "UTC", "earnings": [],
		"timestamps": [{"type": "shift_start", "timestamp": "2026-11-02T09:00:00Z"}, {"type": "shift_end", "timestamp": "2026-11-02T17:30:00Z"}]}`
	want := domain.Shift{StartDate: "2026-11-02", EndDate: "2026-11-02", Type: "shift", Timezone: "UTC", Currency: "USD",
		Timestamps: []domain.ShiftPeriod{{From: "2026-11-02T09:00:00Z", To: "2026-11-02T17:30:00Z"}}, Earnings: []domain.PayLine{}}
	var got domain.Shift
	if err := json.Unmarshal([]byte(old), &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("old shape read as %+v, %v", got, err)
	}
	b, _ := json.Marshal(got)
	var again domain.Shift
	if err := json.Unmarshal(b, &again); err != nil || !reflect.DeepEqual(again, want) {
		t.Fatalf("new shape %s read back as %+v, %v", b, again, err)
	}
}

// FuzzShiftJSON: any JSON a shift row could hold reads without panicking,
// and what it reads writes back to the same shift.
func FuzzShiftJSON(f *testing.F) {
	f.Add(`{"start_date": "2026-11-02", "timestamps": [{"type": "shift_start", "timestamp": "a"}, {"type": "shift_end", "timestamp": "b"}]}`)
	f.Add(`{"timestamps": [{"from": "a", "to": "b"}], "type": "delivery", "currency": "CAD"}`)
	f.Add(`{"timestamps": [{"type": "shift_end", "timestamp": "b"}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var s domain.Shift
		if json.Unmarshal([]byte(raw), &s) != nil {
			return
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var again domain.Shift
		if err := json.Unmarshal(b, &again); err != nil || !reflect.DeepEqual(again, s) {
			t.Fatalf("%s read back as %+v, not %+v (%v)", b, again, s, err)
		}
	})
}

// TestJobParamsRoundTrip: params read back as MarshalJSON wrote them,
// amounts from their text, as a relayed upstream's jobs carry them.
func TestJobParamsRoundTrip(t *testing.T) {
	for _, p := range []domain.JobParams{
		{Action: "partial_switch", Allocation: &domain.JobParamsAllocation{Split: domain.Split{Type: domain.AllocationAmount, Amount: domain.USD(15001)},
			Target: domain.JobParamsTarget{AccountName: "Main", AccountType: "checking", LastFour: "6789"}}},
		{Action: "partial_switch", Allocation: &domain.JobParamsAllocation{Split: domain.Split{Type: domain.AllocationPercentage, Percentage: 25},
			Target: domain.JobParamsTarget{AccountType: "savings", LastFour: "1234"}}},
		{Read: &domain.ReadParams{Count: 12, FromPayDate: "2025-01-03", ToPayDate: "2026-11-20", SyncStatus: "complete"}},
		{Bill: &domain.BillParams{Type: "card", Payment: &domain.BillPayment{CardName: "Visa", LastFourCardNumber: "4242"}}},
		{},
	} {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back domain.JobParams
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if again, _ := json.Marshal(back); string(again) != string(b) {
			t.Errorf("%s read back as %s", b, again)
		}
	}
}
