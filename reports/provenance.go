package reports

import (
	"fmt"
	"slices"
	"strings"

	"payline/domain"
)

// provenance is what a report's figures were read from: payroll
// platforms, paystubs and W-2s the end user uploaded (not confirmed with
// the employer), and who reviewed the uploads a person accepted. The
// FCRA notice, the footer of every page, the completeness block and each
// employment's notice say it from this one value, so they never
// disagree (issue 45: a report of uploads only said its figures were
// "copied from your payroll account").
type provenance struct {
	payroll, paystubs, w2s bool
	// reviewBases are the reviews some uploads rest on ("reviewed by a
	// member of Acme Lending"), each once.
	reviewBases []string
}

// provenanceOf is where the sources' figures come from.
func provenanceOf(sources []Source) provenance {
	var p provenance
	for _, s := range sources {
		if s.DocumentIDs == nil {
			p.payroll = true
		} else if len(s.Paystubs) > 0 {
			p.paystubs = true
		}
		p.w2s = p.w2s || len(s.UploadedW2s) > 0
		for _, b := range s.ReviewBases {
			if !slices.Contains(p.reviewBases, b) {
				p.reviewBases = append(p.reviewBases, b)
			}
		}
	}
	return p
}

// uploads reports whether any figure was read from an upload.
func (p provenance) uploads() bool { return p.paystubs || p.w2s }

// uploadsWord names what the end user uploaded that the report reads:
// "paystubs", "W-2s" or "paystubs and W-2s".
func (p provenance) uploadsWord() string {
	switch {
	case p.paystubs && p.w2s:
		return "paystubs and W-2s"
	case p.w2s:
		return "W-2s"
	}
	return "paystubs"
}

// reviewed is ", some of them reviewed by a person (reviewed by a member
// of Acme Lending)" when a person accepted some uploads, "" otherwise.
func (p provenance) reviewed() string {
	if len(p.reviewBases) == 0 {
		return ""
	}
	return ", some of them checked by a person (" + strings.Join(p.reviewBases, "; ") + ")"
}

// fcraSentence is the FCRA notice's sentence on where the figures come
// from, in the consumer's words ("you"), before "; to dispute them".
func (p provenance) fcraSentence() string {
	switch {
	case p.payroll && p.uploads():
		return "The figures here are copied from your payroll account or read from the " + p.uploadsWord() +
			" you uploaded, which were not confirmed with your employer" + p.reviewed() + " (each employment says which)"
	case p.uploads():
		return "The figures here were read from the " + p.uploadsWord() + " you uploaded and were not confirmed with your employer" + p.reviewed()
	}
	return "The figures here are copied from your payroll account"
}

// footer is the footer's word on where the figures come from; the
// reviews are said where there is room (the notice, each employment).
func (p provenance) footer() string {
	switch {
	case p.payroll && p.uploads():
		return "Figures are as reported by the payroll platforms named or read from " + p.uploadsWord() + " the end user uploaded " +
			"(not confirmed with the employer; each employment names its source), summed by Payline."
	case p.uploads():
		return "Figures are as read from " + p.uploadsWord() + " the end user uploaded, not confirmed with the employer, summed by Payline."
	}
	return payrollFigures
}

// notReportedBy names the sources a missing field was looked for in.
func (p provenance) notReportedBy() string {
	switch {
	case p.payroll && p.uploads():
		return "the payroll platforms or the uploaded " + p.uploadsWord()
	case p.uploads():
		return "the uploaded " + p.uploadsWord()
	}
	return "the payroll platforms"
}

// documentsNotice is what an employment read from uploads says of its
// figures (domain.DocumentsNotice and its kin), and who reviewed them.
func documentsNotice(s Source) string {
	notice := domain.DocumentsNotice
	switch {
	case len(s.Paystubs) > 0 && len(s.UploadedW2s) > 0:
		notice = domain.MixedDocumentsNotice
	case len(s.Paystubs) == 0:
		notice = domain.W2DocumentsNotice
	}
	if len(s.ReviewBases) > 0 {
		words := reviewedWords(s)
		notice += " " + strings.ToUpper(words[:1]) + words[1:] + "."
	}
	return notice
}

// reviewedWords says how many of a source's uploads a person accepted,
// and who: "2 of its 5 documents were reviewed by a member of Acme
// Lending, who accepted their figures" (lower case: it is written within
// a sentence or starts one).
func reviewedWords(s Source) string {
	total, noun := len(s.DocumentIDs), "document"
	if s.DocumentIDs == nil {
		total, noun = len(s.UploadedW2s), "uploaded W-2"
	}
	bases := strings.Join(s.ReviewBases, "; ")
	switch n := len(s.ReviewedIDs); {
	case n == total && n == 1:
		return fmt.Sprintf("its one %s was %s, who accepted its figures", noun, bases)
	case n == total:
		return fmt.Sprintf("all %s were %s, who accepted their figures", plural(n, noun), bases)
	case n == 1:
		return fmt.Sprintf("1 of its %s was %s, who accepted its figures", plural(total, noun), bases)
	default:
		return fmt.Sprintf("%d of its %s were %s, who accepted their figures", n, plural(total, noun), bases)
	}
}
