package wire

import "payline/domain"

// BillBody is a bill change as the sandbox helper and Link's API take it:
// the job, and for a bill switch a card or the name of one of the link
// token's bank accounts.
type BillBody struct {
	Job    domain.JobType `json:"job"`
	Target string         `json:"target"`
	Card   *struct {
		Number   string `json:"number"`
		Name     string `json:"name"`
		ExpMonth int    `json:"exp_month"`
		ExpYear  int    `json:"exp_year"`
	} `json:"card"`
}

// Request is the body as the domain's request; nil for no body.
func (b *BillBody) Request() *domain.BillRequest {
	if b == nil {
		return nil
	}
	r := &domain.BillRequest{Job: b.Job, TargetName: b.Target}
	if c := b.Card; c != nil {
		r.Card = &domain.CardInput{Number: c.Number, Name: c.Name, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear}
	}
	return r
}
