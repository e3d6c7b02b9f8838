package reports

import (
	"fmt"

	"payline/domain"
)

// DefaultDisputeContact is whom a consumer is told to contact to dispute a
// report when the operator configures no one (--dispute-contact).
const DefaultDisputeContact = "the organization that requested this report, which can reach Payline's operator"

// fcraText is the notice every report carries, in words a consumer reads:
// their rights under the Fair Credit Reporting Act over the data in it.
const fcraText = "This report may be used in a decision about you, such as a loan or a job. " +
	"Under the Fair Credit Reporting Act (15 U.S.C. § 1681 and following) you have the right to know what is in it, " +
	"to be told if it was used to deny you credit, employment or insurance, " +
	"to get a free copy of it within 60 days of such a decision, " +
	"and to dispute anything in it that is incomplete or wrong: the data is then checked, " +
	"usually within 30 days, and corrected or removed if it cannot be verified. " +
	"%s; to dispute them, contact %s, " +
	"and say which employment and which figure you dispute. " +
	"You can also learn about your rights at consumerfinance.gov/learnmore."

// NewFCRANotice is the notice of a report built from the sources, saying
// where its figures come from (payroll accounts, uploads not confirmed
// with the employer, a person's review: provenance) and whom to contact
// to dispute them (DefaultDisputeContact when contact is empty).
func NewFCRANotice(contact string, sources []Source) domain.FCRANotice {
	if contact == "" {
		contact = DefaultDisputeContact
	}
	return domain.FCRANotice{Text: fmt.Sprintf(fcraText, provenanceOf(sources).fcraSentence(), contact), DisputeContact: contact}
}
