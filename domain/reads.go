package domain

import (
	"slices"
)

// Rules and helpers the services' reads share: the filters' checks, the
// from_pay_date rule, and the batch reads' shape (results in the order of
// their keys, a not-found error in the slot of an id the scope lacks).
// The reads themselves are methods of their services, in each service's
// file.

// inOrder arranges found items in the order of ids.
func inOrder[T any](ids []string, found []T, idOf func(T) string, notFound func(id string) error) ([]T, []error) {
	byID := make(map[string]T, len(found))
	for _, f := range found {
		byID[idOf(f)] = f
	}
	out, errs := make([]T, len(ids)), make([]error, len(ids))
	for i, id := range ids {
		v, ok := byID[id]
		if !ok {
			errs[i] = notFound(id)
		}
		out[i] = v
	}
	return out, errs
}

// failAll puts one error in every slot.
func failAll[T any](n int, err error) ([]T, []error) {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return make([]T, n), errs
}

// check applies the rules of GET /v1/jobs to a job filter.
func (f JobFilter) check() error {
	var p Problems
	for field, id := range map[string]string{"account_id": f.AccountID, "link_token_id": f.LinkTokenID} {
		if id != "" && !ValidID(id) {
			p.Invalid(field, "%q is not a UUID", id)
		}
	}
	if f.Outcome != "" && !slices.Contains([]Outcome{OutcomeSuccess, OutcomePending, OutcomeError}, f.Outcome) {
		p.Invalid("outcome", "must be success, pending or error")
	}
	for _, j := range f.JobTypes {
		if _, ok := ParseJobType(string(j)); !ok {
			p.Invalid("job_types", "%q is not a job type", j)
		}
	}
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		p.Invalid("to_timestamp", "must be after from_timestamp")
	}
	return p.Err()
}

// check applies the rules of GET /v1/accounts to an account filter.
func (f AccountFilter) check() error {
	var p Problems
	if f.MonitoringStatus != "" && !slices.Contains(MonitoringStatuses, f.MonitoringStatus) {
		p.Invalid("monitoring_status", "must be one of active, degraded, user_action_required, customer_disabled, unavailable")
	}
	if f.PlatformID != "" && !ValidID(f.PlatformID) {
		p.Invalid("platform_id", "%q is not a UUID", f.PlatformID)
	}
	if f.EndUserID != "" && (len(f.EndUserID) > 255 || !storable(f.EndUserID)) {
		p.Invalid("end_user_id", "must be 1 to 255 characters of text")
	} else if problem := idTextProblem(f.EndUserID); problem != "" {
		p.Invalid("end_user_id", "%s", problem)
	}
	return p.Err()
}

// checkFromPayDate is the one rule for from_pay_date, which REST's
// paystub list and GraphQL's paystubs(fromPayDate:) both take: empty, or
// a date in YYYY-MM-DD form.
func checkFromPayDate(from string) error {
	if from == "" {
		return nil
	}
	if _, err := Date(from).Parse(); err != nil || !dateOnly.MatchString(from) {
		return Errorf(KindInvalid, CodeInvalidFields, "from_pay_date: must be a date in YYYY-MM-DD form, got %q", from)
	}
	return nil
}
