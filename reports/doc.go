// Package reports builds VOIE and VOE verification reports from all of an
// end user's payroll accounts, renders them (and W-2s and direct deposit
// forms) to PDF with fpdf, and signs the expiring links they are
// downloaded through. It depends on domain only; Service implements
// domain.Reporter for REST and GraphQL.
package reports
